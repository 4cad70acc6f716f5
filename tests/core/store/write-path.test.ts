import type { StoreConnection } from '../../../src/core/store/connection'
import { beforeEach, describe, expect, it } from 'vitest'
import { transaction } from '../../../src/core/store/schema/database'
import { applyPageWrite } from '../../../src/core/store/write/writes'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import { ftsText, searchDocument } from '../../../src/core/store/search/search-text'
import { upsertInspections } from '../../support/store-writes'
import { inspection, storePerTest } from './fixtures'

/**
 * The write path's search rows: inside a transaction they are written at
 * its end, in ascending rowid order over all its pages (one FTS segment per
 * commit), with the same result as writing them at once.
 */

const store = storePerTest()
let db: StoreConnection
beforeEach(() => {
  db = store.db
})

/** The idx a text search lists, ascending. */
function found(q: string): number[] {
  return queryInspections(db, { q, limit: 500 })
    .rows.map((row) => row.idx)
    .sort((a, b) => a - b)
}

/** Segments of the inspections' FTS index. */
function segments(): number {
  return (
    db.prepare('SELECT count(DISTINCT segid) AS n FROM inspections_fts_idx').get() as { n: number }
  ).n
}

/** FTS rows of the inspections (one docsize row each). */
function ftsRows(): number {
  return (db.prepare('SELECT count(*) AS n FROM inspections_fts_docsize').get() as { n: number }).n
}

function pageOf(from: number, to: number, names: Record<number, string> = {}) {
  const items = []
  for (let idx = from; idx <= to; idx += 1) {
    items.push(inspection(idx, names[idx] === undefined ? {} : { productName: names[idx] }))
  }
  return { resource: 'inspections' as const, items, pass: 1, at: '2026-01-01T00:00:00Z' }
}

describe('search rows of a transaction', () => {
  it('pages written newest first in one transaction make one FTS segment, all found', () => {
    transaction(db, () => {
      for (const [from, to] of [
        [201, 300],
        [101, 200],
        [1, 100],
      ] as const) {
        applyPageWrite(db, pageOf(from, to))
      }
    })
    // Page by page, each page's lower rowids made FTS5 flush the one before: three segments.
    expect(segments()).toBe(1)
    expect(ftsRows()).toBe(300)
    for (const idx of [1, 100, 101, 250, 300]) expect(found(`ORD-${idx}-1`)).toEqual([idx])
    db.exec("INSERT INTO inspections_fts (inspections_fts, rank) VALUES ('integrity-check', 0)")
  })

  it('a record written twice keeps its last text; a stored one loses its old text', () => {
    transaction(db, () => applyPageWrite(db, pageOf(5, 5, { 5: '구찌 마몬트' })))
    expect(found('구찌')).toEqual([5])
    transaction(db, () => {
      // Newest first: the new record 500, then the stored record 5, each twice.
      applyPageWrite(db, pageOf(500, 500, { 500: '에르메스 켈리' }))
      applyPageWrite(db, pageOf(5, 5, { 5: '샤넬 클래식' }))
      applyPageWrite(db, pageOf(500, 500, { 500: '프라다 갤러리아' }))
      applyPageWrite(db, pageOf(5, 5, { 5: '디올 새들' }))
    })
    expect(found('구찌')).toEqual([])
    expect(found('샤넬')).toEqual([])
    expect(found('에르메스')).toEqual([])
    expect(found('디올')).toEqual([5])
    expect(found('프라다')).toEqual([500])
    expect(ftsRows()).toBe(2)
    db.exec("INSERT INTO inspections_fts (inspections_fts, rank) VALUES ('integrity-check', 0)")
  })

  it('a failed transaction writes no search row and leaves none for the next one', () => {
    expect(() =>
      transaction(db, () => {
        applyPageWrite(db, pageOf(10, 12, { 11: '루이비통 스피디' }))
        throw new Error('the page after failed')
      }),
    ).toThrow()
    expect(ftsRows()).toBe(0)
    expect(found('루이비통')).toEqual([])
    transaction(db, () => applyPageWrite(db, pageOf(7, 7, { 7: '루이비통 알마' })))
    expect(ftsRows()).toBe(1)
    expect(found('루이비통')).toEqual([7])
  })

  it('outside transaction() the rows are written at once', () => {
    db.exec('BEGIN')
    upsertInspections(db, [inspection(3, { productName: '셀린느 트리옴프' })], 1, 'now')
    expect(found('셀린느')).toEqual([3])
    db.exec('COMMIT')
    expect(found('셀린느')).toEqual([3])
  })
})

describe('the search document of odd fields (one-pass builders)', () => {
  it('matches what segmenting gave: whitespace, case, digit runs, empty fields', () => {
    const cases: [string[], string][] = [
      [[' \tORD-2024 1129\n', 'B0056'], 'ord-2024 1129  ǂ b0056 ǀ202 ǀ024 ǀ112 ǀ129 ǀ005 ǀ056'],
      [
        ['루이비통 BAG  30', 'Ab1234x56789'],
        '루이 이비 비통 통 bag  30 ǂ ab1234x56789 ǀ123 ǀ234 ǀ567 ǀ678 ǀ789 ㄹㅇㅂ ㅇㅂㅌ ㅂㅌ ㅌ',
      ],
      [['  ', 'x'], ' ǂ x'],
      // No trigram between words and initials: the field break stands there.
      [['루이비통', 'AB'], '루이 이비 비통 통 ǂ ab ǂ ㄹㅇㅂ ㅇㅂㅌ ㅂㅌ ㅌ'],
      [
        ['HERMÈS Birkin 30', '20241129123456-2', '20241129123456'],
        'hermes birkin 30 ǂ 20241129123456-2 ǀ202 ǀ024 ǀ241 ǀ411 ǀ112 ǀ129 ǀ291 ǀ912 ǀ123 ǀ234 ǀ345 ǀ456',
      ],
    ]
    for (const [fields, text] of cases) expect(ftsText(searchDocument(fields))).toBe(text)
  })

  it('a run of 100,000 digits is indexed whole (its trigrams built in bounded chunks)', () => {
    const d = searchDocument(['1'.repeat(100_000)]).d
    expect(d.length).toBe(99_998 * 5 - 1)
    expect(d.startsWith('ǀ111 ǀ111')).toBe(true)
  })
})
