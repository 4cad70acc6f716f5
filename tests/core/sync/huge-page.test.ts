import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { startHarness } from './harness'

/**
 * docs/faults.md F12, the half under the cap: a 10,000-item page (the service
 * ignoring `pageSize`) goes through the real client, the sync engine and the
 * database owner thread as in the app, and the main event loop stays free while it
 * is stored. The half above the cap (a 60 MB body → `too_large` while
 * streaming) is tests/core/sandbox/faults.test.ts "docs/faults.md F12".
 *
 * The longest stretch the main thread runs without yielding is measured in
 * its own CPU time (`process.threadCpuUsage` between ticks of a 5 ms timer),
 * which a busy machine does not inflate; the wall-clock event loop delay
 * (`monitorEventLoopDelay`) is printed beside it for the record, since on a
 * loaded 2-core machine it grows with the load (seen: 170 ms idle, 2.1 s at
 * load average 17).
 */
const ITEMS = 10_000
/** The design's target is ~100 ms; generous so a slow CPU passes, tight enough to catch a page written on the main thread. */
const MAX_BLOCK_CPU_MS = Number(process.env['HUGE_PAGE_MAX_BLOCK_MS'] ?? 600)

let h: Awaited<ReturnType<typeof startHarness>> | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/** Starts measuring the main thread; `stop()` answers its longest CPU-bound stretch and the loop delay. */
function watchMainThread(): () => { blockCpuMs: number; delayMaxMs: number; delayP99Ms: number } {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  let last = process.threadCpuUsage()
  let blockCpuMs = 0
  const sample = () => {
    const now = process.threadCpuUsage()
    const ms = (now.user - last.user + (now.system - last.system)) / 1000
    blockCpuMs = Math.max(blockCpuMs, ms)
    last = now
  }
  const timer = setInterval(sample, 5)
  return () => {
    sample()
    clearInterval(timer)
    delay.disable()
    return { blockCpuMs, delayMaxMs: delay.max / 1e6, delayP99Ms: delay.percentile(99) / 1e6 }
  }
}

describe('a 10k-item page (docs/faults.md F12)', () => {
  it('is stored whole while the main thread never runs long without yielding', async () => {
    h = await startHarness({ size: ITEMS, engine: { concurrency: 1 } })
    const all = Array.from({ length: ITEMS }, (_, i) => ({ ...h!.sandbox.dataset.guarantee(i) }))
    const bytes = Buffer.byteLength(JSON.stringify({ total: ITEMS, page: 1, data: all }))
    h.proxy.fault = (url) => {
      if (!url.pathname.endsWith('/guarantee')) return undefined
      const page = Number(url.searchParams.get('page'))
      return { total: ITEMS, page, data: page === 1 ? all : [] }
    }

    const stop = watchMainThread()
    const [outcome] = await h.engine.run(['guarantees'])
    const seen = stop()

    expect(outcome).toMatchObject({ resource: 'guarantees', phase: 'done', complete: true })
    expect(h.count('guarantees')).toBe(ITEMS)
    expect(bytes).toBeGreaterThan(1024 * 1024)
    console.info(
      `[F12] ${ITEMS} items, ${(bytes / 1024 / 1024).toFixed(1)} MB page: longest main-thread stretch ${seen.blockCpuMs.toFixed(0)} ms CPU; event loop delay max ${seen.delayMaxMs.toFixed(0)} ms, p99 ${seen.delayP99Ms.toFixed(0)} ms`,
    )
    expect(seen.blockCpuMs).toBeLessThan(MAX_BLOCK_CPU_MS)
  })
})
