import { afterEach, expect, it } from 'vitest'
import { openStore, storeFileFor } from '../../../src/core/store/database'
import { readSyncState } from '../../../src/core/store/sync-state'
import { killedSync, restartedEngine, startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

it('a sync killed with SIGKILL at page 3 reopens consistent and resumes from its checkpoint (FAULTS 26)', async () => {
  h = await startHarness({ size: 450, engine: { concurrency: 1 } })
  const dataDir = h.temp.dir

  const signal = await killedSync(h, 3)
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
  const { store, engine } = await restartedEngine(h)
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
