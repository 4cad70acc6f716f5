import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Notifier } from '../../../src/core/live/notifications'
import { SyncNotifications } from '../../../src/core/live/sync-notifications'
import type { Locale } from '../../../src/shared/i18n'
import type { LiveStatus } from '../../../src/shared/live'
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
  type PostedNotification,
} from '../../../src/shared/notifications'
import { startHarness } from '../sync/harness'
import { fakeClock, type FakeClock } from './fake-clock'

/**
 * Notifications decided from what a sync changed, over the real sandbox and
 * store: the records are moved at the service, a sync reads them, and the
 * feed's entries since the last look become one notification per kind.
 */

type Harness = Awaited<ReturnType<typeof startHarness>>
let h: Harness
let clock: FakeClock
let settings: NotificationSettings
let locale: Locale
let posted: PostedNotification[]
let notifications: SyncNotifications | undefined

function start(): SyncNotifications {
  const notifier = new Notifier({
    settings: () => settings,
    language: () => locale,
    timeZone: () => 'Asia/Seoul',
    now: () => new Date(clock.now()),
    post: (notification) => posted.push(notification),
  })
  notifications = new SyncNotifications({
    store: h.store,
    notifier,
    clock,
    language: () => locale,
    timeZone: () => 'Asia/Seoul',
    digest: () => ({ at: settings.digestAt, on: settings.kinds['agingDigest'] === true }),
    agingCounts: () =>
      h.store.call('agingCounts', {
        now: new Date(clock.now()).toISOString(),
        days: { guaranteeReady: 3, inspectionShipping: 7 },
      }),
  })
  return notifications
}

beforeEach(async () => {
  h = await startHarness({ size: 300, engine: { pageSize: 100 } })
  // 2026-11-28 12:00 in Seoul.
  clock = fakeClock(Date.UTC(2026, 10, 28, 3, 0, 0))
  settings = structuredClone(DEFAULT_NOTIFICATION_SETTINGS)
  locale = 'ko'
  posted = []
  notifications = undefined
})
afterEach(async () => {
  notifications?.close()
  await h.close()
})

/** Moves records at the service: three results `가품` arrive, one `정품` becomes `가품`, one guarantee is cancelled, one `정품` arrives. */
function moveRecords(): { flagged: number[]; changed: number; cancelled: number } {
  const waiting = h.db
    .prepare(
      `SELECT idx, product_name AS name FROM inspections
        WHERE status = '감정승인(배송중)' AND result IS NULL ORDER BY idx DESC LIMIT 4`,
    )
    .all() as { idx: number; name: string }[]
  expect(waiting).toHaveLength(4)
  const flagged = waiting.slice(0, 3).map((row) => row.idx)
  for (const idx of flagged) {
    h.sandbox.live.patch('inspection', idx - 1, {
      inspectionStatus: '배송완료',
      inspectionResult: '가품',
    })
  }
  const authentic = waiting[3]?.idx ?? 0
  h.sandbox.live.patch('inspection', authentic - 1, {
    inspectionStatus: '배송완료',
    inspectionResult: '정품',
  })
  const { idx: changed } = h.db
    .prepare(`SELECT idx FROM inspections WHERE result = '정품' ORDER BY idx LIMIT 1`)
    .get() as { idx: number }
  h.sandbox.live.patch('inspection', changed - 1, { inspectionResult: '가품' })
  const { idx: cancelled } = h.db
    .prepare(`SELECT idx FROM guarantees WHERE status = '발급대기' ORDER BY idx LIMIT 1`)
    .get() as { idx: number }
  h.sandbox.live.patch('guarantee', cancelled - 1, { status: '발급취소' })
  return { flagged, changed, cancelled }
}

async function syncAll(): Promise<void> {
  const outcomes = await h.engine.run(['inspections', 'guarantees'], 'full')
  expect(outcomes.every((outcome) => outcome.phase === 'done')).toBe(true)
  await notifications?.afterSync()
}

