import { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  advanceCellIndexes,
  buildCellIndexes,
  matchCells,
} from '../../../src/core/store/search/cell-index'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { explainList, queryInspections } from '../../../src/core/store/queries/list-queries'
import type { ListRequest } from '../../../src/core/store/queries/list-sql'
import { setReview } from '../../../src/core/store/queries/reviews'
import { bumpDataVersion } from '../../../src/core/store/data-version'
import { markUnseenGone } from '../../../src/core/store/write/writes'
import { upsertInspections } from '../../support/store-writes'
import type { ReviewMarkName } from '../../../src/shared/lists'
import { inspection, tempDir } from './fixtures'

/**
 * The in-memory cells must give a text search the same counts as SQL. A
 * second connection to the same file has no index (it counts with SQL), so
 * both answer every query over the same data.
 */

const NAMES = ['루이비통 네버풀', '샤넬 보이백', '구찌 마몽', '샤넬 클래식', '프라다 백팩']
const STATUSES = ['배송완료', '감정접수', '감정승인(배송중)', null] as const
const MARKS: ReviewMarkName[] = ['reviewed', 'follow_up', 'none']
const QUERIES: ListRequest[] = [
  { q: '샤넬' },
  { q: '샤넬', sort: 'oldest' },
  { q: '샤넬', status: null },
  { q: '루이비통', review: 'reviewed', sort: 'oldest' },
  { q: '루이비통' },
  { q: 'ㅅㄴ' },
  { q: '샤넬', status: '배송완료' },
  { q: '샤넬', review: 'follow_up' },
  { q: '백', review: 'none' },
  { q: '상품' },
]

let temp: ReturnType<typeof tempDir>
let db: StoreConnection
let plain: StoreConnection
let seed = 7

function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
}

/** Registered a minute apart in idx order, as the service numbers records. */
function registeredAt(idx: number): string {
  return new Date(Date.UTC(2025, 0, 1) + idx * 60_000).toISOString().slice(0, 19).replace('T', ' ')
}

function record(idx: number): ReturnType<typeof inspection> {
  return inspection(idx, {
    productName: NAMES[random(NAMES.length)]!,
    inspectionStatus: STATUSES[random(STATUSES.length)]!,
    registeredAt: registeredAt(idx),
  })
}

function write(idxs: number[], pass = 1): void {
  transaction(db, () =>
    upsertInspections(
      db,
      idxs.map((idx) => record(idx)),
      pass,
      '2025-03-10T00:00:00Z',
    ),
  )
}

/** Writes `records` in a transaction that then fails, so it is rolled back. */
function writeRolledBack(records: readonly ReturnType<typeof inspection>[]): void {
  expect(() =>
    transaction(db, () => {
      upsertInspections(db, records, 3, 'now')
      throw new Error('the page failed')
    }),
  ).toThrow()
}

function mark(idx: number): void {
  transaction(db, () =>
    setReview(db, {
      resource: 'inspections',
      idx,
      mark: MARKS[random(MARKS.length)]!,
      by: null,
      at: '2025-03-10 10:00:00',
    }),
  )
}

