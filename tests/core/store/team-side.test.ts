import { describe, expect, it } from 'vitest'
import { transaction } from '../../../src/core/store/schema/database'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import { setReview } from '../../../src/core/store/queries/reviews'
import {
  ackChanged,
  applyPulled,
  configureTeam,
  countOutbox,
  lastPulledSeq,
  readOutbox,
  reviewHistory,
  teamMembers,
} from '../../../src/core/store/team-side'
import { insertWalletLink, queryWalletLinks } from '../../../src/core/store/queries/wallet-history'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import type { ReviewEvent, WalletLinkEventDraft } from '../../../src/core/store/team-events'
import type { MarkedBy } from '../../../src/shared/list-filter'
import type { ReviewMarkName } from '../../../src/shared/lists'
import { guarantee, inspection, storePerTest } from './fixtures'

/**
 * The store's half of team sharing without a server: the outbox is written in
 * the mark's transaction, pulled pages apply once, the mark the server
 * numbered last is current, and a member whose mark was replaced unseen is told.
 */

const store = storePerTest()
const ME = { role: 'minji', displayName: '김민지' }
const OTHER = 'jisoo'

function seed(): void {
  transaction(store.db, () => {
    upsertInspections(store.db, [inspection(1), inspection(2), inspection(3)], 1, '2026-11-25')
    configureTeam(store.db, {
      identity: ME,
      members: [ME, { role: OTHER, displayName: '박지수' }],
    })
  })
}

function mark(idx: number, value: 'reviewed' | 'follow_up' | 'none', note?: string) {
  return transaction(store.db, () =>
    setReview(store.db, {
      resource: 'inspections',
      idx,
      mark: value,
      note,
      by: 'settings name',
      at: '2026-11-25 10:00:00',
      clientTime: '2026-11-25T01:00:00.000Z',
    }),
  )
}

let nextSeq = 100
function pulled(idx: number, author: string, overrides: Partial<ReviewEvent> = {}): ReviewEvent {
  nextSeq += 1
  return {
    kind: 'review',
    id: crypto.randomUUID(),
    resource: 'inspections',
    recordIdx: idx,
    mark: 'reviewed',
    note: '',
    clientTime: '2026-11-25T02:00:00.000Z',
    basedOnSeq: null,
    partnerId: 'P-1',
    author,
    seq: nextSeq,
    serverTime: '2026-11-25T02:00:01.000Z',
    ...overrides,
  }
}

function apply(...events: ReviewEvent[]): void {
  const upTo = Math.max(lastPulledSeq(store.db), ...events.map((event) => event.seq))
  transaction(store.db, () =>
    applyPulled(store.db, { events, upToSeq: upTo, timeZone: 'Asia/Seoul' }),
  )
}

function reviewOf(idx: number) {
  const page = queryInspections(store.db, { q: '', sort: 'latest', limit: 50 })
  return page.rows.find((row) => row.idx === idx)?.review ?? null
}

describe('the team outbox', () => {
  it('is untouched without a team server', () => {
    transaction(store.db, () => upsertInspections(store.db, [inspection(1)], 1, '2026-11-25'))
    expect(mark(1, 'reviewed').by).toBe('settings name')
    expect(countOutbox(store.db)).toEqual({ unsent: 0, setAside: 0 })
    expect(reviewHistory(store.db, { resource: 'inspections', idx: 1 })).toEqual([])
  })

  it('takes each mark in its transaction, signed with the team name', () => {
    seed()
    expect(mark(1, 'follow_up', '재검')).toMatchObject({ by: '김민지', note: '재검' })
    const [draft] = readOutbox(store.db, 10)
    expect(draft).toMatchObject({
      kind: 'review',
      resource: 'inspections',
      recordIdx: 1,
      mark: 'follow_up',
      note: '재검',
      basedOnSeq: null,
    })
    // A refused mark (unknown record) queues nothing.
    expect(() => mark(99, 'reviewed')).toThrow()
    expect(countOutbox(store.db)).toEqual({ unsent: 1, setAside: 0 })
  })

  it('queues a wallet outcome, never a completion’s redirect parameters', () => {
    seed()
    transaction(store.db, () =>
      insertWalletLink(store.db, {
        flow: 'pre-sync',
        refUserId: 'm-1',
        guaranteeIdx: null,
        outcome: 'completed',
        detail: 'walletAddress=0xabc',
        startedAt: '2026-11-25T01:00:00.000Z',
        endedAt: '2026-11-25T01:01:00.000Z',
      }),
    )
    const [draft] = readOutbox(store.db, 10) as WalletLinkEventDraft[]
    expect(draft).toMatchObject({ kind: 'wallet_link', outcome: 'completed', reason: null })

    // Pulled back (with the server's fields) it stays one row; another member's is added with their name.
    const base = { partnerId: 'P-1', serverTime: '2026-11-25T01:01:01.000Z' }
    const other = { ...draft!, id: crypto.randomUUID(), outcome: 'failed' as const, reason: 'x' }
    transaction(store.db, () =>
      applyPulled(store.db, {
        events: [
          { ...draft!, ...base, author: ME.role, seq: 1 },
          { ...other, ...base, author: OTHER, seq: 2 },
        ],
        upToSeq: 2,
        timeZone: 'Asia/Seoul',
      }),
    )
    const { rows } = queryWalletLinks(store.db, {})
    expect(rows.map((row) => [row.outcome, row.by])).toEqual(
      expect.arrayContaining([
        ['completed', '김민지'],
        ['failed', '박지수'],
      ]),
    )
    expect(rows).toHaveLength(2)
  })
})