describe('notifications from what a sync changed', () => {
  it('posts nothing for the first sync (the baseline)', async () => {
    start()
    await syncAll()
    expect(posted).toEqual([])
  })

  it('posts exactly one per kind, grouped: a 가품 result arriving, a result changed, a guarantee cancelled', async () => {
    await syncAll()
    start()
    const moved = moveRecords()
    await syncAll()
    expect(posted.map((n) => n.kind).sort()).toEqual([
      'guaranteeCancelled',
      'resultChanged',
      'resultFlagged',
    ])
    const flagged = posted.find((n) => n.kind === 'resultFlagged')
    expect(flagged?.title).toBe('가품 3건')
    expect(flagged?.count).toBe(3)
    expect(flagged?.body).toMatch(/^.+ 외 2건$/)
    expect(flagged?.records.map((r) => r.idx).sort()).toEqual([...moved.flagged].sort())
    expect(posted.find((n) => n.kind === 'resultChanged')?.records).toEqual([
      { resource: 'inspections', idx: moved.changed },
    ])
    expect(posted.find((n) => n.kind === 'guaranteeCancelled')?.title).toBe('보증서 발급 취소 1건')
    // A sync that changed nothing more posts nothing more.
    await syncAll()
    expect(posted).toHaveLength(3)
  })

  it('speaks English when the UI does', async () => {
    await syncAll()
    start()
    locale = 'en'
    moveRecords()
    await syncAll()
    expect(posted.find((n) => n.kind === 'resultFlagged')?.title).toBe('가품: 3')
    expect(posted.find((n) => n.kind === 'resultFlagged')?.body).toMatch(/ and 2 more$/)
  })

  it('posts none during quiet hours, none of a kind turned off, and only counts when details are off', async () => {
    await syncAll()
    start()
    settings = { ...settings, quietHours: { from: '11:00', to: '13:00' } }
    moveRecords()
    await syncAll()
    expect(posted).toEqual([])

    settings = {
      ...settings,
      quietHours: { from: '22:00', to: '08:00' },
      kinds: { ...settings.kinds, resultChanged: false },
      details: false,
    }
    const names = (
      h.db.prepare('SELECT product_name AS name FROM inspections').all() as { name: string }[]
    ).map((row) => row.name)
    h.sandbox.live.patch('guarantee', 0, { status: '발급취소' })
    const { idx } = h.db
      .prepare(`SELECT idx FROM inspections WHERE result = '정품' ORDER BY idx DESC LIMIT 1`)
      .get() as { idx: number }
    h.sandbox.live.patch('inspection', idx - 1, { inspectionResult: '가품' })
    await syncAll()
    expect(posted.map((n) => n.kind)).toEqual(['guaranteeCancelled'])
    const [cancelled] = posted
    expect(cancelled?.details).toBe(false)
    expect(cancelled?.body).toBe('자세한 내용은 앱에서 확인하세요.')
    for (const name of names) expect(cancelled?.body).not.toContain(name)
  })

  it('tells a sync failing for more than 30 minutes, or a credential error, once until it is fixed', async () => {
    await syncAll()
    const health = start()
    const status = (over: Partial<LiveStatus>): LiveStatus => ({
      state: 'backoff',
      intervalMinutes: 2,
      nextPollAt: null,
      pausedUntil: null,
      backoffUntil: null,
      failingSince: null,
      step: null,
      lastOutcome: null,
      ...over,
    })
    const since = new Date(clock.now()).toISOString()
    health.health(status({ failingSince: since }))
    clock.advance(29 * 60_000)
    health.health(status({ failingSince: since }))
    expect(posted).toEqual([])
    clock.advance(60_000)
    health.health(status({ failingSince: since }))
    health.health(status({ failingSince: since }))
    expect(posted.map((n) => n.kind)).toEqual(['syncFailing'])
    // Fixed, then a 401: told again, once.
    health.health(status({ state: 'running' }))
    health.health(status({ state: 'stopped', failingSince: null }))
    health.health(status({ state: 'stopped', failingSince: null }))
    expect(posted.map((n) => n.kind)).toEqual(['syncFailing', 'syncFailing'])
    expect(posted[1]?.body).toContain('API 키')
  })

  it('posts the aging digest at its time when it is on (off by default)', async () => {
    await syncAll()
    // A month after the sync: records still waiting are past both thresholds.
    clock = fakeClock(Date.UTC(2026, 11, 28, 3, 0, 0))
    const digest = start()
    digest.armDigest()
    clock.advance(24 * 60 * 60_000)
    await Promise.resolve()
    expect(posted).toEqual([])
    settings = { ...settings, kinds: { ...settings.kinds, agingDigest: true }, digestAt: '13:00' }
    digest.armDigest()
    clock.advance(60 * 60_000)
    await expect.poll(() => posted.map((n) => n.kind)).toEqual(['agingDigest'])
    expect(posted[0]?.title).toMatch(/^오래 머문 기록 \d+건$/)
  })
})
