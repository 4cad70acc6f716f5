import { describe, expect, it } from 'vitest'
import { transaction } from '../../../src/core/store/database'
import { queryGuarantees, queryInspections } from '../../../src/core/store/list-queries'
import { setReview } from '../../../src/core/store/reviews'
import { applyPulled, configureTeam, teamMembers } from '../../../src/core/store/team-side'
import type { ReviewEvent } from '../../../src/core/team/events'
import type { MarkedBy } from '../../../src/shared/contract'
import type { ReviewMarkName } from '../../../src/shared/cache'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { guarantee, inspection, storePerTest } from './fixtures'

/**
 * The lists' "marked by" filter: records whose current mark or note this
 * member set (on this computer, or as their team role), another member set,
 * or one person set; counted over exactly those records.
 */

const store = storePerTest()
const ME = { role: 'minji', displayName: '김민지' }

function mark(idx: number, value: ReviewMarkName, note?: string): void {
  transaction(store.db, () =>
    setReview(store.db, {
      resource: 'inspections',
      idx,
      mark: value,
      note,
      by: 'settings name',
      at: '2026-11-25 10:00:00',
    }),
  )
}

let seq = 0
function pulled(idx: number, author: string, value: ReviewMarkName = 'reviewed'): void {
  seq += 1
  const event: ReviewEvent = {
    kind: 'review',
    id: crypto.randomUUID(),
    resource: 'inspections',
    recordIdx: idx,
    mark: value,
    note: '',
    clientTime: '2026-11-25T02:00:00.000Z',
    basedOnSeq: null,
    partnerId: 'P-1',
    author,
    seq,
    serverTime: '2026-11-25T02:00:01.000Z',
  }
  transaction(store.db, () =>
    applyPulled(store.db, { events: [event], upToSeq: seq, timeZone: 'Asia/Seoul' }),
  )
}

function marked(markedBy: MarkedBy, more: { q?: string; review?: ReviewMarkName } = {}) {
  const page = queryInspections(store.db, { limit: 50, markedBy, ...more })
  return {
    idxs: page.rows.map((row) => row.idx).sort((a, b) => a - b),
    total: page.total,
    reviewCounts: page.reviewCounts,
  }
}

/**
 * Records 1–8; 8 marked before the profile had a team server, 1 and 2 by
 * this member, 3 and 4 by 박지수, 5 by a member the worker has not named.
 */
function seedTeam(): void {
  transaction(store.db, () => {
    upsertInspections(
      store.db,
      [1, 2, 3, 4, 5, 6, 7, 8].map((idx) => inspection(idx)),
      1,
      '2026-11-25',
    )
    upsertGuarantees(store.db, [guarantee(1)], 1, '2026-11-25')
  })
  mark(8, 'follow_up')
  transaction(store.db, () =>
    configureTeam(store.db, {
      identity: ME,
      members: [ME, { role: 'jisoo', displayName: '박지수' }],
    }),
  )
  mark(1, 'reviewed')
  mark(2, 'none', '메모만')
  pulled(3, 'jisoo')
  pulled(4, 'jisoo', 'follow_up')
  pulled(5, 'hyun')
}

describe('lists filtered by who marked', () => {
  it('me, others and one person, with totals and mark counts of exactly those records', () => {
    seedTeam()
    expect(marked('me')).toEqual({
      idxs: [1, 2, 8],
      total: 3,
      reviewCounts: { reviewed: 1, follow_up: 1, none: 1 },
    })
    expect(marked('others')).toEqual({
      idxs: [3, 4, 5],
      total: 3,
      reviewCounts: { reviewed: 2, follow_up: 1, none: 0 },
    })
    expect(marked({ role: 'jisoo' })).toMatchObject({ idxs: [3, 4], total: 2 })
    expect(marked({ role: 'minji' })).toMatchObject({ idxs: [1, 2], total: 2 })
    expect(marked({ role: 'nobody' })).toMatchObject({ idxs: [], total: 0 })
  })

  it('combines with the mark, the text and paging, and leaves other lists alone', () => {
    seedTeam()
    expect(marked('others', { review: 'follow_up' })).toMatchObject({ idxs: [4], total: 1 })
    expect(marked('others', { q: '상품 3' })).toMatchObject({ idxs: [3], total: 1 })
    const first = queryInspections(store.db, { limit: 2, markedBy: 'others' })
    const second = queryInspections(store.db, {
      limit: 2,
      markedBy: 'others',
      cursor: first.nextCursor!,
    })
    expect([...first.rows, ...second.rows].map((row) => row.idx).sort()).toEqual([3, 4, 5])
    expect(queryGuarantees(store.db, { limit: 50, markedBy: 'others' }).total).toBe(0)
    // The unfiltered list still counts every record.
    expect(queryInspections(store.db, { limit: 50 }).total).toBe(8)
  })

  it('a member is mine again once I mark the record over theirs', () => {
    seedTeam()
    mark(3, 'follow_up')
    expect(marked('me').idxs).toEqual([1, 2, 3, 8])
    expect(marked('others').idxs).toEqual([4, 5])
  })

  it('without a team server every mark is this computer’s', () => {
    transaction(store.db, () =>
      upsertInspections(store.db, [inspection(1), inspection(2)], 1, '2026-11-25'),
    )
    mark(1, 'reviewed')
    expect(marked('me')).toMatchObject({ idxs: [1], total: 1 })
    expect(marked('others')).toMatchObject({ idxs: [], total: 0 })
    expect(teamMembers(store.db)).toEqual({ me: null, members: [] })
  })

  it('team.members: this member, the named members and any other author, by name', () => {
    seedTeam()
    expect(teamMembers(store.db)).toEqual({
      me: 'minji',
      members: [
        { role: 'minji', name: '김민지' },
        { role: 'jisoo', name: '박지수' },
        { role: 'hyun', name: 'hyun' },
      ].sort((a, b) => a.name.localeCompare(b.name, 'ko')),
    })
  })
})
