import { readInspection } from '../src/core/api/read-records'
import {
  agedCount,
  agingCounts,
  agingCutoff,
  listChanges,
  type ChangeQuery,
} from '../src/core/store/queries/change-queries'
import { writeBaseline } from '../src/core/store/write/changes'
import type { StoreConnection } from '../src/core/store/connection'
import { transaction } from '../src/core/store/schema/database'
import type { InspectionRecord } from '../src/core/store/record-types'
import { upsertInspections } from '../tests/support/store-writes'
import { createRng } from '../src/sandbox/seed'
import { Dataset } from '../src/sandbox/dataset'
import { SANDBOX_ANCHOR } from '../tests/support/anchor'

/**
 * The changes feed and aging over a filled store: a baseline, then a seeded
 * set of syncs that move records along the inspection flow, written through
 * the real write path (so their entries, statuses and `status_since` rows
 * are what a sync leaves), then the feed's and the aging counts' queries.
 */

/** Syncs written after the baseline, a few hours apart. */
const SYNCS = 120
const STATUSES = ['감정접수', '감정승인(배송중)', '배송완료'] as const

/** Writes the baseline and the seeded syncs; answers the entries written and the last sync's time. */
export function seedChanges(
  db: StoreConnection,
  size: number,
  seed = 11,
): { entries: number; lastAt: string } {
  const dataset = new Dataset({
    seed: 1,
    size,
    staticUrl: 'http://127.0.0.1:1',
    anchor: SANDBOX_ANCHOR,
  })
  const rng = createRng(seed)
  const start = Date.parse('2026-01-01T00:00:00Z')
  transaction(db, () =>
    writeBaseline(db, 'inspections', size, {
      id: 'bench-baseline',
      at: new Date(start).toISOString(),
    }),
  )
  // About 2% of the records move per run of syncs, a few of them more than once.
  const perSync = Math.max(10, Math.round((size * 0.02) / SYNCS))
  const current = new Map<number, InspectionRecord>()
  let lastAt = ''
  for (let s = 1; s <= SYNCS; s += 1) {
    const at = new Date(start + s * 6 * 3_600_000).toISOString()
    lastAt = at
    const page: InspectionRecord[] = []
    const picked = new Set<number>()
    for (let n = 0; n < perSync; n += 1) {
      const i = Math.floor(rng() * size)
      if (picked.has(i)) continue
      picked.add(i)
      let record = current.get(i)
      if (record === undefined) {
        const parsed = readInspection(dataset.inspection(i), 0)
        if (!parsed.ok) continue
        record = parsed.value
      }
      const k = STATUSES.indexOf(record.inspectionStatus as (typeof STATUSES)[number])
      const next = STATUSES[(k + 1) % STATUSES.length]!
      const moved: InspectionRecord = {
        ...record,
        inspectionStatus: next,
        ...(next === '배송완료' && rng() < 0.7 ? { inspectionResult: '정품' } : {}),
        modifiedAt: at.replace('T', ' ').slice(0, 19),
      }
      current.set(i, moved)
      page.push(moved)
    }
    transaction(db, () => upsertInspections(db, page, 2 + s, at, { id: `bench-sync-${s}`, at }))
  }
  const entries = (db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n
  return { entries, lastAt }
}

/** The feed's query shapes: the first page, a rare kind, a list and two kinds, a deep page. */
export function changeShapes(db: StoreConnection): { name: string; query: ChangeQuery }[] {
  const deep = listChanges(db, { limit: 100, before: Number.MAX_SAFE_INTEGER })
  let before = deep.nextBefore ?? undefined
  for (let page = 0; page < 30 && before !== undefined; page += 1) {
    before = listChanges(db, { limit: 100, before }).nextBefore ?? undefined
  }
  return [
    { name: 'first page', query: { limit: 100 } },
    { name: 'kind result', query: { kinds: ['result'], limit: 100 } },
    { name: 'rare kind baseline', query: { kinds: ['baseline', 'gone', 'back'], limit: 100 } },
    {
      name: 'list + two kinds',
      query: { resource: 'inspections', kinds: ['status', 'new'], limit: 100 },
    },
    { name: 'page 31', query: { limit: 100, ...(before === undefined ? {} : { before }) } },
  ]
}

/** The aging counts at `now`, and the count of one rule at a cutoff inside the seeded syncs. */
export function agingShapes(db: StoreConnection, now: string): (() => unknown)[] {
  return [
    () => agingCounts(db, { now, days: { guaranteeReady: 3, inspectionShipping: 7 } }),
    () => agedCount(db, 'inspections', '감정승인(배송중)', agingCutoff(now, 7)),
  ]
}
