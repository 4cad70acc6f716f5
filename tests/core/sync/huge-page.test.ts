import { afterEach, describe, expect, it, vi } from 'vitest'
import { startHarness } from './harness'

/**
 * docs/faults.md F12, the half under the cap: a 10,000-item page (the service
 * ignoring `pageSize`) goes through the real client, the sync engine and the
 * database owner thread as in the app, and the main thread never parses it:
 * the page thread does, and hands the owner thread encoded rows. Every
 * `JSON.parse` on the main thread is counted while the page is synced; the
 * test's own proxy parses the sandbox's 100-item answers there, never a text
 * as long as the page. The half above the cap (a 60 MB body → `too_large`
 * while streaming) is tests/core/sandbox/faults.test.ts "docs/faults.md F12".
 */
const ITEMS = 10_000

let h: Awaited<ReturnType<typeof startHarness>> | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await h?.close()
  h = undefined
})

describe('a 10k-item page (docs/faults.md F12)', () => {
  it('is stored whole and never parsed on the main thread', async () => {
    h = await startHarness({ size: ITEMS, engine: { concurrency: 1 } })
    const all = Array.from({ length: ITEMS }, (_, i) => ({ ...h!.sandbox.dataset.guarantee(i) }))
    // The proxy sends this very text (same keys, same order) as page 1.
    const pageText = JSON.stringify({ total: ITEMS, page: 1, data: all })
    expect(Buffer.byteLength(pageText)).toBeGreaterThan(1024 * 1024)
    h.proxy.fault = (url) => {
      if (!url.pathname.endsWith('/guarantee')) return undefined
      const page = Number(url.searchParams.get('page'))
      return { total: ITEMS, page, data: page === 1 ? all : [] }
    }

    const parse = JSON.parse
    const parsedLengths: number[] = []
    vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver) => {
      parsedLengths.push(text.length)
      return parse(text, reviver) as unknown
    })
    const [outcome] = await h.engine.run(['guarantees'])
    vi.restoreAllMocks()

    expect(outcome).toMatchObject({ resource: 'guarantees', phase: 'done', complete: true })
    expect(h.count('guarantees')).toBe(ITEMS)
    // The proxy's parses of the sandbox's answers show the count sees main-thread parses at all.
    expect(parsedLengths.length).toBeGreaterThan(0)
    expect(parsedLengths.filter((length) => length >= pageText.length)).toEqual([])
  })
})
