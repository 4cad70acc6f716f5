import { afterEach, describe, expect, it } from 'vitest'
import { localTimestamp } from '../../../src/shared/local-time'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import {
  type GuaranteeRow,
  type InspectionRow,
  type QueryPage,
  type ReviewMark,
} from '../../../src/shared/lists'
import { SYNC_RESOURCES } from '../../../src/shared/resources'
import { bootForTest, call } from '../helpers/core'
import { startHarness } from '../sync/harness'

type Booted = Awaited<ReturnType<typeof bootForTest>>
let core: Booted | null = null
let harness: Awaited<ReturnType<typeof startHarness>> | null = null
afterEach(async () => {
  await core?.close()
  core = null
  await harness?.close()
  harness = null
})

async function syncedCore(): Promise<Booted> {
  core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'reviews-test' })
  await call(core, 'sync.start', {})
  await core.sync.idle()
  return core
}

/**
 * Lets out every `data.changed` the sync may have left in the bus's
 * coalescing window: a probe of each resource goes through the same window
 * and arrives last, after which nothing of that resource is held.
 */
async function sentHeldChanges(app: Booted): Promise<void> {
  for (const resource of SYNC_RESOURCES) {
    const arrived = new Promise<void>((resolve) => {
      const stop = app.events.subscribe((event, payload) => {
        if (event !== 'data.changed' || (payload as { resource: string }).resource !== resource)
          return
        stop()
        resolve()
      })
    })
    app.events.emit('data.changed', { resource })
    await arrived
  }
}

