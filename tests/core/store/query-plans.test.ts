import type { StoreConnection } from '../../../src/core/store/connection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { explainList, queryInspections } from '../../../src/core/store/queries/list-queries'
import {
  SHORT_QUERY_COUNT_CAP,
  type ListRequest,
  type ListDriver,
} from '../../../src/core/store/queries/list-sql'
import { setReview } from '../../../src/core/store/queries/reviews'
import { setAssignments } from '../../../src/core/store/team-assignments'
import { buildCellIndexes } from '../../../src/core/store/search/cell-index'
import { upsertInspections } from '../../support/store-writes'
import { inspection, tempDir } from './fixtures'

/**
 * The SQLite plan of every list shape, so a later change cannot fall back
 * to a scan unnoticed: each names the index it must walk, no shape scans a
 * table without one, and none sorts its matches before the first page.
 * `list-queries.ts` names some of these indexes with `INDEXED BY`, so that
 * a plan names its index proves little on its own: what fails when an index
 * loses the list's order is the sort (`TEMP B-TREE`) the plan then needs,
 * and the index's own columns, checked below.
 */

let temp: ReturnType<typeof tempDir>
let db: StoreConnection

const NAMES = [
  '루이비통 네버풀 백 MM',
  '샤넬 클래식 플랩백',
  '구찌 마몽 숄더백',
  '프라다 리나일론 백팩',
]
const SIZE = SHORT_QUERY_COUNT_CAP + 200

