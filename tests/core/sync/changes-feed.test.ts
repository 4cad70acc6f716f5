import { afterEach, expect, it, vi } from 'vitest'
import type { SandboxChange } from '../../../src/sandbox/churn'
import type { ChangeEntry } from '../../../src/shared/changes'
import { FeedModel, feedKey, repeatedRecords } from './feed-model'
import { startHarness } from './harness'

/**
 * The changes feed against the real sandbox over HTTP: sync, let the
 * sandbox's time move by seeded steps (its test endpoint), sync again; the
 * feed holds exactly what the sandbox's own log says changed.
 */

// Each test syncs a 300-record sandbox several times over HTTP: about 10 s on an idle machine.
vi.setConfig({ testTimeout: 60_000 })

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

/** Takes `steps` steps of the sandbox's time over HTTP; answers the log so far. */
async function advance(baseUrl: string, steps: number): Promise<SandboxChange[]> {
  const moved = await fetch(`${baseUrl}/__sandbox/advance?steps=${steps}`, { method: 'POST' })
  expect(moved.status).toBe(200)
  const log = (await (await fetch(`${baseUrl}/__sandbox/changes?after=0`)).json()) as {
    changes: SandboxChange[]
  }
  return log.changes
}

/** Every entry of the feed, oldest first, read page by page. */
async function wholeFeed(store: (typeof h)['store']): Promise<ChangeEntry[]> {
  const out: ChangeEntry[] = []
  let before: number | undefined
  for (;;) {
    const page = await store.call('listChanges', { limit: 7, ...(before ? { before } : {}) })
    out.push(...page.entries)
    if (page.nextBefore === null) break
    before = page.nextBefore
  }
  return out.reverse()
}

it('holds exactly the changes the sandbox logged between syncs, a baseline first, gone and back', async () => {
  h = await startHarness({ size: 300, sandbox: { testEndpoints: true } })
  const model = new FeedModel()
  await h.engine.run(['inspections', 'guarantees'], 'full')

  // The first full sync is the baseline: one entry per list, nothing per record.
  const baseline = await wholeFeed(h.store)
  expect(baseline.map((e) => [e.resource, e.kind, e.idx, e.detail])).toEqual([
    ['inspections', 'baseline', null, { kind: 'baseline', records: 300 }],
    ['guarantees', 'baseline', null, { kind: 'baseline', records: 300 }],
  ])
  expect(h.db.prepare('SELECT count(*) AS n FROM status_history').get()).toEqual({ n: 0 })

  const seen = new Set(baseline.map((e) => e.id))
  const kinds = new Set<string>()
  for (const steps of [40, 60, 80]) {
    const log = await advance(h.sandbox.baseUrl, steps)
    const expected = model.sync(log, true)
    await h.engine.run(['inspections', 'guarantees'], 'full')
    const added = (await wholeFeed(h.store)).filter((e) => !seen.has(e.id))
    for (const e of added) seen.add(e.id)
    expect(added.flatMap(feedKey).sort()).toEqual(expected)
    expect(repeatedRecords(added)).toEqual([])
    // One sync: one id and time per list.
    for (const resource of ['inspections', 'guarantees']) {
      const mine = added.filter((e) => e.resource === resource)
      expect(new Set(mine.map((e) => `${e.syncId} ${e.at}`)).size).toBeLessThanOrEqual(1)
    }
    for (const e of added) for (const d of [e.detail, ...(e.detail.also ?? [])]) kinds.add(d.kind)
  }
  // The seeded steps made every kind of change at least once.
  expect([...kinds].sort()).toEqual(['back', 'fields', 'gone', 'new', 'result', 'state', 'status'])

  // A sync with nothing new at the service adds nothing.
  await h.engine.run(['inspections', 'guarantees'], 'full')
  expect((await wholeFeed(h.store)).length).toBe(seen.size)
})

