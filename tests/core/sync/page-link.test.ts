import { MessageChannel } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import { storeFileFor } from '../../../src/core/store/paths'
import { encodeRows } from '../../../src/core/store/write/row-format'
import { clientSyncSource } from '../../../src/core/sync/paged-pass'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import { SyncEngine } from '../../../src/core/sync/sync-engine'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { meterRelays } from '../../../bench/relay-meter'
import { failure } from '../../support/failure'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { inspection, tempDir } from '../store/fixtures'
import { startHarness } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function owner(): Promise<StoreOwner> {
  const temp = tempDir()
  const store = await StoreOwner.open({
    file: storeFileFor(temp.dir, 'link'),
    threads: SOURCE_STORE_WORKER,
  })
  cleanups.push(temp.remove, () => store.close())
  return store
}

const write = (n: number, parcel: number, link = 1) => ({
  resource: 'inspections' as const,
  encoded: { count: n, link, parcel, chunk: 0 },
  pass: 1,
  at: '2026-01-01T00:00:00Z',
})

describe('the page link between the page thread and the owner', () => {
  it('a write whose records have not arrived waits for them, and what was asked after it waits too', async () => {
    const store = await owner()
    const { port1, port2 } = new MessageChannel()
    cleanups.push(() => port1.close())
    store.receivePages(1, port2)
    const order: string[] = []
    const written = store.call('writePage', write(3, 7)).then(() => order.push('write'))
    const counted = store
      .call('queryInspections', { limit: 10 })
      .then((page) => order.push(`query ${page.rows.length}`))
    // The records come after the write that names them (as they may: they travel on another port).
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve))
    expect(order).toEqual([])
    const bytes = encodeRows('inspections', [inspection(1), inspection(2), inspection(3)]).bytes
    port1.postMessage({ parcel: 7, chunks: [bytes] })
    await Promise.all([written, counted])
    expect(order).toEqual(['write', 'query 3'])
  })

  it('fails a write whose records can no longer come (the page thread went), until the next reset', async () => {
    const store = await owner()
    const { port1, port2 } = new MessageChannel()
    store.receivePages(1, port2)
    const lost = failure(store.call('writePage', write(2, 9)))
    port1.close()
    const error = await lost
    expect(isAppError(error, 'internal')).toBe(true)
    expect((error as Error).message).toMatch(/never reached the cache/)
    store.resetWrites()
    await store.call('writePage', { ...write(0, 0), encoded: encodeRows('inspections', []) })
    expect((await store.call('queryInspections', { limit: 10 })).rows).toHaveLength(0)
  })

  it("a sync's page writes do not pass the main thread: it relays no byte of them", async () => {
    const h = await startHarness({ size: 600 })
    cleanups.push(() => h.close())
    const meter = meterRelays()
    try {
      const [outcome] = await h.engine.run(['inspections'], 'full')
      expect(outcome).toMatchObject({ phase: 'done', fetched: 600 })
    } finally {
      meter.stop()
    }
    expect(h.count('inspections')).toBe(600)
    expect(meter.bytes).toBe(0)
  })

  it('the meter sees the bytes when the main thread does relay them (parsed without a link)', async () => {
    const h = await startHarness({ size: 300 })
    cleanups.push(() => h.close())
    const pages = new PageThread(SOURCE_PAGE_WORKER)
    cleanups.push(() => pages.close())
    const client = new PartnerClient({
      fetch: globalThis.fetch,
      target: { baseUrl: h.proxy.baseUrl, partnerId: h.sandbox.partnerId },
      credentials: async () => ({ apiKey: h.sandbox.apiKey, apiSecret: h.sandbox.apiSecret }),
    })
    const engine = new SyncEngine({
      store: h.store,
      source: clientSyncSource(client, pages),
      events: new EventBus(),
      pageSize: 100,
    })
    const meter = meterRelays()
    try {
      await engine.run(['inspections'], 'full')
    } finally {
      meter.stop()
    }
    expect(h.count('inspections')).toBe(300)
    expect(meter.bytes).toBeGreaterThan(300 * 50)
  })
})
