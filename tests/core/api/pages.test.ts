import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { PageWalker, type PageFetcher } from '../../../src/core/api/pages'

/** A list of `total` numbered entries served `cap` at a time, counting requests in flight. */
function fakeList(total: number, cap: number, delayMs = 5) {
  const state = { inflight: 0, maxInflight: 0, asked: [] as number[] }
  const fetch: PageFetcher<number> = async (page, pageSize, signal) => {
    state.asked.push(page)
    state.inflight += 1
    state.maxInflight = Math.max(state.maxInflight, state.inflight)
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      if (signal?.aborted) throw signal.reason
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
    const state = { requests: 0, maxRequests: 0, maxPages: 0, pages: 0, asked: [] as number[] }
    const fetch: PageFetcher<number> = async (page, pageSize, _signal, answered) => {
      state.asked.push(page)
      state.requests += 1
      state.pages += 1
      state.maxRequests = Math.max(state.maxRequests, state.requests)
      state.maxPages = Math.max(state.maxPages, state.pages)
      await new Promise((resolve) => setTimeout(resolve, 5))
      state.requests -= 1
      answered?.()
      await new Promise((resolve) => setTimeout(resolve, 30))
      state.pages -= 1
      const items = Array.from({ length: 100 }, (_, i) => (page - 1) * 100 + i)
      return {
        total: 2000,
        page,
        received: 100,
        items,
        rejected: 0,
        rejects: [],
        fingerprint: `${page}`,
      }
    }
    const walker = new PageWalker(fetch, { pageSize: 100, concurrency: 2 })
    expect(await collect(walker)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    // Never more than 2 requests out at once, but more pages than that in the works (their
    // answers being parsed), and no page asked for twice.
    expect(state.maxRequests).toBe(2)
    expect(state.maxPages).toBeGreaterThan(2)
    // Still at most twice the limit ahead of the caller.
    expect(state.maxPages).toBeLessThanOrEqual(5)
    expect(new Set(state.asked).size).toBe(state.asked.length)
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
    try {
      for await (const page of walker) {
        if (page.pageNumber === 2) controller.abort(new Error('stop'))
      }
    } catch (error) {
      caught = error
    }
    expect(caught).toEqual(new Error('stop'))
    expect(isAppError(caught)).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 40))
    expect(list.state.inflight).toBe(0)
  })
})
