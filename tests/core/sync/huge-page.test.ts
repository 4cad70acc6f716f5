import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness } from './harness'

/**
 * FAULTS row 12, the half under the cap: a 10,000-item page (the service
 * ignoring `pageSize`) goes through the real client, the sync engine and the
 * database owner thread as in the app, and the main event loop stays free while it
 * is stored. The half above the cap (a 60 MB body → `too_large` while
 * streaming) is tests/core/sandbox/faults.test.ts "row 12".
 */
const ITEMS = 10_000
/**
 * Generous for a loaded 2-core CI machine (the design's target is ~100 ms;
 * seen: 170–800 ms with the writer thread, 1.5 s with the inline writer).
 * A load spike is retried; a real regression fails every time.
 */
const MAX_DELAY_MS = Number(process.env['HUGE_PAGE_MAX_DELAY_MS'] ?? 1000)

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h?.close()
})

describe('a 10k-item page (FAULTS 12)', () => {
  it('is stored whole while the event loop delay stays bounded', { retry: 2 }, async () => {
    h = await startHarness({ size: ITEMS, engine: { concurrency: 1 } })
    const all = Array.from({ length: ITEMS }, (_, i) => ({ ...h.sandbox.dataset.guarantee(i) }))
    const bytes = Buffer.byteLength(JSON.stringify({ total: ITEMS, page: 1, data: all }))
    h.proxy.fault = (url) => {
      if (!url.pathname.endsWith('/guarantee')) return undefined
      const page = Number(url.searchParams.get('page'))
      return { total: ITEMS, page, data: page === 1 ? all : [] }
    }

    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const [outcome] = await h.engine.run(['guarantees'])
    delay.disable()

    expect(outcome).toMatchObject({ resource: 'guarantees', phase: 'done', complete: true })
    expect(h.count('guarantees')).toBe(ITEMS)
    expect(bytes).toBeGreaterThan(1024 * 1024)
    const maxMs = delay.max / 1e6
    console.info(
      `[row 12] ${ITEMS} items, ${(bytes / 1024 / 1024).toFixed(1)} MB page: event loop delay max ${maxMs.toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
    )
    expect(maxMs).toBeLessThan(MAX_DELAY_MS)
  })
})
