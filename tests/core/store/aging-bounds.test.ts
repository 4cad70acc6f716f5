import { expect, it } from 'vitest'
import {
  agingCounts,
  recordTimeline,
  type AgingThresholds,
} from '../../../src/core/store/queries/change-queries'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import type { InspectionRecord } from '../../../src/core/store/record-types'
import { transaction } from '../../../src/core/store/schema/database'
import { fillStatusBounds } from '../../../src/core/store/write/changes'
import { applyPageWrite } from '../../../src/core/store/write/writes'
import { msOfLocal } from '../../../src/shared/local-time'
import { inspection, storePerTest } from './fixtures'

/**
 * Aging from the first sync (docs/store-and-sync.md "Changes feed and
 * aging"): a record first seen in a status holds it at least since the
 * service's time of its last change, read in the profile's zone; a move
 * seen later replaces that with the sync that saw it. The counts, the
 * filter and the timeline agree.
 */

const store = storePerTest()
const SHIPPING = '감정승인(배송중)'
const DAYS: AgingThresholds = { guaranteeReady: 3, inspectionShipping: 7 }
let pass = 0

function write(
  items: readonly InspectionRecord[],
  at: string,
  options: { full?: boolean; zone?: string } = {},
): void {
  pass += 1
  const { db } = store
  transaction(db, () =>
    applyPageWrite(db, {
      resource: 'inspections',
      items,
      pass,
      at,
      sync: { id: `s${pass}`, at, ...(options.zone ? { zone: options.zone } : {}) },
      ...(options.full ? { markGone: true, state: { lastFullAt: at } } : {}),
    }),
  )
}

/** The aging count of the shipping rule and the aging filter's matches at `now`. */
function agedAt(now: string): { count: number; listed: number[] } {
  const counts = agingCounts(store.db, { now, days: DAYS })
  const page = queryInspections(store.db, {
    status: SHIPPING,
    agedDays: 7,
    agedAsOf: now,
    limit: 100,
  })
  expect(page.total).toBe(page.rows.length)
  return {
    count: counts.rules.find((r) => r.rule === 'inspectionShipping')!.count,
    listed: page.rows.map((r) => r.idx).sort((a, b) => a - b),
  }
}

const shipping = (idx: number, modifiedAt: string | null, registeredAt?: string) =>
  inspection(idx, {
    inspectionStatus: SHIPPING,
    modifiedAt,
    ...(registeredAt ? { registeredAt } : {}),
  })

it('reads the service time in the profile zone: aging counts from the first sync', () => {
  // 09:00 in Seoul is midnight UTC; in UTC it is nine hours later.
  write([shipping(1, '2026-11-10 09:00:00')], '2026-11-12T00:00:00.000Z', {
    full: true,
    zone: 'Asia/Seoul',
  })
  const timeline = recordTimeline(store.db, { resource: 'inspections', idx: 1 })
  expect(timeline.currentSince).toBe('2026-11-10T00:00:00.000Z')
  expect(timeline.currentSinceBound).toBe(true)
  // Seven days after the bound it is aged, a second before it is not.
  expect(agedAt('2026-11-17T00:00:00.000Z')).toEqual({ count: 1, listed: [1] })
  expect(agedAt('2026-11-16T23:59:59.000Z')).toEqual({ count: 0, listed: [] })
  const row = queryInspections(store.db, { limit: 10 }).rows[0]!
  expect(row.statusSince).toBe('2026-11-10T00:00:00.000Z')
})

it('reads the same service time in another zone as another instant', () => {
  write([shipping(1, '2026-11-10 09:00:00')], '2026-11-12T00:00:00.000Z', {
    full: true,
    zone: 'UTC',
  })
  expect(recordTimeline(store.db, { resource: 'inspections', idx: 1 }).currentSince).toBe(
    '2026-11-10T09:00:00.000Z',
  )
  expect(agedAt('2026-11-17T00:00:00.000Z')).toEqual({ count: 0, listed: [] })
  expect(agedAt('2026-11-17T09:00:00.000Z')).toEqual({ count: 1, listed: [1] })
})

it('takes the registration time when the record was never modified, never after the sync', () => {
  write(
    [
      shipping(1, null, '2026-10-01 12:00:00'),
      // A last change the sync has not reached yet (a wrong zone, a clock ahead): the sync's time.
      shipping(2, '2026-11-30 12:00:00'),
    ],
    '2026-11-12T00:00:00.000Z',
    { full: true },
  )
  const first = recordTimeline(store.db, { resource: 'inspections', idx: 1 })
  expect(first).toMatchObject({ currentSince: '2026-10-01T03:00:00.000Z', currentSinceBound: true })
  const ahead = recordTimeline(store.db, { resource: 'inspections', idx: 2 })
  expect(ahead.currentSince).toBe('2026-11-12T00:00:00.000Z')
  expect(agedAt('2026-11-12T00:00:00.000Z')).toEqual({ count: 1, listed: [1] })
  expect(agedAt('2026-11-19T00:00:00.000Z')).toEqual({ count: 2, listed: [1, 2] })
})

