import { statSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import { engineSteps } from '../../../src/core/live/engine-steps'
import { LiveSchedule, MAX_BACKOFF_MS } from '../../../src/core/live/schedule'
import { storeFileFor } from '../../../src/core/store/paths'
import type { LiveStatus } from '../../../src/shared/live'
import { SANDBOX_ANCHOR } from '../../support/anchor'
import { startHarness } from '../sync/harness'
import { fakeClock, passTime, type FakeClock } from './fake-clock'

/**
 * The live schedule (docs/live.md) on a fake clock over the real sandbox,
 * its data moved on by the sandbox's churn: every request goes over HTTP
 * through the harness's proxy, which records the list requests.
 */

const INTERVAL_MS = 2 * 60_000

type Harness = Awaited<ReturnType<typeof startHarness>>

let h: Harness
let clock: FakeClock
let schedule: LiveSchedule
let statuses: LiveStatus[]
/** Days the hourly step re-reads (a test widens it to cover the whole small sandbox). */
let windowDays = 30

beforeEach(async () => {
  // The service's time (the sandbox's "now") moves with the fake clock: the window and the full
  // pass's period count from it, and the engine stamps its syncs with it.
  clock = fakeClock()
  windowDays = 30
  const started = clock.now()
  const serviceNow = (): Date => new Date(SANDBOX_ANCHOR + (clock.now() - started))
  h = await startHarness({ size: 300, engine: { pageSize: 100, now: serviceNow } })
  const outcomes = await h.engine.run(['brands', 'inspections', 'guarantees'], 'full')
  expect(outcomes.every((outcome) => outcome.phase === 'done')).toBe(true)
  statuses = []
  const client = new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl: h.proxy.baseUrl, partnerId: h.sandbox.partnerId },
    credentials: async () => ({ apiKey: h.sandbox.apiKey, apiSecret: h.sandbox.apiSecret }),
    timeoutMs: 2000,
    retry: { maxAttempts: 1 },
  })
  schedule = new LiveSchedule({
    clock,
    steps: engineSteps({
      engine: h.engine,
      store: h.store,
      client,
      now: serviceNow,
      windowDays: () => windowDays,
      budgetMs: { poll: 1500, pass: 5000 },
    }),
    settings: () => ({ intervalMinutes: INTERVAL_MS / 60_000 }),
    onStatus: (status) => statuses.push(status),
  })
})

afterEach(async () => {
  await schedule.stop()
  await h.close()
})

/** Moves the fake clock on, timer by timer, waiting for each run it starts. */
function pass(ms: number): Promise<void> {
  return passTime(clock, ms, () => schedule.idle())
}

function listRequests(): { inspections: number; guarantees: number } {
  const count = (list: string) => h.proxy.urls.filter((url) => url.pathname.endsWith(list)).length
  return { inspections: count('/inspection'), guarantees: count('/guarantee') }
}

function stored(table: 'inspections' | 'guarantees', idx: number) {
  const result = table === 'inspections' ? 'result' : 'NULL AS result'
  return h.db.prepare(`SELECT status, ${result}, gone_at FROM ${table} WHERE idx = ?`).get(idx) as
    { status: string | null; result: string | null; gone_at: string | null } | undefined
}

