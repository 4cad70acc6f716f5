import type { StoreConnection } from '../../../src/core/store/connection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInspection } from '../../../src/core/api/read-records'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import type { InspectionRecord } from '../../../src/core/store/record-types'
import {
  isShortQuery,
  planSearch,
  ftsText,
  searchDocument,
  shortQueryPlan,
} from '../../../src/core/store/search/search-text'
import { RECORD_TABLES } from '../../../src/core/store/schema/stored-raw'
import { upsertInspections } from '../../support/store-writes'
import { choseongOf } from '../../../src/core/text/hangul-search'
import { createMatcher } from '../../support/matcher'
import { Dataset } from '../../../src/sandbox/dataset'
import { inspection, tempDir } from './fixtures'
import { SANDBOX_ANCHOR } from '../../support/anchor'

/**
 * Digits as trigrams (column `d`) and 초성 as triples (column `c`): what is
 * indexed, how each query shape finds it, and, over a generated store, that
 * the FTS plans find exactly what the naive matcher (`createMatcher`) finds.
 */

/** The rowids an FTS expression matches, ascending. */
function ftsMatches(db: StoreConnection, match: string): number[] {
  return (
    db
      .prepare('SELECT rowid FROM inspections_fts WHERE inspections_fts MATCH ? ORDER BY rowid')
      .all(match) as { rowid: number }[]
  ).map((row) => row.rowid)
}

/** The idx a list query answers, ascending. */
function listed(db: StoreConnection, q: string): number[] {
  return queryInspections(db, { q, limit: 500 })
    .rows.map((row) => row.idx)
    .sort((a, b) => a - b)
}

describe('the indexed document', () => {
  it('indexes each digit run as trigrams, once, runs inside other runs left out', () => {
    const doc = searchDocument([
      '202411299990',
      '20241129123456',
      '20241129123456-2',
      'BAG-083-0105',
      '12',
      '083',
    ])
    // Marked (`ǀ`): a trigram is never the whole number `083` of the text. No break between
    // runs: none starts with the two digits the run before it ends with.
    expect(doc.d).toBe(
      [
        '202 024 241 411 112 129 299 999 999 990',
        '202 024 241 411 112 129 291 912 123 234 345 456',
        '083',
        '010 105',
      ]
        .map((run) => run.replace(/\d+/gu, 'ǀ$&'))
        .join(' '),
    )
    // One FTS column: words, then digits, then initials (none here); the trigrams are marked,
    // so no field break stands between the kinds.
    expect(doc.c).toBe('')
    expect(ftsText(doc)).toBe(`${doc.t} ${doc.d}`)
    // The whole numbers stay words of the text; their suffixes are no longer terms.
    expect(doc.t.split(' ')).toContain('202411299990')
    expect(doc.t.split(' ')).not.toContain('99990')
  })

  it('breaks two digit runs only where the second starts with the last two digits of the first', () => {
    expect(searchDocument(['5512', '1234', '3456', '777']).d).toBe(
      'ǀ551 ǀ512 ǂ ǀ123 ǀ234 ǂ ǀ345 ǀ456 ǀ777',
    )
  })

  it('an ASCII field whose words are a stretch of another field adds no words of its own', () => {
    const t = (fields: string[]): string => searchDocument(fields).t
    expect(t(['20241129123456', '20241129123456-2', 'BAG-083-0105', 'bag'])).toBe(
      '20241129123456-2 ǂ bag-083-0105',
    )
    // Of two equal fields the first stays; a part of a word or a non-ASCII field stays.
    expect(t(['B0056', 'b0056', 'b005', '샤넬', '샤넬 백'])).toBe(
      'b0056 ǂ b005 ǂ 샤넬 넬 ǂ 샤넬 넬백 백',
    )
  })

  it('indexes initials as triples per field, then the last pair and the last initial', () => {
    // A phrase of triples never runs on into the next field: a pair and an initial end each one.
    expect(searchDocument(['루이비통', '샤넬', '백', 'MM']).c).toBe(
      'ㄹㅇㅂ ㅇㅂㅌ ㅂㅌ ㅌ ㅅㄴ ㄴ ㅂ',
    )
    expect(searchDocument(['12345']).c).toBe('')
    expect(searchDocument(['Birkin 30']).d).toBe('')
  })

  it("gives each record its own digit runs, none of the record before's", () => {
    expect(searchDocument(['주문 20241129', 'A-777']).d).toBe('ǀ202 ǀ024 ǀ241 ǀ411 ǀ112 ǀ129 ǀ777')
    expect(searchDocument(['샤넬 백', 'B-12']).d).toBe('')
    expect(searchDocument(['A-777']).d).toBe('ǀ777')
  })

  it('keeps every character of a long field; a lone surrogate splits a word, as a query drops it', () => {
    // Longer than the builders' first buffer (256 units): they grow and keep what they held.
    const long = '가'.repeat(300)
    const doc = searchDocument([long, `a\ud800b ${'1'.repeat(200)}`])
    expect(doc.t).toBe(`${'가가 '.repeat(299)}가 ǂ a b ${'1'.repeat(200)}`)
    expect(doc.c).toBe(`${'ㄱㄱㄱ '.repeat(298)}ㄱㄱ ㄱ`)
    expect(doc.d).toBe(Array.from({ length: 198 }, () => 'ǀ111').join(' '))
  })
})