it('keeps when each status was first seen: the timeline, aging counts and the aging filter agree', async () => {
  h = await startHarness({ size: 300, sandbox: { testEndpoints: true } })
  await h.engine.run(['inspections', 'guarantees'], 'full')
  const log = await advance(h.sandbox.baseUrl, 60)
  await h.engine.run(['inspections', 'guarantees'], 'full')
  const feed = await wholeFeed(h.store)
  const base = feed.find((e) => e.kind === 'baseline' && e.resource === 'inspections')!
  const moved = feed.find((e) => e.kind === 'status' && e.resource === 'inspections')!
  expect(moved).toBeDefined()
  const timeline = await h.store.call('recordTimeline', {
    resource: 'inspections',
    idx: moved.idx!,
  })
  const detail = moved.detail as { before: string; after: string }
  expect(timeline.statuses).toEqual([
    { status: detail.before, firstSeen: base.at, syncId: base.syncId, baseline: true },
    { status: detail.after, firstSeen: moved.at, syncId: moved.syncId, baseline: false },
  ])
  expect(timeline.currentSince).toBe(moved.at)
  expect(timeline.changes.map((e) => e.id)).toContain(moved.id)
  // A record that arrived after the baseline starts its timeline when it arrived.
  const arrival = feed.find((e) => e.kind === 'new' && e.resource === 'guarantees')!
  const fresh = await h.store.call('recordTimeline', { resource: 'guarantees', idx: arrival.idx! })
  expect(fresh.statuses[0]).toMatchObject({ firstSeen: arrival.at, baseline: false })
  expect(
    log.some((c) => c.kind === 'new' && c.resource === 'guarantee' && c.idx === arrival.idx),
  ).toBe(true)

  // Aging counts against each record's own timeline, at several "now"s.
  const status = '감정승인(배송중)'
  const inStatus = (
    h.db
      .prepare('SELECT idx FROM inspections WHERE status = ? AND gone_at IS NULL')
      .all(status) as { idx: number }[]
  ).map((r) => r.idx)
  const since = new Map<number, string>()
  for (const idx of inStatus) {
    const t = await h.store.call('recordTimeline', { resource: 'inspections', idx })
    since.set(idx, t.currentSince!)
  }
  // Each listed row says since when it holds its status, as its timeline does.
  const listed = await h.store.call('queryInspections', { status, limit: 500 })
  expect(new Map(listed.rows.map((r) => [r.idx, r.statusSince]))).toEqual(since)
  // Sorted longest in status first, then by idx, paged by keyset without gaps or repeats.
  const all = await h.store.call('queryInspections', { limit: 500 })
  const byAge = all.rows
    .map((r) => [r.idx, r.statusSince!] as const)
    .sort(([a, x], [b, y]) => (x < y ? -1 : x > y ? 1 : a - b))
    .map(([idx]) => idx)
  // Records that moved after the baseline come after older ones that did not.
  expect(byAge).not.toEqual([...byAge].sort((a, b) => a - b))
  const paged: number[] = []
  let cursor: string | undefined
  do {
    const page = await h.store.call('queryInspections', {
      sort: 'aged',
      limit: 37,
      ...(cursor ? { cursor } : {}),
    })
    paged.push(...page.rows.map((r) => r.idx))
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  expect(paged).toEqual(byAge)
  const day = 86_400_000
  const times = [base.at, moved.at].map(Date.parse)
  for (const now of [
    times[0]! + 7 * day - 1,
    times[0]! + 7 * day,
    times[1]! + 7 * day,
    times[1]! + 30 * day,
  ]) {
    const at = new Date(now).toISOString()
    const cutoff = new Date(now - 7 * day).toISOString()
    const expected = inStatus.filter((idx) => since.get(idx)! <= cutoff)
    const counts = await h.store.call('agingCounts', {
      now: at,
      days: { guaranteeReady: 3, inspectionShipping: 7 },
    })
    expect(counts.rules.find((r) => r.rule === 'inspectionShipping')).toMatchObject({
      status,
      days: 7,
      count: expected.length,
    })
    const page = await h.store.call('queryInspections', {
      status,
      agedDays: 7,
      agedAsOf: at,
      limit: 500,
    })
    expect(page.rows.map((r) => r.idx).sort((a, b) => a - b)).toEqual(
      expected.sort((a, b) => a - b),
    )
    expect(page.total).toBe(expected.length)
  }
})

it('marks entries seen by id or up to an id, and counts the rest', async () => {
  h = await startHarness({ size: 300, sandbox: { testEndpoints: true } })
  await h.engine.run(['inspections', 'guarantees'], 'full')
  await advance(h.sandbox.baseUrl, 30)
  await h.engine.run(['inspections', 'guarantees'], 'full')
  const feed = await wholeFeed(h.store)
  expect(await h.store.call('unseenChanges')).toBe(feed.length)
  const [first, second] = feed
  expect(await h.store.call('markChangesSeen', { ids: [second!.id, second!.id] })).toEqual({
    marked: 1,
    unseen: feed.length - 1,
  })
  // Marking again marks nothing.
  expect((await h.store.call('markChangesSeen', { ids: [second!.id] })).marked).toBe(0)
  const upTo = feed[5]!.id
  expect(await h.store.call('markChangesSeen', { upTo })).toEqual({
    marked: 5,
    unseen: feed.length - 6,
  })
  const page = await h.store.call('listChanges', { limit: 500 })
  expect(page.unseen).toBe(feed.length - 6)
  expect(
    page.entries
      .filter((e) => e.seen)
      .map((e) => e.id)
      .sort((a, b) => a - b),
  ).toEqual(feed.slice(0, 6).map((e) => e.id))
  expect(first!.id).toBeLessThan(second!.id)
})

it('filters by kind and list, newest first, paged without gaps or repeats', async () => {
  h = await startHarness({ size: 300, sandbox: { testEndpoints: true } })
  await h.engine.run(['inspections', 'guarantees'], 'full')
  await advance(h.sandbox.baseUrl, 80)
  await h.engine.run(['inspections', 'guarantees'], 'full')
  const feed = await wholeFeed(h.store)
  const want = feed
    .filter((e) => e.resource === 'inspections' && (e.kind === 'result' || e.kind === 'new'))
    .map((e) => e.id)
    .reverse()
  expect(want.length).toBeGreaterThan(3)
  const got: number[] = []
  let before: number | undefined
  for (;;) {
    const page = await h.store.call('listChanges', {
      resource: 'inspections',
      kinds: ['result', 'new'],
      limit: 2,
      ...(before ? { before } : {}),
    })
    got.push(...page.entries.map((e) => e.id))
    if (page.nextBefore === null) break
    before = page.nextBefore
  }
  expect(got).toEqual(want)
})