describe('pulled events', () => {
  it('apply once, and the one numbered last is current', () => {
    seed()
    const first = pulled(2, OTHER, { mark: 'follow_up', note: 'a' })
    const second = pulled(2, OTHER, { mark: 'reviewed', note: 'b', basedOnSeq: first.seq })
    apply(second, first)
    apply(first, second)
    expect(reviewOf(2)).toMatchObject({ mark: 'reviewed', note: 'b', by: '박지수', author: OTHER })
    expect(reviewHistory(store.db, { resource: 'inspections', idx: 2 })).toHaveLength(2)
    expect(lastPulledSeq(store.db)).toBe(second.seq)
  })

  it('leave an unsent local mark in place until the server numbers it', () => {
    seed()
    mark(3, 'follow_up', 'mine')
    apply(pulled(3, OTHER, { note: 'theirs' }))
    expect(reviewOf(3)).toMatchObject({ note: 'mine' })
  })

  it('flag a mark of mine replaced by someone who had not seen it, until looked at', () => {
    seed()
    const [draft] = (mark(1, 'reviewed', 'mine'), readOutbox(store.db, 1))
    const mine = pulled(1, ME.role, { id: draft!.id, note: 'mine' })
    apply(mine)
    expect(reviewOf(1)?.changedBy).toBeUndefined()
    // Made offline, based on nothing: it did not see mine.
    apply(pulled(1, OTHER, { note: 'theirs', basedOnSeq: null }))
    expect(reviewOf(1)).toMatchObject({ note: 'theirs', changedBy: '박지수' })
    expect(
      transaction(store.db, () => ackChanged(store.db, { resource: 'inspections', idx: 1 })),
    ).toBe(true)
    expect(reviewOf(1)?.changedBy).toBeUndefined()

    // A later change that had seen mine raises no flag on another record.
    const [draft2] = (mark(2, 'reviewed', 'mine'), readOutbox(store.db, 2).slice(1))
    const mine2 = pulled(2, ME.role, { id: draft2!.id })
    apply(mine2)
    apply(pulled(2, OTHER, { note: 'seen', basedOnSeq: mine2.seq }))
    expect(reviewOf(2)).toMatchObject({ note: 'seen' })
    expect(reviewOf(2)?.changedBy).toBeUndefined()
  })
})

describe('lists filtered by who marked', () => {
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
  function seedMarks(): void {
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
        members: [ME, { role: OTHER, displayName: '박지수' }],
      }),
    )
    mark(1, 'reviewed')
    mark(2, 'none', '메모만')
    apply(pulled(3, OTHER), pulled(4, OTHER, { mark: 'follow_up' }), pulled(5, 'hyun'))
  }

  it('me, others and one person, with totals and mark counts of exactly those records', () => {
    seedMarks()
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
    expect(marked({ role: OTHER })).toMatchObject({ idxs: [3, 4], total: 2 })
    expect(marked({ role: ME.role })).toMatchObject({ idxs: [1, 2], total: 2 })
    expect(marked({ role: 'nobody' })).toMatchObject({ idxs: [], total: 0 })
  })

  it('combines with the mark, the text and paging, and leaves other lists alone', () => {
    seedMarks()
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

  it('a record is mine again once I mark it over theirs', () => {
    seedMarks()
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
    seedMarks()
    // An author who is not on the team as last read (removed since) cannot be assigned work.
    expect(teamMembers(store.db)).toEqual({
      me: ME.role,
      members: [
        { role: ME.role, name: '김민지', onTeam: true },
        { role: OTHER, name: '박지수', onTeam: true },
        { role: 'hyun', name: 'hyun', onTeam: false },
      ].sort((a, b) => a.name.localeCompare(b.name, 'ko')),
    })
  })
})
