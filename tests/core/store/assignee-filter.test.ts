import { describe, expect, it } from 'vitest'
import { transaction } from '../../../src/core/store/schema/database'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import type { ListRequest } from '../../../src/core/store/queries/list-sql'
import { setReview } from '../../../src/core/store/queries/reviews'
import { setAssignments } from '../../../src/core/store/team-assignments'
import { configureTeam } from '../../../src/core/store/team-side'
import type { AssigneeFilter } from '../../../src/shared/list-filter'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { guarantee, inspection, storePerTest } from './fixtures'

/**
 * The list filter's "assigned to" part (docs/team.md "Assignment"): me,
 * nobody or one member, alone and with the other filter parts, read from
 * the local assignment table; every answer checked against the whole list
 * filtered here by each row's `assignedTo`.
 */

const store = storePerTest()
const ME = { role: 'minji', displayName: '김민지' }
const OTHER = { role: 'jisoo', displayName: '박지수' }
const SIZE = 60
const STATUSES = ['감정접수', '배송완료', null] as const

function seed(identity: typeof ME | null = ME): void {
  const db = store.db
  transaction(db, () => {
    upsertInspections(
      db,
      Array.from({ length: SIZE }, (_, i) =>
        inspection(i + 1, {
          productName: i % 2 === 0 ? '샤넬 클래식 플랩백' : '구찌 마몽 숄더백',
          inspectionStatus: STATUSES[i % 3]!,
          registeredAt: `2026-11-${String(1 + (i % 20)).padStart(2, '0')} 1${i % 10}:00:00`,
        }),
      ),
      1,
      '2026-11-25',
    )
    upsertGuarantees(db, [guarantee(1), guarantee(2), guarantee(3)], 1, '2026-11-25')
    configureTeam(db, { identity, members: [ME, OTHER] })
    for (const idx of [3, 6, 9, 12, 40]) {
      setReview(db, { resource: 'inspections', idx, mark: 'reviewed', by: null, at: 'x' })
    }
    setReview(db, { resource: 'inspections', idx: 7, mark: 'follow_up', by: null, at: 'x' })
  })
  const assign = (role: string | null, idxs: number[], resource = 'inspections' as const) =>
    transaction(db, () =>
      setAssignments(db, identity, { resource, idxs, assignee: role, clientTime: 'now' }),
    )
  assign(ME.role, [1, 2, 3, 4, 5, 6, 7, 30, 31, 58])
  assign(OTHER.role, [8, 9, 10, 11, 44])
  // Assigned, then taken back: nobody's again.
  assign(null, [31])
  // The same idx on the other list is another record.
  assign(OTHER.role, [1], 'guarantees' as never)
}

/** What `filter` selects, computed from the whole list's rows. */
function expected(filter: ListRequest, assignee: AssigneeFilter, me: string | null) {
  const all = queryInspections(store.db, { ...filter, limit: 500 }).rows
  const wanted = (row: { assignedTo?: string }): boolean => {
    if (assignee === 'nobody') return row.assignedTo === undefined
    const role = assignee === 'me' ? me : assignee.role
    return role !== null && row.assignedTo === role
  }
  return all.filter(wanted).map((row) => row.idx)
}

const FILTERS: ListRequest[] = [
  {},
  { sort: 'oldest' },
  { status: '감정접수' },
  { status: null },
  { review: 'reviewed' },
  { review: 'none' },
  { q: '샤넬' },
  { q: '샤넬', sort: 'oldest' },
  { from: '2026-11-03', to: '2026-11-09' },
  { status: '배송완료', from: '2026-11-02' },
  { markedBy: 'me' },
]
const ASSIGNEES: AssigneeFilter[] = ['me', 'nobody', { role: OTHER.role }, { role: 'nobody-here' }]

describe('the "assigned to" filter', () => {
  it('selects exactly the records assigned to me, nobody or one member, with every other part', () => {
    seed()
    let seen = 0
    for (const filter of FILTERS) {
      for (const assignee of ASSIGNEES) {
        const label = JSON.stringify({ ...filter, assignee })
        const want = expected(filter, assignee, ME.role)
        const page = queryInspections(store.db, { ...filter, assignee, limit: 500 })
        expect(
          page.rows.map((row) => row.idx),
          label,
        ).toEqual(want)
        expect(page.total, label).toBe(want.length)
        seen += want.length
      }
    }
    expect(seen).toBeGreaterThan(0)
    expect(queryInspections(store.db, { assignee: 'me' }).rows.map((r) => r.idx)).toEqual([
      58, 30, 7, 6, 5, 4, 3, 2, 1,
    ])
    // The other list's records with the same idx are not this list's.
    expect(
      queryGuarantees(store.db, { assignee: { role: OTHER.role } }).rows.map((r) => r.idx),
    ).toEqual([1])
    expect(queryGuarantees(store.db, { assignee: 'me' }).total).toBe(0)
  })

  it("counts per status and mark as the filter's rows are", () => {
    seed()
    for (const assignee of ASSIGNEES) {
      for (const filter of [{}, { from: '2026-11-04' }, { q: '구찌' }] as ListRequest[]) {
        const label = JSON.stringify({ ...filter, assignee })
        const rows = queryInspections(store.db, { ...filter, limit: 500 }).rows.filter((row) =>
          expected(filter, assignee, ME.role).includes(row.idx),
        )
        const page = queryInspections(store.db, { ...filter, assignee })
        const byStatus = new Map<string | null, number>()
        for (const row of rows) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1)
        expect(
          Object.fromEntries(page.counts.map((c) => [String(c.status), c.count])),
          label,
        ).toEqual(Object.fromEntries([...byStatus].map(([s, n]) => [String(s), n])))
        const marked = (mark: string) => rows.filter((row) => row.review?.mark === mark).length
        expect(page.reviewCounts.reviewed, label).toBe(marked('reviewed'))
        expect(page.reviewCounts.follow_up, label).toBe(marked('follow_up'))
      }
    }
  })

  it("pages through a member's records with the cursor, both ways, as one page does", () => {
    seed()
    for (const assignee of ['me', 'nobody'] as const) {
      for (const sort of ['latest', 'oldest'] as const) {
        const whole = queryInspections(store.db, { assignee, sort, limit: 500 }).rows
        const paged: number[] = []
        let cursor: string | undefined
        do {
          const page = queryInspections(store.db, { assignee, sort, limit: 4, cursor })
          paged.push(...page.rows.map((row) => row.idx))
          cursor = page.nextCursor ?? undefined
        } while (cursor)
        expect(paged).toEqual(whole.map((row) => row.idx))
      }
    }
  })

  it('selects nothing as "me" without a team server, and every record as "nobody"', () => {
    seed(null)
    expect(queryInspections(store.db, { assignee: 'me' }).total).toBe(0)
    // Assignments are kept only with a team identity: none were stored.
    expect(queryInspections(store.db, { assignee: 'nobody' }).total).toBe(SIZE)
  })
})
