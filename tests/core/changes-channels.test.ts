import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { bootForTest, call, type TestCore } from './helpers/core'

/**
 * The changes feed's channels through the router, as the screens call
 * them: answers after a sync, and bad arguments refused with
 * `invalid_argument` without changing anything.
 */

let core: TestCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

async function synced(): Promise<TestCore> {
  core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'test-changes' })
  await core.sync.run(['inspections', 'guarantees'], 'full')
  return core
}

describe('changes channels', () => {
  it('answer the baseline, its unseen count, timelines and aging counts', async () => {
    const c = await synced()
    const page = await call(c, 'changes.list', {})
    expect(page.entries.map((e) => [e.resource, e.kind, e.idx])).toEqual([
      ['guarantees', 'baseline', null],
      ['inspections', 'baseline', null],
    ])
    expect(page).toMatchObject({ nextBefore: null, unseen: 2 })
    expect(await call(c, 'changes.unseen')).toEqual({ unseen: 2 })
    expect(await call(c, 'changes.markSeen', { upTo: page.entries[1]!.id })).toEqual({
      marked: 1,
      unseen: 1,
    })

    const first = (await call(c, 'inspections.query', { limit: 1 })).rows[0]!
    const timeline = await call(c, 'records.timeline', { resource: 'inspections', idx: first.idx })
    expect(timeline.statuses).toEqual([
      {
        status: first.status,
        firstSeen: page.entries[1]!.at,
        syncId: page.entries[1]!.syncId,
        baseline: true,
      },
    ])
    const missing = await c.router.dispatch('records.timeline', {
      resource: 'inspections',
      idx: 99_999,
    })
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })

    // Where a list shows a record, for the feed's "Open": by its number, or its registration day.
    expect(await call(c, 'records.locate', { resource: 'inspections', idx: first.idx })).toEqual({
      resource: 'inspections',
      idx: first.idx,
      registeredAt: first.registeredAt,
      inspectionNum: first.inspectionNum,
    })
    const oldest = (await call(c, 'guarantees.query', { limit: 1, sort: 'oldest' })).rows[0]!
    expect(await call(c, 'records.locate', { resource: 'guarantees', idx: oldest.idx })).toEqual({
      resource: 'guarantees',
      idx: oldest.idx,
      registeredAt: oldest.registeredAt,
      inspectionNum: null,
    })
    expect(await call(c, 'records.locate', { resource: 'guarantees', idx: 99_999 })).toBeNull()

    // Just after the baseline, records already waiting have aged by their own last change on
    // the service (docs/store-and-sync.md); each count is the aging filter's; the thresholds
    // follow the settings.
    const aging = await call(c, 'aging.counts')
    expect(aging.rules.map((r) => [r.rule, r.resource, r.status, r.days])).toEqual([
      ['guaranteeReady', 'guarantees', '발급대기', 3],
      ['inspectionShipping', 'inspections', '감정승인(배송중)', 7],
    ])
    for (const rule of aging.rules) {
      const ask = { status: rule.status, agedDays: rule.days, limit: 1 }
      const listed = await call(c, `${rule.resource}.query`, ask)
      expect(rule.count).toBe(listed.total)
      expect(rule.count).toBeGreaterThan(0)
    }
    expect(timeline.currentSinceBound).toBe(true)
    const view = await call(c, 'settings.set', { agingDays: { inspectionShipping: 10 } })
    expect(view.agingDays).toEqual({ guaranteeReady: 3, inspectionShipping: 10 })
    expect((await call(c, 'aging.counts')).rules.map((r) => r.days)).toEqual([3, 10])
    const aged = await call(c, 'inspections.query', { agedDays: 1 })
    expect(aged.total).toBeGreaterThan(0)
  })
})

describe('changes channels, bad arguments', () => {
  let shared: TestCore
  beforeAll(async () => {
    shared = await bootForTest({ keychain: new MemoryStore(), keychainService: 'test-changes-bad' })
    await shared.sync.run(['inspections', 'guarantees'], 'full')
  })
  afterAll(async () => {
    await shared.close()
  })

  it.each([
    ['changes.list', { kinds: ['bogus'] }],
    ['changes.list', { kinds: [] }],
    ['changes.list', { limit: 0 }],
    ['changes.list', { limit: 501 }],
    ['changes.list', { before: -1 }],
    ['changes.list', { resource: 'brands' }],
    ['changes.list', { since: 'yesterday' }],
    ['changes.markSeen', {}],
    ['changes.markSeen', { ids: [] }],
    ['changes.markSeen', { ids: [1], upTo: 2 }],
    ['changes.markSeen', { upTo: '5' }],
    ['changes.markSeen', { ids: [0.5] }],
    ['changes.unseen', { all: true }],
    ['records.timeline', { resource: 'brands', idx: 1 }],
    ['records.timeline', { resource: 'inspections' }],
    ['records.locate', { resource: 'brands', idx: 1 }],
    ['records.locate', { resource: 'guarantees', idx: -1 }],
    ['records.locate', { resource: 'guarantees', idx: '7' }],
    ['records.locate', { resource: 'guarantees', idx: 7, q: '7' }],
    ['aging.counts', { days: 3 }],
    ['settings.set', { agingDays: { guaranteeReady: 0 } }],
    ['settings.set', { agingDays: { guaranteeReady: 1.5 } }],
    ['settings.set', { agingDays: { other: 3 } }],
    ['inspections.query', { agedDays: -1 }],
    ['guarantees.query', { agedDays: 'week' }],
  ] as const)('%s refuses %j with invalid_argument and changes nothing', async (channel, args) => {
    const c = shared
    const answer = await c.router.dispatch(channel, args)
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(await call(c, 'changes.unseen')).toEqual({ unseen: 2 })
    expect((await call(c, 'settings.get')).agingDays).toEqual({
      guaranteeReady: 3,
      inspectionShipping: 7,
    })
  })
})
