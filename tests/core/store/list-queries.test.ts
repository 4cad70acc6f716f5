import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import {
  listIdxs,
  locateRecord,
  queryGuarantees,
  queryInspections,
} from '../../../src/core/store/queries/list-queries'
import { expandRecord, RECORD_TABLES } from '../../../src/core/store/schema/stored-raw'
import { writeSyncState } from '../../../src/core/store/sync-state'
import { replaceBrands } from '../../../src/core/store/write/writes'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { guarantee, inspection, tempDir } from './fixtures'
import { setReviews } from '../../../src/core/store/queries/reviews'
import type { ListRequest } from '../../../src/core/store/queries/list-sql'

let temp: ReturnType<typeof tempDir>
let db: StoreConnection

const names = [
  '루이비통 네버풀 MM',
  '샤넬 클래식 플랩백',
  '구찌 마몽 숄더백',
  'Hermès Birkin 30',
  '프라다 리나일론 백팩',
  '샤넬 보이백',
  '에르메스 켈리 지갑',
]

beforeEach(() => {
  temp = tempDir()
  db = openStore(storeFileFor(temp.dir, 'sandbox')).db
  const items = names.map((productName, i) =>
    inspection(i + 1, {
      productName,
      refUserId: i % 2 === 0 ? 'kim01' : 'LEE_02',
      inspectionStatus: i === 3 ? null : i % 3 === 0 ? '배송완료' : '감정승인(배송중)',
      registeredAt: `2025-03-0${i + 1} 12:00:00`,
    }),
  )
  transaction(db, () => upsertInspections(db, items, 1, '2025-03-10T00:00:00Z'))
})
afterEach(() => {
  db.close()
  temp.remove()
})

const found = (q: string): string[] =>
  queryInspections(db, { q }).rows.map((row) => row.productName)

describe('text search over inspections', () => {
  it('initial consonants find the Korean name (ㄹㅇㅂㅌ → 루이비통)', () => {
    expect(found('ㄹㅇㅂㅌ')).toEqual(['루이비통 네버풀 MM'])
    expect(found('ㄹㅇ ㅂㅌ')).toEqual(['루이비통 네버풀 MM'])
    expect(found('ㅈㄱ')).toEqual(['에르메스 켈리 지갑'])
    expect(found('ㅍ')).toEqual([
      '프라다 리나일론 백팩',
      '샤넬 클래식 플랩백',
      '루이비통 네버풀 MM',
    ])
  })

  it('one and two syllables, which a trigram index alone misses, find their records', () => {
    expect(found('샤넬')).toEqual(['샤넬 보이백', '샤넬 클래식 플랩백'])
    expect(found('백')).toEqual([
      '샤넬 보이백',
      '프라다 리나일론 백팩',
      '구찌 마몽 숄더백',
      '샤넬 클래식 플랩백',
    ])
    expect(found('ㅅㄴ')).toEqual(['샤넬 보이백', '샤넬 클래식 플랩백'])
  })

  it('ignores spaces and case, and searches member ids, inspection numbers and ref codes', () => {
    expect(found('루이 비통')).toEqual(['루이비통 네버풀 MM'])
    expect(found('루이비')).toEqual(['루이비통 네버풀 MM'])
    expect(found('통 네버')).toEqual(['루이비통 네버풀 MM'])
    expect(found('네버풀 mm')).toEqual(['루이비통 네버풀 MM'])
    expect(found('플랩백')).toEqual(['샤넬 클래식 플랩백'])
    expect(found('랩')).toEqual(['샤넬 클래식 플랩백'])
    expect(found('hermès birkin')).toEqual(['Hermès Birkin 30'])
    expect(found('BIRKIN')).toEqual(['Hermès Birkin 30'])
    expect(found('lee_02')).toHaveLength(3)
    expect(found('100000000005')).toEqual(['프라다 리나일론 백팩'])
    expect(found('ORD-6-1')).toEqual(['샤넬 보이백'])
    expect(found('mm')).toEqual(['루이비통 네버풀 MM'])
    expect(found('birk')).toEqual(['Hermès Birkin 30'])
    expect(found('hermes')).toEqual(['Hermès Birkin 30'])
    expect(found('1000000000')).toHaveLength(names.length)
  })

  it('treats query text as text, never as search syntax', () => {
    // Records whose names hold search syntax as words (their order ids are not `ORD-…`).
    const syntax = [
      'Sale OR Gift',
      'a AND b tote',
      'Drop Table Bag',
      'Kelly 25 c : x',
      '50% off_price "quoted"',
      'plain',
    ]
    transaction(db, () =>
      upsertInspections(
        db,
        syntax.map((productName, i) =>
          inspection(101 + i, { productName, refOrderId: `X-${i}`, refOrderDetailId: `X-${i}-1` }),
        ),
        1,
        '2025-03-10T00:00:00Z',
      ),
    )
    const cases: [string, string[]][] = [
      // Operators are words: `OR` finds the name holding it and, as a prefix, the `ORD-…` order
      // ids of the other records; `a OR plain` is one phrase no record holds.
      ['OR', ['Sale OR Gift', ...names]],
      ['a AND b', ['a AND b tote']],
      ['a OR plain', []],
      ['-plain', ['plain']],
      ['(plain)', ['plain']],
      ['"quoted"', ['50% off_price "quoted"']],
      ['off_price', ['50% off_price "quoted"']],
      ['50%', ['50% off_price "quoted"']],
      ['c : x', ['Kelly 25 c : x']],
      ['drop table', ['Drop Table Bag']],
      ["'; DROP TABLE inspections; --", []],
      // Punctuation alone is no word: it finds nothing, never everything.
      ['"', []],
      ['*', []],
      ['%', []],
      ['_', []],
    ]
    for (const [q, expected] of cases) expect(found(q).sort(), q).toEqual(expected.sort())
    expect(queryInspections(db, {}).total).toBe(names.length + syntax.length)
  })

  it('a match never spans two fields', () => {
    // product name ends in "MM", the member id starts with "kim": "mmkim" is in neither.
    expect(found('mmkim')).toEqual([])
  })
})