describe('words outside ASCII', () => {
  it('split on every character that is neither a letter nor a digit, letters of any script kept', () => {
    // The FTS tables tokenize with `ascii`, which splits only ASCII: the text is split here.
    expect(searchDocument(['x·y™z', 'αβγ–δ', '𝐀𝐁 ｱｲ']).t).toBe('x y z ǂ αβγ δ ǂ 𝐀𝐁 ｱｲ')
    expect(searchDocument(['디올·레이디']).t).toBe('디올 올   레이 이디 디')
    expect(planSearch('x·y')).toEqual({ kind: 'match', match: '"x y" *' })
  })

  it('are found as their query splits them', () => {
    const temp = tempDir()
    const { db } = openStore(storeFileFor(temp.dir, 'sandbox'))
    try {
      transaction(db, () =>
        upsertInspections(
          db,
          [inspection(1, { productName: '디올·레이디 백™ Café–Noir' })],
          1,
          'now',
        ),
      )
      for (const q of ['디올·레이디', '레이디', '백', 'cafe noir', 'noir', 'café–n']) {
        expect(listed(db, q)).toEqual([1])
      }
      // The dot ends a run of syllables, as it does in the query: no pair spans it.
      expect(listed(db, '올레')).toEqual([])
      expect(listed(db, '디올 레이디')).toEqual([])
    } finally {
      db.close()
      temp.remove()
    }
  })
})

describe('query plans', () => {
  it('a query of digits is a phrase of trigrams (spaces ignored), short digits every trigram holding them', () => {
    expect(planSearch('2999')).toEqual({ kind: 'match', match: '"ǀ299 ǀ999"' })
    expect(planSearch(' 2024 1129 ')).toEqual({
      kind: 'match',
      match: '"ǀ202 ǀ024 ǀ241 ǀ411 ǀ112 ǀ129"',
    })
    expect(planSearch('230')).toEqual({ kind: 'match', match: '"ǀ230"' })
    const two = planSearch('29')
    expect(two.kind === 'match' && two.match.startsWith('"29" OR ("ǀ029" OR ')).toBe(true)
    expect(two.kind === 'match' && two.match.match(/"ǀ\d{3}"/gu)?.length).toBe(20)
    const one = planSearch('7')
    expect(one.kind === 'match' && one.match.match(/"ǀ\d{3}"/gu)?.length).toBe(271)
    // Letters and digits together stay words of the text.
    expect(planSearch('BAG-083')).toEqual({ kind: 'match', match: '"bag 083" *' })
  })

  it('초성: one or two initials a prefix, three a triple, more a phrase of triples', () => {
    expect(planSearch('ㅂ')).toEqual({ kind: 'match', match: '"ㅂ" *' })
    expect(planSearch('ㄹㅇ')).toEqual({ kind: 'match', match: '"ㄹㅇ" *' })
    expect(planSearch('ㄹㅇㅂ')).toEqual({ kind: 'match', match: '"ㄹㅇㅂ"' })
    expect(planSearch('ㄹㅇ ㅂㅌ')).toEqual({ kind: 'match', match: '"ㄹㅇㅂ ㅇㅂㅌ"' })
  })

  it('short queries: one character, two initials, one or two digits', () => {
    for (const q of ['ㅂ', '백', 'a', '7', 'ㄹㅇ', 'ㄹ ㅇ', '29'])
      expect(isShortQuery(q)).toBe(true)
    for (const q of ['ㄹㅇㅂ', '샤넬', '299', 'ab', '2a']) expect(isShortQuery(q)).toBe(false)
    const none = (): string[] => []
    // Two initials: the pair and the 19 triples it starts, 1 + 19 + 361 grams for one.
    const two = shortQueryPlan('ㄹㅇ', none)
    expect(two?.kind === 'match' && two.match.split(' OR ').length).toBe(20)
    const one = shortQueryPlan('ㅂ', none)
    expect(one?.kind === 'match' && one.match.split(' OR ').length).toBe(381)
    expect(shortQueryPlan('29', none)).toBeNull()
    expect(shortQueryPlan('ㄹㅇㅂ', none)).toBeNull()
  })
})