describe('the live schedule', () => {
  it('polls with one request a list when nothing changed, writing nothing (the WAL keeps its size)', async () => {
    // The cell indexes are built in the background after a first sync: wait for them to be written.
    await expect.poll(() => h.store.call('cellIndexesReady'), { timeout: 10_000 }).toBe(true)
    schedule.start()
    const wal = `${storeFileFor(h.temp.dir, 'sandbox')}-wal`
    const walBefore = statSync(wal).size
    const before = listRequests()
    await pass(INTERVAL_MS)
    const after = listRequests()
    expect(after.inspections - before.inspections).toBe(1)
    expect(after.guarantees - before.guarantees).toBe(1)
    expect(statSync(wal).size).toBe(walBefore)
    expect(schedule.status().lastOutcome).toMatchObject({ step: 'poll', ok: true, changed: 0 })
    // Nothing runs before the next interval.
    await pass(INTERVAL_MS - 1000)
    expect(listRequests()).toEqual(after)
  })

  it('finds new records within the interval, and status changes within the window within 15 minutes', async () => {
    // The churn moves the newest few dozen records, years apart in a sandbox this small.
    windowDays = 2000
    schedule.start()
    const changes = h.sandbox.advance(4)
    const added = changes.filter((change) => change.kind === 'new')
    expect(added.length).toBeGreaterThan(0)
    await pass(INTERVAL_MS)
    for (const change of added) {
      const table = change.resource === 'inspection' ? 'inspections' : 'guarantees'
      expect(stored(table, change.idx), `${table} ${change.idx}`).toBeDefined()
    }
    const moved = changes.filter((change) => change.kind === 'status' || change.kind === 'result')
    expect(moved.length).toBeGreaterThan(0)
    await pass(15 * 60_000 - INTERVAL_MS)
    for (const change of moved) {
      const table = change.resource === 'inspection' ? 'inspections' : 'guarantees'
      const row = stored(table, change.idx)
      const value = change.kind === 'result' ? row?.result : row?.status
      expect(value, `${table} ${change.idx} ${change.kind}`).toBe(change.after)
    }
  })

  it('finds a change outside the window through the rolling full pass, within its period', async () => {
    schedule.start()
    // The oldest inspection gets another result: no poll or re-read reaches back that far.
    h.sandbox.live.patch('inspection', 0, { inspectionResult: '가품' })
    expect(stored('inspections', 1)?.result).not.toBe('가품')
    await pass(30 * 60_000)
    expect(stored('inspections', 1)?.result).not.toBe('가품')
    // A list of a few pages is read whole at least every hour.
    await pass(32 * 60_000)
    expect(stored('inspections', 1)?.result).toBe('가품')
  })

  it('a record leaving the lists and coming back shows in the changes feed as gone and back, with no Sync pressed', async () => {
    const kinds = (idx: number): string[] =>
      (
        h.db
          .prepare(
            `SELECT kind FROM changes WHERE resource = 'inspections' AND idx = ? ORDER BY rowid`,
          )
          .all(idx) as { kind: string }[]
      ).map((row) => row.kind)
    schedule.start()
    // The sandbox's second inspection (idx 2) leaves its list: only a whole pass can tell.
    h.sandbox.live.setGone('inspection', 1, true)
    await pass(62 * 60_000)
    expect(stored('inspections', 2)?.gone_at).not.toBeNull()
    expect(kinds(2)).toContain('gone')
    h.sandbox.live.setGone('inspection', 1, false)
    await pass(62 * 60_000)
    expect(stored('inspections', 2)?.gone_at).toBeNull()
    expect(kinds(2).slice(-2)).toEqual(['gone', 'back'])
  })

  it('sleeps with the computer and catches up at once on resume; the same offline and online', async () => {
    schedule.start()
    schedule.setAsleep(true)
    expect(schedule.status().state).toBe('asleep')
    const before = listRequests()
    await pass(10 * INTERVAL_MS)
    expect(listRequests()).toEqual(before)
    schedule.setAsleep(false)
    await pass(0)
    expect(listRequests().inspections).toBeGreaterThan(before.inspections)

    schedule.setOnline(false)
    expect(schedule.status().state).toBe('offline')
    const offline = listRequests()
    await pass(10 * INTERVAL_MS)
    expect(listRequests()).toEqual(offline)
    schedule.setOnline(true)
    await pass(0)
    expect(listRequests().inspections).toBeGreaterThan(offline.inspections)
  })

  it('backs off on failures up to 30 minutes, says so in its status, and polls again once the service is back', async () => {
    schedule.start()
    h.proxy.fault = () => 503
    await pass(INTERVAL_MS)
    let status = schedule.status()
    expect(status.state).toBe('backoff')
    expect(status.lastOutcome?.error?.code).toBe('server')
    const waits: number[] = []
    for (let k = 0; k < 6; k += 1) {
      status = schedule.status()
      const wait = Date.parse(status.backoffUntil ?? '') - clock.now()
      waits.push(wait)
      await pass(wait)
    }
    expect(waits.slice(0, 4)).toEqual([
      INTERVAL_MS,
      2 * INTERVAL_MS,
      4 * INTERVAL_MS,
      8 * INTERVAL_MS,
    ])
    expect(Math.max(...waits)).toBe(MAX_BACKOFF_MS)
    expect(schedule.status().failingSince).not.toBeNull()
    h.proxy.fault = null
    await pass(MAX_BACKOFF_MS)
    status = schedule.status()
    expect(status.state).toBe('running')
    expect(status.failingSince).toBeNull()
    expect(status.lastOutcome?.ok).toBe(true)
  })

  it('stops on a credential error (401) until the account is fixed', async () => {
    schedule.start()
    h.proxy.fault = () => 401
    await pass(INTERVAL_MS)
    expect(schedule.status().state).toBe('stopped')
    expect(schedule.status().lastOutcome?.error?.code).toBe('auth')
    const before = listRequests()
    await pass(3 * 60 * 60_000)
    expect(listRequests()).toEqual(before)
    h.proxy.fault = null
    schedule.credentialsChanged()
    await pass(0)
    expect(schedule.status().state).toBe('running')
    expect(listRequests().inspections).toBeGreaterThan(before.inspections)
  })

  it('a trickling service never blocks the schedule: the poll ends within its budget', async () => {
    schedule.start()
    // Answers that never come (headers included).
    h.proxy.fault = () => new Promise<never>(() => undefined)
    const started = performance.now()
    await pass(INTERVAL_MS)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(schedule.status().state).toBe('backoff')
    expect(schedule.status().lastOutcome?.error?.code).toBe('timeout')
  })

  it('a Sync asked for during a background full pass goes first; the pass resumes from its checkpoint', async () => {
    // Every page is held until the test lets it go.
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    let held = 0
    h.proxy.fault = async () => {
      held += 1
      await gate
      return undefined as never
    }
    const background = h.engine.runScheduled('inspections', { mode: 'full', background: true })
    await expect.poll(() => held).toBeGreaterThan(0)
    const manual = h.engine.run(['inspections'], 'incremental')
    const [first] = await Promise.all([background])
    expect(first.phase).toBe('cancelled')
    release()
    h.proxy.fault = null
    const [second] = await manual
    expect(second?.phase).toBe('done')
    expect(second?.error).toBeUndefined()
    // The cancelled full pass keeps its checkpoint: the next slice resumes there.
    expect((await h.store.call('readSyncState', 'inspections')).checkpoint).not.toBeNull()
  })

  it('runs never overlap, and a poll during a staff Sync still answers', async () => {
    schedule.start()
    const sync = h.engine.run(['inspections', 'guarantees'], 'incremental')
    clock.advance(INTERVAL_MS)
    clock.advance(INTERVAL_MS)
    await Promise.all([sync, schedule.idle()])
    const running = statuses.filter((status) => status.step !== null)
    expect(running.length).toBeGreaterThan(0)
    expect(schedule.status().lastOutcome?.ok).toBe(true)
  })
})