describe('review marks over the router (reviews.set)', () => {
  it('marks, notes and clears a record; rows carry the mark; filter and counts follow', async () => {
    const app = await syncedCore()
    const page = await call(app, 'inspections.query', { limit: 3 })
    const [a, b, c] = page.rows as readonly InspectionRow[]
    expect(page.reviewCounts).toEqual({ reviewed: 0, follow_up: 0, none: page.total })

    await sentHeldChanges(app)
    const changed: string[] = []
    app.events.subscribe((event, payload) => {
      if (event === 'data.changed') changed.push((payload as { resource: string }).resource)
    })
    const saved = await call(app, 'reviews.set', {
      resource: 'inspections',
      idx: a!.idx,
      mark: 'reviewed',
      note: '  박스 상태 양호  ',
    })
    expect(saved).toMatchObject({ mark: 'reviewed', note: '박스 상태 양호', by: null })
    expect(saved.at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(changed).toEqual(['inspections'])
    await call(app, 'reviews.set', { resource: 'inspections', idx: b!.idx, mark: 'follow_up' })
    await call(app, 'reviews.set', {
      resource: 'inspections',
      idx: c!.idx,
      mark: 'none',
      note: '메모만',
    })

    const all = await call(app, 'inspections.query', { limit: 3 })
    expect(all.rows[0]!.review).toMatchObject({ mark: 'reviewed', note: '박스 상태 양호' })
    expect(all.rows[1]!.review).toMatchObject({ mark: 'follow_up', note: '' })
    expect(all.rows[2]!.review).toMatchObject({ mark: 'none', note: '메모만' })
    expect(all.reviewCounts).toEqual({ reviewed: 1, follow_up: 1, none: all.total - 2 })

    const followUp = await call(app, 'inspections.query', { review: 'follow_up' })
    expect(followUp.rows.map((row) => row.idx)).toEqual([b!.idx])
    expect(followUp.total).toBe(1)
    // Status chips count within the review filter; review counts ignore it.
    expect(followUp.counts.reduce((sum, entry) => sum + entry.count, 0)).toBe(1)
    expect(followUp.reviewCounts).toEqual(all.reviewCounts)
    const unmarked = await call(app, 'inspections.query', { review: 'none', limit: 500 })
    expect(unmarked.total).toBe(all.total - 2)
    expect(unmarked.rows.some((row) => row.idx === c!.idx)).toBe(true)

    // A note given again replaces the old one; an omitted note keeps it.
    const kept = await call(app, 'reviews.set', {
      resource: 'inspections',
      idx: a!.idx,
      mark: 'follow_up',
    })
    expect(kept.note).toBe('박스 상태 양호')
    // none with an empty note removes the mark entirely.
    await call(app, 'reviews.set', { resource: 'inspections', idx: c!.idx, mark: 'none', note: '' })
    const after = await call(app, 'inspections.query', { limit: 3 })
    expect(after.rows[2]!.review).toBeNull()
  })

  it('a mark survives a full re-sync, and guarantees keep their own marks', async () => {
    const app = await syncedCore()
    const guarantee = (await call(app, 'guarantees.query', { limit: 1 })).rows[0] as GuaranteeRow
    await call(app, 'reviews.set', {
      resource: 'guarantees',
      idx: guarantee.idx,
      mark: 'reviewed',
      note: 'card ok',
    })
    await call(app, 'sync.start', { mode: 'full' })
    await app.sync.idle()
    const again = (await call(app, 'guarantees.query', { limit: 1 })) as QueryPage<GuaranteeRow>
    expect(again.rows[0]!.review).toMatchObject({ mark: 'reviewed', note: 'card ok' })
    // Marks are per list: the inspections stay unmarked.
    const inspections = await call(app, 'inspections.query', { review: 'reviewed' })
    expect(inspections.total).toBe(0)
  })

  it('refuses bad arguments and unknown records with clear errors, storing nothing', async () => {
    const app = await syncedCore()
    for (const args of [
      { resource: 'brands', idx: 1, mark: 'reviewed' },
      { resource: 'inspections', idx: -1, mark: 'reviewed' },
      { resource: 'inspections', idx: 1.5, mark: 'reviewed' },
      { resource: 'inspections', idx: 1, mark: 'approved' },
      { resource: 'inspections', idx: 1, mark: 'reviewed', note: 'x'.repeat(2001) },
      { resource: 'inspections', idx: 1, mark: 'reviewed', by: 'someone else' },
    ]) {
      const answer = await app.router.dispatch('reviews.set', args)
      expect(answer.ok ? 'ok' : answer.error.code).toBe('invalid_argument')
    }
    const missing = await app.router.dispatch('reviews.set', {
      resource: 'inspections',
      idx: 987654321,
      mark: 'reviewed',
    })
    expect(missing.ok ? 'ok' : missing.error.code).toBe('not_found')
    const page = await call(app, 'inspections.query', {})
    expect(page.reviewCounts.reviewed).toBe(0)
  })
})

describe('review marks in the store', () => {
  it('survive a record going gone and coming back', async () => {
    harness = await startHarness({ size: 60 })
    const h = harness
    await h.engine.run(['inspections'])
    const victim = (
      h.db.prepare('SELECT max(idx) AS idx FROM inspections').get() as { idx: number }
    ).idx
    await h.store.call('setReview', {
      resource: 'inspections',
      idx: victim,
      mark: 'follow_up',
      note: '재확인',
      by: '김감정',
      at: '2026-11-23 10:00:00',
    })
    h.proxy.fault = (_url, body) => ({
      ...body,
      total: body.total - 1,
      data: body.data.filter((item) => item['idx'] !== victim),
    })
    await h.engine.run(['inspections'], 'full')
    expect(queryInspections(h.db, { review: 'follow_up' }).total).toBe(0)
    h.proxy.fault = null
    await h.engine.run(['inspections'], 'full')
    const back = queryInspections(h.db, { review: 'follow_up' })
    expect(back.rows.map((row) => row.idx)).toEqual([victim])
    expect(back.rows[0]!.review).toEqual<ReviewMark>({
      mark: 'follow_up',
      note: '재확인',
      by: '김감정',
      at: '2026-11-23 10:00:00',
    })
  })

  it('writes local time in the profile zone', () => {
    const at = new Date('2026-11-23T15:30:05Z')
    expect(localTimestamp(at, 'Asia/Seoul')).toBe('2026-11-24 00:30:05')
    expect(localTimestamp(at, 'UTC')).toBe('2026-11-23 15:30:05')
  })
})