describe('search over a small store', () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection

  beforeAll(() => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    const records = [
      inspection(1, {
        productName: '루이비통 네버풀 MM',
        inspectionNum: '202411299990',
        refOrderId: '20241129123456',
        refOrderDetailId: '20241129123456-2',
        refProductCode: 'BAG-083-0105',
      }),
      inspection(2, {
        productName: '샤넬 클래식 플랩백 230',
        inspectionNum: '555000111',
        refOrderId: '777',
        refOrderDetailId: '777-1',
        refProductCode: 'SHO-120-0230',
      }),
      inspection(3, {
        productName: '구찌 마몽 숄더백',
        inspectionNum: '5512',
        refOrderId: '1234',
        refOrderDetailId: '1234-1',
        refProductCode: 'WLT-010-0101',
      }),
      inspection(4, {
        productName: 'Hermès Birkin 30',
        inspectionNum: '900000000004',
        refOrderId: '800000000004',
        refOrderDetailId: '800000000004-1',
        refProductCode: 'WLT-010-0101',
      }),
    ]
    transaction(db, () => upsertInspections(db, records, 1, 'now'))
  })
  afterAll(() => {
    db.close()
    temp.remove()
  })

  it('finds digits at the start, in the middle and at the end of a number', () => {
    expect(listed(db, '2024112')).toEqual([1])
    expect(listed(db, '2999')).toEqual([1])
    expect(listed(db, '9990')).toEqual([1])
    expect(listed(db, '202411299990')).toEqual([1])
    expect(listed(db, '0000000004')).toEqual([4])
    expect(listed(db, '2024 1129 9')).toEqual([1])
  })

  it('never matches across two numbers of a record', () => {
    // Record 3 holds 5512 and 1234: next to each other, `512 123` would be a phrase.
    expect(listed(db, '5123')).toEqual([])
    expect(listed(db, '55121234')).toEqual([])
    expect(listed(db, '3456')).toEqual([1])
    expect(listed(db, '123')).toEqual([1, 3])
    expect(listed(db, '5512')).toEqual([3])
    // Record 2 holds 555000111 and 777 with no break between them: no phrase runs on either.
    expect(listed(db, '111777')).toEqual([])
    expect(listed(db, '1117')).toEqual([])
  })

  it('never matches words of two fields, an order id kept only inside its detail id included', () => {
    expect(listed(db, '20241129123456')).toEqual([1])
    expect(listed(db, '20241129123456-')).toEqual([1])
    expect(listed(db, '2 bag')).toEqual([])
    expect(listed(db, '777-1')).toEqual([2])
    expect(listed(db, '777-')).toEqual([2])
    expect(listed(db, '1 sho')).toEqual([])
    expect(listed(db, 'mm 202411299990')).toEqual([])
    expect(listed(db, '30 900000000004')).toEqual([])
  })

  it('one, two and three digits', () => {
    expect(listed(db, '7')).toEqual([2])
    // `30` inside 0230 and 230, and the whole word 30 of `Birkin 30`.
    expect(listed(db, '30')).toEqual([2, 4])
    expect(listed(db, '29')).toEqual([1])
    expect(listed(db, '230')).toEqual([2])
    expect(queryInspections(db, { q: '30' }).total).toBe(2)
  })

  it('words with letters and digits, and order ids, as before', () => {
    expect(listed(db, 'BAG-083')).toEqual([1])
    expect(listed(db, 'sho-120-02')).toEqual([2])
    expect(listed(db, '20241129123456-2')).toEqual([1])
    expect(listed(db, 'birkin 30')).toEqual([4])
    expect(listed(db, 'hermes')).toEqual([4])
  })

  it('초성 of 1, 2, 3, 4 and 6 initials, inside and at the end of a field', () => {
    expect(listed(db, 'ㅍ')).toEqual([1, 2])
    expect(listed(db, 'ㅉ')).toEqual([3])
    expect(listed(db, 'ㅂㅌ')).toEqual([1])
    expect(listed(db, 'ㄷㅂ')).toEqual([3])
    expect(listed(db, 'ㄹㅂ')).toEqual([2])
    expect(listed(db, 'ㄹㅇㅂ')).toEqual([1])
    expect(listed(db, 'ㄴㅂㅍ')).toEqual([1])
    expect(listed(db, 'ㄹㅇㅂㅌ')).toEqual([1])
    expect(listed(db, 'ㄹㅇㅂㅌㄴㅂ')).toEqual([1])
    expect(listed(db, 'ㅅㄴ ㅋㄹ ㅅㅍ')).toEqual([2])
    expect(listed(db, 'ㄹㅇㅂㅌㄴㅂㅍㄱ')).toEqual([])
    // Two initials count like one syllable: capped, the same matches either way.
    expect(ftsMatches(db, (planSearch('ㄷㅂ') as { match: string }).match)).toEqual([3])
  })
})