/** Every page of a query (7 rows each, through its cursors): the idx of its rows. */
function allPages(d: StoreConnection, query: ListRequest): number[][] {
  const pages: number[][] = []
  let cursor: string | undefined
  do {
    const page = queryInspections(d, { ...query, limit: 7, cursor })
    pages.push(page.rows.map((row) => row.idx))
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return pages
}

/** Every query's pages, total and counts, from `d` (its cached counts set aside: the other connection wrote). */
function answers(d: StoreConnection): unknown[] {
  bumpDataVersion(d)
  return QUERIES.map((query) => {
    const page = queryInspections(d, query)
    const { total, counts, reviewCounts } = page
    return { query, total, counts, reviewCounts, pages: allPages(d, query) }
  })
}

/** True when the indexed connection answers from its cells (not SQL). */
function indexed(): boolean {
  return matchCells(db, 'inspections', '') !== null
}

beforeEach(() => {
  temp = tempDir()
  const file = storeFileFor(temp.dir, 'sandbox')
  db = openStore(file).db
  plain = new StoreConnection(file)
  write(Array.from({ length: 300 }, (_, i) => i + 1))
  for (let i = 0; i < 40; i += 1) mark(random(300) + 1)
})
afterEach(() => {
  plain.close()
  db.close()
  temp.remove()
})

describe('cell index', () => {
  it('pages and counts a text search as SQL does once built', () => {
    buildCellIndexes(db)
    expect(indexed()).toBe(true)
    expect(explainList(db, 'inspections', { q: '샤넬', status: '배송완료' }).driver).toBe('cells')
    expect(explainList(plain, 'inspections', { q: '샤넬', status: '배송완료' }).driver).toBe('text')
    expect(answers(db)).toEqual(answers(plain))
  })

  it('stays right through new, changed, gone and marked records', () => {
    buildCellIndexes(db)
    for (let round = 0; round < 6; round += 1) {
      // Re-written records get another random status; new ones are appended.
      write(
        Array.from({ length: 40 }, () => random(360) + 1),
        2,
      )
      for (let i = 0; i < 10; i += 1) mark(random(300) + 1)
      expect(answers(db)).toEqual(answers(plain))
      expect(indexed()).toBe(true)
    }
    // Records not seen in pass 2 go.
    transaction(db, () => markUnseenGone(db, 'inspections', 2, '2025-03-11 00:00:00'))
    expect(answers(db)).toEqual(answers(plain))
    expect(indexed()).toBe(true)
  })

  it('holds an idx past 32 bits, whether it was there before the build or came after', () => {
    const big = (idx: number): ReturnType<typeof inspection> =>
      inspection(idx, {
        productName: '샤넬 보이백',
        inspectionStatus: '배송완료',
        registeredAt: '2025-06-01 10:00:00',
      })
    const writeBig = (idxs: number[]): void =>
      transaction(db, () => upsertInspections(db, idxs.map(big), 1, '2025-03-10T00:00:00Z'))
    // Built with one already stored: the build widens its array at that row.
    writeBig([2 ** 32 + 7])
    buildCellIndexes(db)
    expect(indexed()).toBe(true)
    expect(answers(db)).toEqual(answers(plain))
    // Added after the build: merged into the sorted arrays.
    writeBig([2 ** 33, 2 ** 40 + 3])
    write(Array.from({ length: 20 }, (_, i) => i + 301))
    expect(answers(db)).toEqual(answers(plain))
    expect(indexed()).toBe(true)
  })

  it('widens its arrays when a merge brings in a record past 32 bits', () => {
    buildCellIndexes(db)
    // More new records than it keeps aside (50,000), one of them past 32 bits and the latest.
    const added = Array.from({ length: 50_100 }, (_, i) => 1000 + i)
    for (let i = 0; i < added.length; i += 5000) write(added.slice(i, i + 5000), 2)
    const far = inspection(2 ** 35, {
      productName: '샤넬 보이백',
      inspectionStatus: '배송완료',
      registeredAt: '2030-01-01 10:00:00',
    })
    transaction(db, () => upsertInspections(db, [far], 2, '2025-03-10T00:00:00Z'))
    // Caught up at once (the owner does it in idle steps).
    buildCellIndexes(db)
    expect(indexed()).toBe(true)
    for (const query of [{ q: '샤넬' }, { q: '샤넬', status: '배송완료' }] as const) {
      bumpDataVersion(db)
      bumpDataVersion(plain)
      const page = queryInspections(db, { ...query, limit: 5 })
      expect(page.rows[0]?.idx).toBe(2 ** 35)
      expect(page).toEqual(queryInspections(plain, { ...query, limit: 5 }))
    }
  })

  it('counts a gone record again when it comes back unchanged', () => {
    const same = Array.from({ length: 30 }, (_, i) =>
      inspection(i + 1, {
        productName: '샤넬 보이백',
        inspectionStatus: '배송완료',
        registeredAt: registeredAt(i + 1),
      }),
    )
    const writeSame = (pass: number): void =>
      transaction(db, () => upsertInspections(db, same, pass, '2025-03-10T00:00:00Z'))
    writeSame(2)
    buildCellIndexes(db)
    // Every other record is seen in pass 3; the 30 go, then come back exactly as they were.
    write(
      Array.from({ length: 270 }, (_, i) => i + 31),
      3,
    )
    transaction(db, () => markUnseenGone(db, 'inspections', 3, '2025-03-11 00:00:00'))
    expect(answers(db)).toEqual(answers(plain))
    writeSame(4)
    expect(answers(db)).toEqual(answers(plain))
    expect(indexed()).toBe(true)
  })

  it('is built in steps while records are written, and ends up right', () => {
    let steps = 0
    while (advanceCellIndexes(db, 0)) {
      steps += 1
      if (steps % 3 === 0) write([random(400) + 1])
      if (steps > 10_000) throw new Error('the build never ends')
    }
    expect(indexed()).toBe(true)
    expect(answers(db)).toEqual(answers(plain))
  })

  it('stays right when the records added since the build are merged into its arrays', () => {
    buildCellIndexes(db)
    // More new records than it keeps aside (50,000), and half the old ones gone.
    const added = Array.from({ length: 50_100 }, (_, i) => 1000 + i)
    for (let i = 0; i < added.length; i += 5000) write(added.slice(i, i + 5000), 2)
    write(
      Array.from({ length: 150 }, (_, i) => 2 * i + 1),
      2,
    )
    transaction(db, () => markUnseenGone(db, 'inspections', 2, '2025-03-11 00:00:00'))
    buildCellIndexes(db)
    expect(indexed()).toBe(true)
    const firstPages = (d: StoreConnection) => {
      bumpDataVersion(d)
      return QUERIES.map((query) => {
        const { rows, total, counts, reviewCounts } = queryInspections(d, { ...query, limit: 20 })
        return { rows: rows.map((row) => row.idx), total, counts, reviewCounts }
      })
    }
    expect(firstPages(db)).toEqual(firstPages(plain))
    expect(explainList(db, 'inspections', { q: '샤넬' }).driver).toBe('cells')
  })

  it('takes the cells of the records a page inserts as written, without reading them again', () => {
    buildCellIndexes(db)
    // More than the 2,000 records a query lets the index read again first: read back one by
    // one, the index would answer nothing until idle time caught up.
    write(
      Array.from({ length: 2500 }, (_, i) => 1000 + i),
      2,
    )
    expect(indexed()).toBe(true)
    expect(answers(db)).toEqual(answers(plain))
    expect(explainList(db, 'inspections', { q: '샤넬' }).driver).toBe('cells')
  })

  it('takes none from inserts rolled back', () => {
    buildCellIndexes(db)
    writeRolledBack(Array.from({ length: 2500 }, (_, i) => record(5000 + i)))
    expect(indexed()).toBe(true)
    expect(answers(db)).toEqual(answers(plain))
  })

  it('ignores a rolled-back write', () => {
    buildCellIndexes(db)
    writeRolledBack([inspection(5, { productName: '샤넬 새것', inspectionStatus: '감정접수' })])
    expect(answers(db)).toEqual(answers(plain))
  })

  it('drops itself when the data changed behind the writers, and counts with SQL meanwhile', () => {
    buildCellIndexes(db)
    // Another connection changes statuses (its triggers keep the stored counts): not touched.
    plain.exec(`UPDATE inspections SET status = '감정접수' WHERE idx % 7 = 0`)
    expect(indexed()).toBe(false)
    expect(answers(db)).toEqual(answers(plain))
    buildCellIndexes(db)
    expect(indexed()).toBe(true)
    expect(answers(db)).toEqual(answers(plain))
  })

  it('picks the same pages from matches in any order as in ascending order, from every cursor', () => {
    buildCellIndexes(db)
    const all = Array.from({ length: 300 }, (_, i) => i + 1).filter((idx) => idx % 3 !== 0)
    const shuffled = [...all].sort(() => random(3) - 1)
    expect(shuffled).not.toEqual(all)
    const reviewed = (cell: { mark: string }) => cell.mark === 'reviewed'
    for (const descending of [true, false]) {
      for (const accept of [() => true, reviewed]) {
        // Cursors: none, one matched, one not matched (a multiple of 3), past either end.
        for (const cursor of [null, 151, 150, 0, 400]) {
          const pick = { accept, cursor, descending, limit: 9 }
          const sorted = matchCells(db, 'inspections', all.join(','), pick)
          const any = matchCells(db, 'inspections', shuffled.join(','), pick)
          expect(any).toEqual(sorted)
          // The reference: filter, sort in the page's direction, cut.
          const cells = new Map(
            queryInspections(plain, { limit: 300 }).rows.map((row) => [row.idx, row]),
          )
          const expected = all
            .filter((idx) => cursor === null || (descending ? idx < cursor : idx > cursor))
            .filter((idx) => accept({ mark: cells.get(idx)?.review?.mark ?? 'none' }))
            .sort((a, b) => (descending ? b - a : a - b))
            .slice(0, 9)
          expect(sorted?.page).toEqual(expected)
        }
      }
    }
  })
})
