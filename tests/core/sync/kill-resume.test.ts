import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openStore } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { DEFAULT_MAX_PENDING_WRITES } from '../../../src/core/sync/sync-engine'
import { readSyncState } from '../../../src/core/store/sync-state'
import { killedSync, restartedEngine, startHarness } from './harness'

/** Fifteen pages of 100: more than the page killed at and every write the engine may queue behind it. */
// Pages of 100: more than KILL_AT_PAGE + DEFAULT_MAX_PENDING_WRITES of them.
const SIZE = 3000
const KILL_AT_PAGE = 3

let h: Awaited<ReturnType<typeof startHarness>>
let child: ChildProcess | undefined
afterEach(async () => {
  // A child still running failed the test (it never reached its kill): end it.
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  child = undefined
  await h.close()
})

it('a sync killed with SIGKILL at page 3 reopens consistent and resumes from its checkpoint (docs/faults.md F26)', async () => {
  h = await startHarness({ size: SIZE, engine: { concurrency: 1 } })
  const dataDir = h.temp.dir
  const postedFile = join(dataDir, 'posted-pages.txt')

  const signal = await killedSync(h, KILL_AT_PAGE, {
    postedFile,
    started: (started) => (child = started),
  })
  expect(signal).toBe('SIGKILL')

  const reopened = openStore(storeFileFor(dataDir, 'sandbox'))
  expect(reopened.notice).toBeNull()
  const db = reopened.db
  expect((db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check).toBe('ok')
  const state = readSyncState(db, 'inspections')
  expect(state.status).toBe('syncing')
  // Page 3 was committed when the process died. The engine sends a page's write without
  // waiting for the ones before it, at most DEFAULT_MAX_PENDING_WRITES of them: with page 3's
  // commit held (sync-child.ts), it sent exactly the pages up to 3 + that many. Those after
  // page 3 are what the kill loses; the checkpoint says page 4 comes next, as the rows do.
  const posted = readFileSync(postedFile, 'utf8').trim().split('\n').map(Number)
  const lastQueued = KILL_AT_PAGE + DEFAULT_MAX_PENDING_WRITES
  expect(posted).toEqual(Array.from({ length: lastQueued }, (_, i) => i + 1))
  const nextPage = state.checkpoint!.nextPage
  expect(nextPage).toBe(KILL_AT_PAGE + 1)
  const pageSize = state.checkpoint!.pageSize
  const count = () => (db.prepare('SELECT count(*) AS n FROM inspections').get() as { n: number }).n
  expect(count()).toBe((nextPage - 1) * pageSize)
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
    SIZE,
  )
  after.close()
})