it('a later status change replaces the bound with the sync that saw it', () => {
  write(
    [inspection(1, { modifiedAt: '2026-01-05 10:00:00' }), shipping(2, '2026-01-05 10:00:00')],
    '2026-11-12T00:00:00.000Z',
    { full: true },
  )
  expect(agedAt('2026-11-20T00:00:00.000Z')).toEqual({ count: 1, listed: [2] })
  // Record 1 moves into shipping; its modifiedAt says an old day, the move is seen now.
  write([shipping(1, '2026-01-06 10:00:00')], '2026-11-15T00:00:00.000Z')
  const moved = recordTimeline(store.db, { resource: 'inspections', idx: 1 })
  expect(moved).toMatchObject({
    currentSince: '2026-11-15T00:00:00.000Z',
    currentSinceBound: false,
  })
  expect(agedAt('2026-11-21T23:59:59.000Z')).toEqual({ count: 1, listed: [2] })
  expect(agedAt('2026-11-22T00:00:00.000Z')).toEqual({ count: 2, listed: [1, 2] })
})

it('gives a record new after the baseline, and one back without a history, their bound', () => {
  write([shipping(1, '2026-01-05 10:00:00')], '2026-11-12T00:00:00.000Z', { full: true })
  write(
    [shipping(1, '2026-01-05 10:00:00'), shipping(2, '2026-11-01 10:00:00')],
    '2026-11-13T00:00:00.000Z',
  )
  expect(recordTimeline(store.db, { resource: 'inspections', idx: 2 })).toMatchObject({
    currentSince: '2026-11-01T01:00:00.000Z',
    currentSinceBound: true,
  })
  // Record 1 leaves in a complete pass and comes back unchanged: its bound again.
  write([shipping(2, '2026-11-01 10:00:00')], '2026-11-14T00:00:00.000Z', { full: true })
  expect(agedAt('2026-11-20T00:00:00.000Z')).toEqual({ count: 1, listed: [2] })
  write([shipping(1, '2026-01-05 10:00:00')], '2026-11-15T00:00:00.000Z')
  expect(recordTimeline(store.db, { resource: 'inspections', idx: 1 })).toMatchObject({
    currentSince: '2026-01-05T01:00:00.000Z',
    currentSinceBound: true,
  })
  expect(agedAt('2026-11-20T00:00:00.000Z')).toEqual({ count: 2, listed: [1, 2] })
})

it('fills the bounds a store from before them lacks, in the zone it is given, once', () => {
  const { db } = store
  write(
    [shipping(1, '2026-01-05 10:00:00'), shipping(2, '2026-01-05 10:00:00')],
    '2026-11-12T00:00:00.000Z',
    { full: true },
  )
  write([shipping(3, '2026-11-01 10:00:00')], '2026-11-13T00:00:00.000Z')
  // As such a store holds them: no row for the baseline's records, a new one's first sight.
  db.exec(`DELETE FROM status_since WHERE idx IN (1, 2)`)
  db.exec(
    `UPDATE status_since SET since = ${Date.parse('2026-11-13T00:00:00.000Z')}, bound = 0 WHERE idx = 3;
     INSERT INTO status_bounds_pending (resource) VALUES ('inspections')`,
  )
  expect(transaction(db, () => fillStatusBounds(db, 'UTC'))).toBe(3)
  const since = (idx: number) => recordTimeline(db, { resource: 'inspections', idx })
  expect(since(1)).toMatchObject({
    currentSince: '2026-01-05T10:00:00.000Z',
    currentSinceBound: true,
  })
  expect(since(3)).toMatchObject({
    currentSince: '2026-11-01T10:00:00.000Z',
    currentSinceBound: true,
  })
  expect(transaction(db, () => fillStatusBounds(db, 'UTC'))).toBe(0)
})

it('counts the aged records on the aging index, never by reading every row', () => {
  write([shipping(1, '2026-01-05 10:00:00')], '2026-11-12T00:00:00.000Z', { full: true })
  const { db } = store
  db.statements.clear()
  agingCounts(db, { now: '2026-11-20T00:00:00.000Z', days: DAYS })
  // The list's counts of the aging filter alone: the stored counts less the recent rows.
  queryInspections(db, { agedDays: 7, agedAsOf: '2026-11-20T00:00:00.000Z', limit: 10 })
  const recent = [...db.statements.keys()].filter((sql) => /since > \?/.test(sql))
  expect(recent).toHaveLength(2)
  for (const sql of recent) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
      .map((row) => row.detail)
      .join('\n')
    expect(plan).toMatch(
      /SEARCH s(tatus_since)? USING (COVERING )?INDEX status_since_aging \(list=\? AND status=\? AND since>\?\)/,
    )
  }
})

it('reads a wall-clock time of a zone as its instant, across clock changes', () => {
  const iso = (local: string, zone: string): string | null => {
    const ms = msOfLocal(local, zone)
    return ms === null ? null : new Date(ms).toISOString()
  }
  expect(iso('2026-11-29 04:17:00', 'Asia/Seoul')).toBe('2026-11-28T19:17:00.000Z')
  expect(iso('2026-07-01 12:00:00', 'Europe/Berlin')).toBe('2026-07-01T10:00:00.000Z')
  expect(iso('2026-01-01 12:00:00', 'Europe/Berlin')).toBe('2026-01-01T11:00:00.000Z')
  // Skipped by the spring change: the hour after; repeated by the autumn one: the first.
  expect(iso('2026-03-08 02:30:00', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z')
  expect(iso('2026-11-01 01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z')
  expect(msOfLocal('not a time', 'Asia/Seoul')).toBeNull()
})