describe('search finds what staff type', () => {
  it('digits match anywhere inside inspection numbers, order ids and idx', () => {
    transaction(db, () =>
      upsertInspections(
        db,
        [
          inspection(8123457, {
            productName: '디올 새들백',
            inspectionNum: '202411299990',
            refOrderId: 'ORD-77310045',
          }),
        ],
        1,
        '2025-03-10T00:00:00Z',
      ),
    )
    expect(found('2999')).toEqual(['디올 새들백'])
    expect(found('11299990')).toEqual(['디올 새들백'])
    expect(found('7310')).toEqual(['디올 새들백'])
    expect(found('3457')).toEqual(['디올 새들백'])
    expect(found('8123457')).toEqual(['디올 새들백'])
    expect(found('5555')).toEqual([])
    // A number's start still works as before.
    expect(found('2024112')).toEqual(['디올 새들백'])
  })

  it('an English brand name also finds products named with its Korean name, and back', () => {
    transaction(db, () =>
      replaceBrands(
        db,
        [
          { idx: 1, name: '샤넬', englishName: 'CHANEL ', raw: {} },
          { idx: 2, name: '에르메스', englishName: 'HERMÈS', raw: {} },
        ],
        1,
        '2025-03-10T00:00:00Z',
      ),
    )
    expect(found('chanel')).toEqual(['샤넬 보이백', '샤넬 클래식 플랩백'])
    expect(found('Chanel')).toEqual(['샤넬 보이백', '샤넬 클래식 플랩백'])
    expect(found('hermes')).toEqual(['에르메스 켈리 지갑', 'Hermès Birkin 30'])
    expect(found('에르메스')).toEqual(['에르메스 켈리 지갑', 'Hermès Birkin 30'])
    // Only an exact brand name is widened: a prefix stays a plain search.
    expect(found('chan')).toEqual([])
    expect(queryInspections(db, { q: 'chanel' }).total).toBe(2)
  })
})