/** A small seeded generator (mulberry32), so a failure can be reproduced. */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('planSearch against the naive matcher, over a generated store', () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection
  /** Each record's searched fields as stored, and its idx, as the index sees them. */
  let fields: Map<number, string[]>

  beforeAll(() => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    const dataset = new Dataset({
      seed: 11,
      size: 1500,
      staticUrl: 'http://127.0.0.1:1',
      anchor: SANDBOX_ANCHOR,
    })
    const items: InspectionRecord[] = []
    for (let i = 0; i < dataset.size; i += 1) {
      const read = readInspection(JSON.parse(JSON.stringify(dataset.inspection(i))), i)
      if (read.ok) items.push(read.value)
    }
    transaction(db, () => upsertInspections(db, items, 1, 'now'))
    const columns = RECORD_TABLES.inspections.searched.map((f) => f.column)
    const rows = db.prepare(`SELECT idx, ${columns.join(', ')} FROM inspections`).all() as Record<
      string,
      string | number | null
    >[]
    fields = new Map(
      rows.map((row) => [
        Number(row['idx']),
        [...columns.map((c) => String(row[c] ?? '')), String(row['idx'])],
      ]),
    )
  })
  afterAll(() => {
    db.close()
    temp.remove()
  })

  /** What the naive matcher finds, ascending. */
  const naive = (q: string): number[] => {
    const match = createMatcher(q)
    return [...fields].filter(([, values]) => match(...values)).map(([idx]) => idx)
  }

  /** The FTS answer of the query's plans: the `planSearch` one, and the spelled-out one of a short query. */
  const planned = (q: string): number[][] => {
    const plan = planSearch(q)
    const spelled = shortQueryPlan(q, () => null)
    return [plan, ...(spelled ? [spelled] : [])].map((p) =>
      p.kind === 'match' ? ftsMatches(db, p.match) : [],
    )
  }

  it('digits taken from the data: exactly the records whose fields hold them', () => {
    const next = rng(7)
    const records = [...fields.values()]
    for (let n = 0; n < 80; n += 1) {
      const values = records[Math.floor(next() * records.length)]!
      const runs = values.flatMap((value) => value.match(/\d{3,}/gu) ?? [])
      const run = runs[Math.floor(next() * runs.length)]!
      const length = 3 + Math.floor(next() * (run.length - 2))
      const start = Math.floor(next() * (run.length - length + 1))
      const q = run.slice(start, start + length)
      const expected = naive(q)
      expect(expected.length).toBeGreaterThan(0)
      for (const found of planned(q)) expect(found, q).toEqual(expected)
      // The list answers the same records: all of them, or its first 500 of them and their count.
      const page = queryInspections(db, { q, limit: 500 })
      expect(page.total, q).toBe(expected.length)
      const rows = listed(db, q)
      if (expected.length <= 500) expect(rows, q).toEqual(expected)
      else
        expect(
          rows.filter((idx) => !expected.includes(idx)),
          q,
        ).toEqual([])
    }
  })

  it('one and two digits: every number holding them, a subset of the naive substring match', () => {
    const next = rng(8)
    for (let n = 0; n < 12; n += 1) {
      const q = String(Math.floor(next() * (n < 6 ? 10 : 100))).padStart(n < 6 ? 1 : 2, '0')
      // Digits inside a number of three or more, or a whole number that is exactly them.
      const word = new RegExp(`(?<![\\p{L}\\p{N}])${q}(?![\\p{L}\\p{N}])`, 'u')
      const expected = [...fields]
        .filter(([, values]) =>
          values.some(
            (value) =>
              (value.match(/\d{3,}/gu) ?? []).some((run) => run.includes(q)) || word.test(value),
          ),
        )
        .map(([idx]) => idx)
      for (const found of planned(q)) expect(found, q).toEqual(expected)
      const loose = new Set(naive(q))
      expect(expected.every((idx) => loose.has(idx))).toBe(true)
    }
  })

  it('initials taken from the data (1 to 6): exactly what the naive matcher finds', () => {
    const next = rng(9)
    const names = [...fields.values()].map((values) => values[0]!)
    for (let n = 0; n < 60; n += 1) {
      const initials = choseongOf(names[Math.floor(next() * names.length)]!)
      const length = 1 + (n % 6)
      if (initials.length < length) continue
      const start = Math.floor(next() * (initials.length - length + 1))
      const q = initials.slice(start, start + length)
      const expected = naive(q)
      expect(expected.length).toBeGreaterThan(0)
      for (const found of planned(q)) expect(found, q).toEqual(expected)
    }
  })

  it("rows indexed before (a field break between every field, kind and digit run) answer every query as today's", () => {
    const next = rng(13)
    const records = [...fields]
    // The older rows of the same records, in a second index beside today's.
    db.exec(`CREATE VIRTUAL TABLE before_fts USING fts5(
      t, tokenize = 'unicode61', content = '', contentless_delete = 1)`)
    const insert = db.prepare('INSERT INTO before_fts (rowid, t) VALUES (?, ?)')
    for (const [idx, values] of records) insert.run(idx, textBefore(values))
    const both = (match: string): [number[], number[]] => [
      ftsMatches(db, match),
      (
        db
          .prepare('SELECT rowid FROM before_fts WHERE before_fts MATCH ? ORDER BY rowid')
          .all(match) as { rowid: number }[]
      ).map((row) => row.rowid),
    ]
    let queries = 0
    for (let n = 0; n < 150; n += 1) {
      const values = records[Math.floor(next() * records.length)]![1].filter((v) => v !== '')
      // A stretch of one field, or the end of one field and the start of the next.
      const at = Math.floor(next() * values.length)
      const joined =
        next() < 0.5 ? values[at]! : `${values[at]!} ${values[(at + 1) % values.length]!}`
      const length = 1 + Math.floor(next() * Math.min(12, joined.length))
      const start = Math.floor(next() * (joined.length - length + 1))
      for (const q of [joined.slice(start, start + length), choseongOf(joined).slice(0, length)]) {
        const plan = planSearch(q)
        if (plan.kind !== 'match') continue
        const [today, before] = both(plan.match)
        expect(today, q).toEqual(before)
        queries += 1
      }
    }
    expect(queries).toBeGreaterThan(150)
  })
})

