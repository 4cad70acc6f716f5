import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { openStore } from '../../../src/core/store/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { StoreOwner } from '../../../src/core/store/owner/store-owner'
import { clientSyncSource } from '../../../src/core/sync/partner-source'
import { SyncEngine } from '../../../src/core/sync/sync-engine'
import { readSyncState } from '../../../src/core/store/sync-state'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

it('a sync killed with SIGKILL at page 3 reopens consistent and resumes from its checkpoint (docs/faults.md F26)', async () => {
  h = await startHarness({ size: 450, engine: { concurrency: 1 } })
  const dataDir = h.temp.dir

  const child = fork(fileURLToPath(new URL('./sync-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SYNC_CHILD: JSON.stringify({
        baseUrl: h.proxy.baseUrl,
        partnerId: h.sandbox.partnerId,
        apiKey: h.sandbox.apiKey,
        apiSecret: h.sandbox.apiSecret,
        dataDir,
        killAtPage: 3,
      }),
    },
    stdio: 'ignore',
  })
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, sig) => resolve(sig)),
  )
  expect(signal).toBe('SIGKILL')

  const reopened = openStore(storeFileFor(dataDir, 'sandbox'))
  expect(reopened.notice).toBeNull()
  const db = reopened.db
  expect((db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check).toBe('ok')
  const state = readSyncState(db, 'inspections')
  expect(state.status).toBe('syncing')
  // Page 3 was committed when the process died. Up to three later page writes may
  // already have been queued at the owner thread (maxPendingWrites) and committed
  // before the kill landed: what matters is that rows and checkpoint agree.
  const nextPage = state.checkpoint!.nextPage
  expect(nextPage).toBeGreaterThanOrEqual(4)
  expect(nextPage).toBeLessThanOrEqual(7)
  const pageSize = state.checkpoint!.pageSize
  const count = () => (db.prepare('SELECT count(*) AS n FROM inspections').get() as { n: number }).n
  // The last of the 450 records' pages holds 50: it may be among those committed.
  expect(count()).toBe(Math.min((nextPage - 1) * pageSize, 450))
  db.close()

  // The app restarts: the status shows the interrupted pass as resumable, and auto resumes it.
  const store = await StoreOwner.open({
    file: storeFileFor(dataDir, 'sandbox'),
    threads: SOURCE_STORE_WORKER,
  })
  const engine = new SyncEngine({
    store,
    source: clientSyncSource(
      new PartnerClient({
        fetch: globalThis.fetch,
        target: { baseUrl: h.proxy.baseUrl, partnerId: h.sandbox.partnerId },
        credentials: async () => ({ apiKey: h.sandbox.apiKey, apiSecret: h.sandbox.apiSecret }),
      }),
    ),
    events: new EventBus(),
  })
  expect((await engine.status()).resources.find((r) => r.resource === 'inspections')).toMatchObject(
    {
      status: 'idle',
      resumable: true,
    },
  )
  const before = h.proxy.urls.length
  const [outcome] = await engine.run(['inspections'])
  expect(outcome).toMatchObject({ phase: 'done', complete: true })
  expect(Number(h.proxy.urls[before]!.searchParams.get('page'))).toBe(nextPage)
  await store.close()
  const after = openStore(storeFileFor(dataDir, 'sandbox')).db
  expect((after.prepare('SELECT count(*) AS n FROM inspections').get() as { n: number }).n).toBe(
    450,
  )
  after.close()
})