describe('filters, counts and paging', () => {
  it('finds a member by the exact id, whatever its words share with other ids and names', () => {
    const members = ['kim01', 'Kim01', 'kim011', 'lee.j@shop.co.kr', '샤넬', '---', '12345678']
    transaction(db, () =>
      upsertInspections(
        db,
        members.map((refUserId, i) =>
          inspection(100 + i, {
            refUserId,
            productName: '구찌 마몽',
            registeredAt: '2025-04-01 12:00:00',
          }),
        ),
        1,
        'now',
      ),
    )
    for (const member of members) {
      const expected = (
        db
          .prepare(
            'SELECT idx FROM inspections WHERE ref_user_id = ? ORDER BY registered_at DESC, idx DESC',
          )
          .all(member) as { idx: number }[]
      ).map((row) => row.idx)
      const page = queryInspections(db, { member })
      expect(
        page.rows.map((row) => row.idx),
        member,
      ).toEqual(expected)
      expect(page.total, member).toBe(expected.length)
      // With text: only the member's rows that match it.
      const withText = db
        .prepare(
          "SELECT count(*) AS n FROM inspections WHERE ref_user_id = ? AND product_name LIKE '%구찌%'",
        )
        .get(member) as { n: number }
      expect(withText.n, member).toBeGreaterThan(0)
      expect(queryInspections(db, { member, q: '구찌' }).total, member).toBe(withText.n)
    }
    expect(queryInspections(db, { member: 'kim0' }).total).toBe(0)
  })

  it('filters by status label, "no status", member and date range, with counts per status', () => {
    const page = queryInspections(db, { member: 'kim01' })
    expect(page.total).toBe(4)
    expect(page.counts).toEqual(
      expect.arrayContaining([
        { status: '배송완료', count: 2 },
        { status: '감정승인(배송중)', count: 2 },
      ]),
    )
    expect(queryInspections(db, { status: null }).rows.map((r) => r.idx)).toEqual([4])
    expect(queryInspections(db, { status: '배송완료', member: 'kim01' }).total).toBe(2)
    expect(
      queryInspections(db, { from: '2025-03-02', to: '2025-03-03' }).rows.map((r) => r.idx),
    ).toEqual([3, 2])
    expect(queryInspections(db, { q: '샤넬', status: '감정승인(배송중)' }).counts).toEqual(
      expect.arrayContaining([{ status: '감정승인(배송중)', count: 2 }]),
    )
  })

  it('sorts latest or oldest and walks every record once through keyset cursors', () => {
    const seen: number[] = []
    let cursor: string | undefined
    do {
      const page = queryInspections(db, { sort: 'oldest', limit: 3, ...(cursor ? { cursor } : {}) })
      expect(page.total).toBe(7)
      seen.push(...page.rows.map((row) => row.idx))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(queryInspections(db, { limit: 2 }).rows.map((r) => r.idx)).toEqual([7, 6])
  })

  it('rejects a forged cursor and a malformed date with invalid_argument', () => {
    expect(() => queryInspections(db, { cursor: 'not-a-cursor' })).toThrow(/cursor/)
    expect(() => queryInspections(db, { from: '2025-13-45' })).toThrow(/YYYY-MM-DD/)
  })

  it('every answer says when the data was last synced, and why it may be stale', () => {
    expect(queryInspections(db, {}).freshness.lastSyncAt).toBeNull()
    transaction(db, () =>
      writeSyncState(db, 'inspections', {
        lastSuccessAt: '2025-03-10T00:00:00.000Z',
        status: 'offline',
        lastError: { code: 'network', message: "Can't reach partner API." },
      }),
    )
    const { freshness } = queryInspections(db, {})
    expect(freshness.lastSyncAt).toBe('2025-03-10T00:00:00.000Z')
    expect(freshness.staleBecause?.code).toBe('network')
  })

  it('keeps the raw item, unknown fields included: raw holds what the columns do not', () => {
    const row = db.prepare('SELECT * FROM inspections WHERE idx = 1').get() as Record<
      string,
      unknown
    >
    expect(JSON.parse(String(row['raw']))).toEqual({ raw: { extraField: 'kept' } })
    expect(expandRecord(RECORD_TABLES.inspections, row)).toEqual({
      ...inspection(1, {
        productName: names[0]!,
        refUserId: 'kim01',
        inspectionStatus: '배송완료',
        registeredAt: '2025-03-01 12:00:00',
      }),
      inspectionResult: null,
      warnings: [],
    })
  })
})

describe('guarantees', () => {
  it('filters guarantees by the API state and maps labels back to states', () => {
    transaction(db, () =>
      upsertGuarantees(
        db,
        [guarantee(1), guarantee(2, { status: '발급취소' }), guarantee(3, { status: '새 상태' })],
        1,
        'now',
      ),
    )
    const complete = queryGuarantees(db, { state: 'complete' })
    expect(complete.rows.map((r) => [r.idx, r.state])).toEqual([[1, 'complete']])
    const all = queryGuarantees(db, {})
    expect(all.total).toBe(3)
    expect(all.rows.find((r) => r.idx === 3)?.state).toBeNull()
  })
})

describe('where a list shows a record (records.locate)', () => {
  it('answers its registration time and number, and null when the list does not show it', () => {
    transaction(db, () =>
      upsertGuarantees(
        db,
        [guarantee(7, { registeredAt: '2024-05-06 09:10:11' }), guarantee(8)],
        1,
        'now',
      ),
    )
    expect(locateRecord(db, { resource: 'inspections', idx: 2 })).toEqual({
      resource: 'inspections',
      idx: 2,
      registeredAt: '2025-03-02 12:00:00',
      inspectionNum: '100000000002',
    })
    expect(locateRecord(db, { resource: 'guarantees', idx: 7 })).toEqual({
      resource: 'guarantees',
      idx: 7,
      registeredAt: '2024-05-06 09:10:11',
      inspectionNum: null,
    })
    // Never stored, or stored under the other list.
    expect(locateRecord(db, { resource: 'guarantees', idx: 2 })).toBeNull()
    expect(locateRecord(db, { resource: 'inspections', idx: 99 })).toBeNull()
    // Gone from the service: stored, but no list shows it.
    db.prepare(`UPDATE guarantees SET gone_at = 'now' WHERE idx = 8`).run()
    expect(queryGuarantees(db, {}).rows.map((r) => r.idx)).toEqual([7])
    expect(locateRecord(db, { resource: 'guarantees', idx: 8 })).toBeNull()
  })
})

describe('every idx of a filter (a bulk action on all its rows)', () => {
  it('lists the rows the list pages show, in their order, past one read of idxs', () => {
    const statuses = ['배송완료', '감정접수', null] as const
    const many = Array.from({ length: 5_300 }, (_, i) =>
      inspection(100 + i, {
        productName: i % 4 === 0 ? '샤넬 보이백' : '구찌 마몽',
        inspectionStatus: statuses[i % 3]!,
        // Registration times out of idx order, many equal: the cursor keys on (time, idx).
        registeredAt: `2025-04-${String((i % 27) + 1).padStart(2, '0')} 0${i % 3}:00:00`,
      }),
    )
    transaction(db, () => upsertInspections(db, many, 2, '2025-04-30T00:00:00Z'))
    const marked = many.filter((_, i) => i % 5 === 0).map((item) => item.idx)
    transaction(db, () =>
      setReviews(db, {
        resource: 'inspections',
        idxs: marked,
        mark: 'follow_up',
        by: null,
        at: 'x',
        clientTime: 'y',
      }),
    )
    const paged = (filter: ListRequest): number[] => {
      const idxs: number[] = []
      let cursor: string | undefined
      do {
        const page = queryInspections(db, { ...filter, limit: 500, ...(cursor ? { cursor } : {}) })
        idxs.push(...page.rows.map((row) => row.idx))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      return idxs
    }
    const filters: ListRequest[] = [
      {},
      { sort: 'oldest' },
      { status: '감정접수' },
      { q: '샤넬' },
      { review: 'follow_up' },
      { review: 'none', sort: 'oldest' },
      { from: '2025-04-03', to: '2025-04-20' },
      { sort: 'aged' },
    ]
    for (const filter of filters) {
      const expected = paged(filter)
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0)
      expect(listIdxs(db, 'inspections', filter), JSON.stringify(filter)).toEqual(expected)
    }
    expect(listIdxs(db, 'inspections', {})).toHaveLength(5_300 + names.length)
  })
})