/** Registered one minute apart in idx order, as the service numbers records. */
function registeredAt(idx: number): string {
  const date = new Date(Date.UTC(2024, 0, 1) + idx * 60_000)
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

beforeAll(() => {
  temp = tempDir()
  db = openStore(storeFileFor(temp.dir, 'sandbox')).db
  const items = Array.from({ length: SIZE }, (_, i) =>
    inspection(i + 1, {
      productName: NAMES[i % NAMES.length]!,
      inspectionNum: String(202400000000 + i * 37),
      inspectionStatus: i % 7 === 0 ? null : i % 3 === 0 ? '감정접수' : '배송완료',
      refUserId: `member${i % 50}`,
      registeredAt: registeredAt(i + 1),
    }),
  )
  transaction(db, () => upsertInspections(db, items, 1, 'now'))
  for (const idx of [5, 10, 15, 20]) {
    setReview(db, { resource: 'inspections', idx, mark: 'reviewed', by: null, at: 'x' })
  }
  const lead = { role: 'lead' }
  const assign = (assignee: string, idxs: number[]) =>
    setAssignments(db, lead, { resource: 'inspections', idxs, assignee, clientTime: 'x' })
  transaction(db, () => {
    assign('minji', [3, 5, 8, 13, 21, 34, 55, 89, 144])
    assign('jisoo', [2, 4, 6])
  })
})
afterAll(() => {
  db.close()
  temp.remove()
})

const month = { from: '2024-01-02', to: '2024-01-03' }

/** Each shape, the index its page must walk, and whether its counts are stored (no SQL). */
const SHAPES: { name: string; query: ListRequest; driver: ListDriver; uses: string }[] = [
  { name: 'no filter', query: {}, driver: 'time', uses: 'SCAN t USING INDEX inspections_by_time' },
  {
    name: 'oldest first',
    query: { sort: 'oldest' },
    driver: 'time',
    uses: 'SCAN t USING INDEX inspections_by_time',
  },
  {
    name: 'status',
    query: { status: '배송완료' },
    driver: 'status',
    uses: 'SEARCH t USING INDEX inspections_by_status (status=?)',
  },
  {
    name: 'no status',
    query: { status: null },
    driver: 'status',
    uses: 'SEARCH t USING INDEX inspections_by_status (status=?)',
  },
  {
    name: 'member',
    query: { member: 'member7' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX',
  },
  {
    name: 'from/to',
    query: month,
    driver: 'time',
    uses: 'SEARCH t USING INDEX inspections_by_time (registered_at>? AND registered_at<?)',
  },
  {
    name: 'status and dates',
    query: { status: '감정접수', ...month },
    driver: 'status',
    uses: 'SEARCH t USING INDEX inspections_by_status (status=? AND registered_at>? AND registered_at<?)',
  },
  {
    name: 'review mark',
    query: { review: 'reviewed' },
    driver: 'review',
    uses: 'SEARCH r USING COVERING INDEX review_marks_by_mark (resource=? AND mark=?)',
  },
  {
    name: 'no review mark',
    query: { review: 'none' },
    driver: 'time',
    uses: 'SCAN t USING INDEX inspections_by_time',
  },
  { name: 'text', query: { q: '루이비통' }, driver: 'text', uses: 'SCAN f VIRTUAL TABLE INDEX' },
  {
    name: 'text, oldest first',
    query: { q: '샤넬', sort: 'oldest' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX',
  },
  { name: '초성', query: { q: 'ㄹㅇㅂㅌ' }, driver: 'text', uses: 'SCAN f VIRTUAL TABLE INDEX' },
  {
    name: 'digits inside numbers',
    query: { q: '0037' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX',
  },
  { name: 'one syllable', query: { q: '백' }, driver: 'text', uses: 'SCAN f VIRTUAL TABLE INDEX' },
  { name: 'one consonant', query: { q: 'ㅂ' }, driver: 'text', uses: 'SCAN f VIRTUAL TABLE INDEX' },
  {
    name: 'status and text',
    query: { status: '배송완료', q: '샤넬' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX',
  },
  {
    name: 'dates and text',
    query: { ...month, q: '샤넬' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX 192:M1><',
  },
  {
    name: 'review mark and text',
    query: { review: 'reviewed', q: '샤넬' },
    driver: 'review',
    uses: 'SEARCH r USING COVERING INDEX review_marks_by_mark (resource=? AND mark=?',
  },
  {
    name: 'assigned to a member',
    query: { assignee: { role: 'minji' } },
    driver: 'assigned',
    uses: 'SEARCH a USING COVERING INDEX record_assignments_assignee (assignee=? AND resource=?)',
  },
  {
    name: 'assigned to a member, oldest first, with a status',
    query: { assignee: { role: 'minji' }, sort: 'oldest', status: '배송완료' },
    driver: 'assigned',
    uses: 'SEARCH a USING COVERING INDEX record_assignments_assignee (assignee=? AND resource=?)',
  },
  {
    name: 'assigned to nobody',
    query: { assignee: 'nobody' },
    driver: 'time',
    uses: 'SCAN t USING INDEX inspections_by_time',
  },
  {
    name: 'member and text',
    query: { member: 'member7', q: '백' },
    driver: 'text',
    uses: 'SCAN f VIRTUAL TABLE INDEX',
  },
]

/** A plan line that reads a whole table without an index (an FTS walk must have its MATCH). */
const BARE_SCAN =
  /^SCAN (?!\S+ (EXISTS )?VIRTUAL TABLE INDEX \d+:=?M)(?!\(subquery)(?!CONSTANT ROW)(?!.* USING )/

describe('query plans of every list shape', () => {
  it('the bare-scan check catches a bare scan', () => {
    for (const line of ['SCAN t', 'SCAN inspections', 'SCAN r', 'SCAN f VIRTUAL TABLE INDEX 0:']) {
      expect(line).toMatch(BARE_SCAN)
    }
    expect(explainList(db, 'inspections', {}).page.join('\n')).toMatch(/USING INDEX/)
  })

  for (const shape of SHAPES) {
    it(`${shape.name}: walks ${shape.driver}, never a bare scan`, () => {
      const plan = explainList(db, 'inspections', shape.query)
      expect(plan.driver).toBe(shape.driver)
      expect(plan.page.join('\n')).toContain(shape.uses)
      for (const line of [...plan.page, ...plan.count]) expect(line).not.toMatch(BARE_SCAN)
      // The walked index (or FTS rowid order) is the list's order: no sort of every match
      // before the first page, so a page stops after its rows.
      expect(plan.page.join('\n')).not.toContain('TEMP B-TREE')
      if (shape.driver === 'text') {
        expect(plan.count.join('\n')).toContain('SCAN f VIRTUAL TABLE INDEX')
      }
      // Without text, member or assignee the counts are stored: no counting SQL at all.
      expect(plan.count.length === 0).toBe(
        shape.query.q === undefined && !shape.query.member && shape.query.assignee === undefined,
      )
    })
  }

  it('the indexes a page walks exist and hold the list order (registered_at, idx) after their filter', () => {
    const columns = (index: string): string[] =>
      (db.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((c) => c.name)
    // A list's idx is its rowid, which every entry of its indexes ends with (cid -1).
    const order = (index: string): string[] =>
      (db.prepare(`PRAGMA index_xinfo(${index})`).all() as { cid: number; name: string }[]).map(
        (c) => (c.cid === -1 ? 'idx' : c.name),
      )
    expect(order('inspections_by_time')).toEqual(['registered_at', 'idx'])
    expect(order('inspections_by_status')).toEqual(['status', 'registered_at', 'idx'])
    expect(order('guarantees_by_time')).toEqual(['registered_at', 'idx'])
    expect(order('guarantees_by_status')).toEqual(['status', 'registered_at', 'idx'])
    expect(columns('review_marks_by_mark')).toEqual(['resource', 'mark', 'record_idx'])
    expect(columns('record_assignments_assignee')).toEqual(['assignee', 'resource', 'record_idx'])
  })

  it('pages through marked records with its cursor, both ways, as one page does', () => {
    for (const sort of ['latest', 'oldest'] as const) {
      const whole = queryInspections(db, { review: 'reviewed', sort, limit: 100 }).rows
      const paged: number[] = []
      let cursor: string | undefined
      do {
        const page = queryInspections(db, { review: 'reviewed', sort, limit: 3, cursor })
        paged.push(...page.rows.map((row) => row.idx))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(paged).toEqual(whole.map((row) => row.idx))
      expect(whole.length).toBe(4)
    }
  })

  it('every shape answers with its rows in the list order', () => {
    for (const shape of SHAPES) {
      const page = queryInspections(db, { ...shape.query, limit: 20 })
      const keys = page.rows.map((row) => `${row.registeredAt}|${String(row.idx).padStart(8)}`)
      const sortedKeys = [...keys].sort()
      expect(keys).toEqual(shape.query.sort === 'oldest' ? sortedKeys : sortedKeys.reverse())
    }
  })
})

describe('one-character text', () => {
  /** Matching idx the slow way, with the prefix query the one-character plan replaces. */
  const prefixMatches = (match: string, where = 'true'): number[] =>
    (
      db
        .prepare(
          `SELECT idx FROM inspections WHERE gone_at IS NULL AND ${where}
           AND idx IN (SELECT rowid FROM inspections_fts WHERE inspections_fts MATCH ?)
           ORDER BY registered_at DESC, idx DESC`,
        )
        .all(match) as { idx: number }[]
    ).map((row) => row.idx)

  it('finds exactly what the prefix query finds, and says its total is a lower bound', () => {
    for (const [q, match] of [
      ['백', '"백" *'],
      ['ㅂ', '"ㅂ" *'],
    ] as const) {
      const expected = prefixMatches(match)
      expect(expected.length).toBeGreaterThan(SHORT_QUERY_COUNT_CAP)
      const page = queryInspections(db, { q, limit: 100 })
      expect(page.rows.map((row) => row.idx)).toEqual(expected.slice(0, 100))
      expect(page.total).toBe(SHORT_QUERY_COUNT_CAP)
      expect(page.totalIsLowerBound).toBe(true)
      const counted = page.counts.reduce((sum, entry) => sum + entry.count, 0)
      expect(counted).toBe(SHORT_QUERY_COUNT_CAP)
    }
  })

  it("answers a short query's first page from its first matches' cells as the SQL plans do", () => {
    // A second connection to the same file, with its cell index built: the first page of a
    // short query comes from one walk of its first matches there, from SQL here.
    const indexed = openStore(storeFileFor(temp.dir, 'sandbox')).db
    try {
      buildCellIndexes(indexed)
      const queries: ListRequest[] = []
      for (const q of ['백', 'ㅂ', '2', '37'])
        for (const sort of ['latest', 'oldest'] as const)
          queries.push(
            { q, sort },
            { q, sort, status: '감정접수' },
            { q, sort, status: null },
            { q, sort, review: 'reviewed' },
            { q, sort, review: 'none' },
          )
      for (const query of queries) {
        expect(explainList(indexed, 'inspections', query).driver).toBe('cells')
        expect(explainList(db, 'inspections', query).driver).not.toBe('cells')
        const fromCells = queryInspections(indexed, { ...query, limit: 100 })
        const fromSql = queryInspections(db, { ...query, limit: 100 })
        expect(
          fromCells.rows.map((row) => row.idx),
          JSON.stringify(query),
        ).toEqual(fromSql.rows.map((row) => row.idx))
        for (const field of ['total', 'totalIsLowerBound', 'counts', 'reviewCounts', 'nextCursor'])
          expect(
            fromCells[field as keyof typeof fromCells],
            `${field} ${JSON.stringify(query)}`,
          ).toEqual(fromSql[field as keyof typeof fromSql])
      }
      // A page the first matches cannot fill (the reviewed are 4 in the whole list) still
      // ends where the list does.
      const few = queryInspections(indexed, { q: '2', review: 'reviewed' })
      expect(few.rows.map((row) => row.idx).sort()).toEqual([10, 15, 20, 5].sort())
    } finally {
      indexed.close()
    }
  })

  it('counts exactly, without the flag, when the matches of the filter fit under the cap', () => {
    const expected = prefixMatches(
      '"백" *',
      "registered_at >= '2024-01-02 00:00:00' AND registered_at < '2024-01-04 00:00:00'",
    )
    expect(expected.length).toBeLessThan(SHORT_QUERY_COUNT_CAP)
    const page = queryInspections(db, { q: '백', ...month })
    expect(page.total).toBe(expected.length)
    expect(page.totalIsLowerBound).toBeUndefined()
    expect(queryInspections(db, { q: '숄더백' }).totalIsLowerBound).toBeUndefined()
    expect(queryInspections(db, { q: '뷁' })).toMatchObject({ total: 0, rows: [] })
  })
})