/**
 * The FTS text rows were written with before fewer tokens were needed
 * (search format `5.` as first written): every field's words, then every
 * field's initials, then every digit run not inside another, each apart by
 * the field break.
 */
function textBefore(values: readonly string[]): string {
  const present = values.filter((value) => value !== '')
  const runs = [...new Set(present.flatMap((value) => value.match(/\d{3,}/gu) ?? []))]
  const kept = runs.filter(
    (run) => !runs.some((other) => other.length > run.length && other.includes(run)),
  )
  return [
    present.map((value) => searchDocument([value]).t).join(' ǂ '),
    present
      .map((value) => searchDocument([value]).c)
      .filter((c) => c !== '')
      .join(' ǂ '),
    kept.map((run) => searchDocument([run]).d).join(' ǂ '),
  ]
    .filter((part) => part !== '')
    .join(' ǂ ')
}

describe('the text rows were written with before', () => {
  it('is the older format, as its writer built it', () => {
    expect(textBefore(['루이비통 BAG  30', 'Ab1234x56789'])).toBe(
      '루이 이비 비통 통 bag  30 ǂ ab1234x56789 ǂ ㄹㅇㅂ ㅇㅂㅌ ㅂㅌ ㅌ ǂ ǀ123 ǀ234 ǂ ǀ567 ǀ678 ǀ789',
    )
    expect(textBefore(['HERMÈS Birkin 30', '20241129123456-2', '20241129123456'])).toBe(
      'hermes birkin 30 ǂ 20241129123456-2 ǂ 20241129123456 ǂ ǀ202 ǀ024 ǀ241 ǀ411 ǀ112 ǀ129 ǀ291 ǀ912 ǀ123 ǀ234 ǀ345 ǀ456',
    )
  })
})
