import { describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { PageWalker, type PageFetcher } from '../../../src/core/sync/paged-pass'

/**
 * A list of `total` numbered entries served `cap` at a time, counting pages
 * in the works (`inflight`) and requests not answered yet (`requests`). With
 * `parseMs`, an answer is parsed that long after it arrived, as the sync's
 * page thread does, and the walker is told when it arrived (`answered`).
 */
function fakeList(total: number, cap: number, delayMs = 5, parseMs = 0) {
  const state = {
    inflight: 0,
    maxInflight: 0,
    requests: 0,
    maxRequests: 0,
    asked: [] as number[],
    /** Pages whose fetch saw the walk's cancel and ended with it. */
    cancelled: [] as number[],
  }
  const fetch: PageFetcher<number> = async (page, pageSize, signal, answered) => {
    state.asked.push(page)
    state.inflight += 1
    state.requests += 1
    state.maxInflight = Math.max(state.maxInflight, state.inflight)
    state.maxRequests = Math.max(state.maxRequests, state.requests)
    let waiting = true
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      if (parseMs > 0) {
        waiting = false
        state.requests -= 1
        answered?.()
        await new Promise((resolve) => setTimeout(resolve, parseMs))
      }
      if (signal?.aborted) {
        state.cancelled.push(page)
        throw signal.reason
      }
      const size = Math.min(pageSize, cap)
      const items = Array.from({ length: size }, (_, i) => (page - 1) * size + i).filter(
        (n) => n < total,
      )
      return {
        total,
        page,
        received: items.length,
        items,
        rejected: 0,
        rejects: [],
        fingerprint: items.join(','),
      }
    } finally {
      state.inflight -= 1
      if (waiting) state.requests -= 1
    }
  }
  return { fetch, state }
}

async function collect(walker: PageWalker<number>): Promise<number[]> {
  const pages: number[] = []
  for await (const page of walker) pages.push(page.pageNumber)
  return pages
}

describe('the page walker', () => {
  it('keeps at most `concurrency` pages in flight and yields them in order', async () => {
    const list = fakeList(1000, 100)
    const walker = new PageWalker(list.fetch, { pageSize: 500, concurrency: 3 })
    expect(await collect(walker)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(list.state.maxInflight).toBe(3)
    expect(walker.summary).toMatchObject({ end: 'complete', seen: 1000, pageSize: 100, pages: 10 })
    // Nothing past the last useful page was asked for.
    expect(Math.max(...list.state.asked)).toBe(10)
  })

  it('counts a request in flight until the service answered, not while its answer is parsed elsewhere', async () => {
    // Answers take 5 ms; parsing each one (another thread in the app) 30 ms more.
    const list = fakeList(2000, 100, 5, 30)
    const walker = new PageWalker(list.fetch, { pageSize: 100, concurrency: 2 })
    expect(await collect(walker)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    // Never more than 2 requests out at once, but more pages than that in the works (their
    // answers being parsed), at most twice the limit ahead of the caller, none asked twice.
    expect(list.state.maxRequests).toBe(2)
    expect(list.state.maxInflight).toBeGreaterThan(2)
    expect(list.state.maxInflight).toBeLessThanOrEqual(5)
    expect(new Set(list.state.asked).size).toBe(list.state.asked.length)
  })

  it('resumes at a page with what was seen before it', async () => {
    const list = fakeList(450, 100)
    const walker = new PageWalker(list.fetch, { pageSize: 100, startPage: 4, seen: 300 })
    expect(await collect(walker)).toEqual([4, 5])
    expect(list.state.asked).toEqual([4, 5])
    expect(walker.summary).toMatchObject({ end: 'complete', seen: 450, pages: 2 })
  })

  it('a resumed walk whose pages were all stored before it stopped ends complete, not short', async () => {
    const list = fakeList(450, 100)
    const walker = new PageWalker(list.fetch, { pageSize: 100, startPage: 6, seen: 450 })
    expect(await collect(walker)).toEqual([])
    expect(list.state.asked).toEqual([6])
    expect(walker.summary).toMatchObject({ end: 'complete', seen: 450, total: 450 })
  })

  it('stops after maxPages (a slice)', async () => {
    const list = fakeList(1000, 100)
    const walker = new PageWalker(list.fetch, { pageSize: 100, maxPages: 2, concurrency: 3 })
    expect(await collect(walker)).toEqual([1, 2])
    expect(walker.summary?.end).toBe('max_pages')
    expect(list.state.asked.every((page) => page <= 2)).toBe(true)
  })

  it('a cancel ends the walk with the cancel and drops the pages asked ahead', async () => {
    const list = fakeList(1000, 100, 20)
    const controller = new AbortController()
    const walker = new PageWalker(list.fetch, {
      pageSize: 100,
      concurrency: 3,
      signal: controller.signal,
    })
    let caught: unknown
    let askedAtCancel = 0
    try {
      for await (const page of walker) {
        if (page.pageNumber === 2) {
          controller.abort(new Error('stop'))
          askedAtCancel = list.state.asked.length
        }
      }
    } catch (error) {
      caught = error
    }
    expect(caught).toEqual(new Error('stop'))
    expect(isAppError(caught)).toBe(false)
    // Every page asked ahead sees the cancel and ends with it; none is asked after it.
    expect(askedAtCancel).toBeGreaterThan(2)
    await vi.waitFor(() => expect(list.state.inflight).toBe(0))
    expect(list.state.asked).toHaveLength(askedAtCancel)
    expect(list.state.cancelled.sort((a, b) => a - b)).toEqual(list.state.asked.slice(2))
  })
})
