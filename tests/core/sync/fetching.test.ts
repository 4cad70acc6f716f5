import { afterEach, describe, expect, it, vi } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import type { PageWrite } from '../../../src/core/store/write/page-write'
import { readSyncState } from '../../../src/core/store/sync-state'
import type { StoreClient } from '../../../src/core/owner/store-owner'
import { clientSyncSource, type SyncSource } from '../../../src/core/sync/paged-pass'
import { SyncEngine } from '../../../src/core/sync/sync-engine'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { RecordedLimit } from '../helpers/recorded-limit'
import { startHarness } from './harness'

/**
 * How the sync fills the wire: the page size it learns
 * and remembers, writes that overlap fetches, and the adaptive number of
 * requests in flight against the sandbox with its `latency` and
 * `rate_limit` faults.
 */

let h: Awaited<ReturnType<typeof startHarness>> | null = null
let sandbox: Sandbox | null = null
afterEach(async () => {
  await h?.close()
  await sandbox?.close()
  h = null
  sandbox = null
})

const sizeOf = (url: URL): number => Number(url.searchParams.get('pageSize'))

describe('page size', () => {
  it('is learned from the capped first page, remembered per list, and asked at once next time', async () => {
    h = await startHarness({ size: 450 })
    await h.engine.run(['inspections'], 'full')
    // Asked 500, got the sandbox's 100: remembered for the inspection list only.
    expect(sizeOf(h.proxy.urls[0]!)).toBe(500)
    expect(readSyncState(h.db, 'inspections').pageSize).toBe(100)
    expect(readSyncState(h.db, 'guarantees').pageSize).toBeNull()

    // The next (incremental) sync asks for 100 from its very first request.
    const before = h.proxy.urls.length
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done' })
    const incremental = h.proxy.urls.slice(before)
    expect(incremental[0]!.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(incremental.map(sizeOf)).toEqual(incremental.map(() => 100))

    // A new full pass asks for more again (a service may have raised its cap) and re-learns it.
    const full = h.proxy.urls.length
    await h.engine.run(['inspections'], 'full')
    expect(sizeOf(h.proxy.urls[full]!)).toBe(500)
    expect(readSyncState(h.db, 'inspections').pageSize).toBe(100)
  })

  it('a remembered size survives restarting the app (it is stored with the sync state)', async () => {
    h = await startHarness({ size: 250 })
    await h.engine.run(['guarantees'], 'full')
    // A second engine on the same store, as after a restart.
    const engine = new SyncEngine({
      store: h.store,
      source: clientSyncSource(clientFor(h.proxy.baseUrl, h.sandbox)),
      events: h.events,
      pageSize: 500,
    })
    const before = h.proxy.urls.length
    await engine.run(['guarantees'], 'incremental')
    expect(h.proxy.urls.slice(before).map(sizeOf)).toEqual(
      h.proxy.urls.slice(before).map(() => 100),
    )
  })

  it('a service that echoes a smaller pageSize is taken at its word, even on a short list', async () => {
    // 80 records fit in one page: only the echo tells that the service would cap at 100.
    h = await startHarness({ size: 80 })
    h.proxy.fault = (url, body) => ({ ...body, pageSize: Math.min(100, sizeOf(url)) }) as never
    await h.engine.run(['inspections'], 'full')
    expect(readSyncState(h.db, 'inspections').pageSize).toBe(100)
    expect(h.count('inspections')).toBe(80)
    // Without the echo nothing can be learned from a single short page.
    h.proxy.fault = null
    await h.engine.run(['guarantees'], 'full')
    expect(readSyncState(h.db, 'guarantees').pageSize).toBeNull()
  })
})

describe('writing overlaps fetching', () => {
  it('page N is written while pages N+1… are already being fetched', async () => {
    h = await startHarness({ size: 800 })
    const log: string[] = []
    const base = clientSyncSource(clientFor(h.proxy.baseUrl, h.sandbox))
    const source: SyncSource = {
      ...base,
      async inspections(query, signal) {
        log.push(`fetch ${query.page}`)
        return base.inspections(query, signal)
      },
    }
    // A slow disk: the write of page N ends only once page N+3 (or the last, 8) has been asked
    // for. An engine that fetched nothing while a write was pending would never see it end.
    const real = h.store
    const store: StoreClient = {
      resetWrites: () => real.resetWrites(),
      call: (async (op: string, ...args: unknown[]) => {
        const write = args[0] as PageWrite | undefined
        const page = write?.state?.checkpoint ? write.state.checkpoint.nextPage - 1 : null
        if (op !== 'writePage' || page === null) {
          return (real.call as (op: string, ...a: unknown[]) => Promise<unknown>)(op, ...args)
        }
        log.push(`write ${page} start`)
        const awaited = `fetch ${Math.min(page + 3, 8)}`
        await vi.waitFor(
          () => {
            if (!log.includes(awaited)) throw new Error(`write ${page} waits for "${awaited}"`)
          },
          { timeout: 10_000, interval: 2 },
        )
        const result = await real.call('writePage', write!)
        log.push(`write ${page} end`)
        return result
      }) as StoreClient['call'],
    }
    const engine = new SyncEngine({ store, source, events: h.events, pageSize: 100 })
    const [outcome] = await engine.run(['inspections'], 'full')
    expect(outcome).toMatchObject({ phase: 'done', complete: true })
    expect(h.count('inspections')).toBe(800)
    // For every page but the last, the next page was asked for before its write ended,
    // and while one write was pending, later pages were fetched.
    for (let page = 1; page < 8; page += 1) {
      expect(log.indexOf(`fetch ${page + 1}`)).toBeLessThan(log.indexOf(`write ${page} end`))
    }
    const fetchedDuringWrite = log.filter(
      (entry, i) => entry.startsWith('fetch') && log.slice(0, i).some((e) => e === 'write 1 start'),
    )
    expect(fetchedDuringWrite.length).toBeGreaterThan(0)
    expect(log.indexOf('fetch 8')).toBeLessThan(log.indexOf('write 5 end'))
  })
})

describe('requests in flight against the sandbox with latency and rate-limit faults', () => {
  /** Node's fetch, counting the requests open at once and when each was sent; `onSend` sees each. */
  function countingFetch(onSend?: (count: number) => void) {
    const state = { open: 0, maxOpen: 0, sent: [] as number[] }
    const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
      state.sent.push(Date.now())
      onSend?.(state.sent.length)
      state.open += 1
      state.maxOpen = Math.max(state.maxOpen, state.open)
      try {
        const response = await globalThis.fetch(input, init)
        // The body is part of the request: count it open until it is read.
        const body = await response.arrayBuffer()
        return new Response(body, { status: response.status, headers: response.headers })
      } finally {
        state.open -= 1
      }
    }
    return { fetch, state }
  }

  /** A full guarantee sync from `from` into the harness's store, with the app's defaults but `fetch` and `limit`. */
  async function syncFrom(
    from: Sandbox,
    fetch: (input: string, init?: RequestInit) => Promise<Response>,
    limit: RecordedLimit,
  ) {
    const client = new PartnerClient({
      fetch,
      target: { baseUrl: from.baseUrl, partnerId: from.partnerId },
      credentials: async () => ({ apiKey: from.apiKey, apiSecret: from.apiSecret }),
      inFlight: limit,
    })
    const engine = new SyncEngine({
      store: h!.store,
      source: clientSyncSource(client),
      events: h!.events,
    })
    const [outcome] = await engine.run(['guarantees'], 'full')
    return outcome
  }

  it('grows to 8 in flight against a slow but clean service, and the sync completes', async () => {
    // 80 ms a request: far above the machine's own jitter, so only the service's speed counts.
    sandbox = await startSandbox({ seed: 3, size: 6000, faults: [{ kind: 'latency', ms: 80 }] })
    h = await startHarness({ size: 10 })
    const counting = countingFetch()
    const limit = new RecordedLimit()
    const outcome = await syncFrom(sandbox, counting.fetch, limit)
    expect(outcome).toMatchObject({ phase: 'done', complete: true, fetched: 6000 })
    // It started at 3: the first answer made it 4.
    expect(limit.history[0]).toBe(4)
    expect(Math.max(...limit.history)).toBe(8)
    // Requests really went out side by side, more than the 3 it started with, never more than 8.
    expect(counting.state.maxOpen).toBeGreaterThan(3)
    expect(counting.state.maxOpen).toBeLessThanOrEqual(8)
  })

  it('a 429 with Retry-After halves the limit and holds every request for that long; nothing is lost', async () => {
    sandbox = await startSandbox({
      seed: 3,
      size: 3000,
      faults: [{ kind: 'latency', ms: 20 }],
    })
    h = await startHarness({ size: 10 })
    const limit = new RecordedLimit()
    let grownTo = 0
    let refusedFrom = 0
    const counting = countingFetch((count) => {
      // Once the limit has grown, the service starts refusing: one 429 asking for 1 s.
      if (count === 12) {
        grownTo = limit.limit
        refusedFrom = limit.history.length
        sandbox!.setFaults([
          { kind: 'rate_limit', retryAfter: 1, count: 1 },
          { kind: 'latency', ms: 20 },
        ])
      }
    })
    const outcome = await syncFrom(sandbox, counting.fetch, limit)
    expect(outcome).toMatchObject({ phase: 'done', complete: true, fetched: 3000 })
    expect(grownTo).toBeGreaterThan(3)
    // The 429 halved the limit (never below 1), whatever it grew back to afterwards.
    const afterRefusal = limit.history.slice(refusedFrom)
    expect(Math.min(...afterRefusal)).toBeLessThanOrEqual(Math.floor(grownTo / 2))
    expect(Math.min(...limit.history)).toBeGreaterThanOrEqual(1)
    const pause = limit.pausedUntil
    expect(pause).toBeGreaterThan(0)
    // Every request sent after the 429 arrived waited until the pause was over.
    const after = counting.state.sent.filter((at) => at > pause - 1000)
    expect(after.length).toBeGreaterThan(0)
    expect(Math.min(...after)).toBeGreaterThanOrEqual(pause)
    expect(h.count('guarantees')).toBe(3000)
  })
})

function clientFor(baseUrl: string, target: Sandbox): PartnerClient {
  return new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl, partnerId: target.partnerId },
    credentials: async () => ({ apiKey: target.apiKey, apiSecret: target.apiSecret }),
  })
}
