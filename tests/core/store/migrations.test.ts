import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, transaction, userVersion } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { LATEST_VERSION, MIGRATIONS } from '../../../src/core/store/schema/migrations'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import type { GuaranteeRecord, InspectionRecord } from '../../../src/core/store/record-types'
import { NewRecordTally } from '../../../src/core/store/write/counts'
import { searchDocument, SEARCH_FORMAT } from '../../../src/core/store/search/search-text'
import {
  expandRecord,
  RECORD_TABLES,
  rowValues,
  searchOf,
  searchRow,
} from '../../../src/core/store/schema/stored-raw'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { fillStatusBounds } from '../../../src/core/store/write/changes'
import { agedCount, recordTimeline } from '../../../src/core/store/queries/change-queries'
import { withCardUrl } from '../../../src/core/store/schema/card-urls'
import { guarantee, insertAsStored, inspection, LEFT_OUT, tempDir } from './fixtures'

/**
 * Every historical version, with rows in it, migrates to the newest with
 * every row and value kept. Rows of versions 1 and 2 are written the way
 * those versions wrote them (`raw` = the whole parsed record; version 2 with
 * a search key and a row in its FTS table); from version 3 the record
 * tables have today's shape, so today's row values stand in, inserted by
 * plain SQL without a search key (the newest version indexes them on open);
 * from version 8, whose writer counts what it inserts, through the writer.
 */

let temp: ReturnType<typeof tempDir>
beforeEach(() => {
  temp = tempDir()
})
afterEach(() => temp.remove())

const GUARANTEES: GuaranteeRecord[] = [
  {
    ...guarantee(1, { productName: '샤넬 클래식 플랩백', refOrderId: 'ORD-1', refBrandCode: 'CH' }),
    refEtcData1: '매장: 명동본점',
    guaranteeToken: 'tok-1',
    warnings: [],
    raw: Object.fromEntries([
      ['extra', { nested: [1, 2] }],
      ['__proto__', { polluted: 1 }],
    ]),
  },
  {
    ...guarantee(2, { productName: 'Hermès Birkin 30', nftCardImg: null, registeredAt: null }),
    refEtcData1: null,
    guaranteeToken: null,
    warnings: ['nftCardImg: absent though the spec says always', 'registeredAt: not a date (x)'],
    raw: {},
  },
]

const INSPECTIONS: InspectionRecord[] = [
  { ...inspection(11, { productName: '루이비통 네버풀 MM' }), warnings: [] },
  {
    ...inspection(12, { productName: '프라다 백팩', inspectionStatus: null, refOrderId: null }),
    warnings: ['refOrderId: absent though the spec says always'],
    raw: {},
  },
]

const BRANDS = [
  { idx: 1, name: '샤넬', englishName: 'CHANEL', raw: {} },
  { idx: 2, name: '에르메스', englishName: 'HERMES', raw: {} },
]

/** The columns a table has at the file's version. */
function columnsOf(db: StoreConnection, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]
  return new Set(rows.map((row) => row.name))
}

/** Inserts a row into the columns the table has at this version. */
function insert(db: StoreConnection, table: string, row: Record<string, SQLInputValue>): void {
  const have = columnsOf(db, table)
  const names = Object.keys(row).filter((name) => have.has(name))
  db.prepare(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `:${n}`).join(', ')})`,
  ).run(Object.fromEntries(names.map((name) => [name, row[name]!])))
}

/** A record the way versions 1 and 2 stored it: its columns and the whole record as `raw`. */
function oldRow(
  table: 'guarantees' | 'inspections',
  record: object,
): Record<string, SQLInputValue> {
  const fields = record as Record<string, unknown>
  const row: Record<string, SQLInputValue> = {}
  for (const f of RECORD_TABLES[table].columns) {
    const value = (fields[f.api] ?? null) as SQLInputValue
    row[f.column] = value ?? (f.null === 'blank' || f.null === 'blank-null' ? '' : null)
  }
  return { ...row, raw: JSON.stringify(record), seen_pass: 1, stored_at: 'then' }
}

/**
 * Records the way the writer of versions 8 to 10 stored them: the row with
 * a search key of format `3.`, an FTS row of two columns (`t`, `c`; with
 * `extra` words in `t`), and the new records added to the stored counts
 * (no insert trigger counts them since migration 8). Version 11 (`grams`)
 * wrote today's one-column FTS row and key.
 */
function writeAsVersion10(
  db: StoreConnection,
  table: 'guarantees' | 'inspections',
  records: readonly (GuaranteeRecord | InspectionRecord)[],
  extra = '',
  grams = false,
): void {
  insertAsStored(db, table, records)
  const tally = new NewRecordTally()
  const times: string[] = []
  for (const record of [...records].sort((a, b) => a.idx - b.idx)) {
    const { values, search } = rowValues(RECORD_TABLES[table], record)
    if (grams) {
      const { key, text } = searchRow(search, record.idx)
      db.prepare(`UPDATE ${table} SET search_key = ? WHERE idx = ?`).run(key, record.idx)
      db.prepare(`INSERT INTO ${table}_fts (rowid, t) VALUES (?, ?)`).run(record.idx, text)
    } else {
      const doc = searchDocument([...search, String(record.idx)])
      db.prepare(`UPDATE ${table} SET search_key = '3.old' WHERE idx = ?`).run(record.idx)
      db.prepare(`INSERT INTO ${table}_fts (rowid, t, c) VALUES (?, ?, ?)`).run(
        record.idx,
        `${doc.t} ${extra}`,
        doc.c,
      )
    }
    const registeredAt = values['registered_at'] as string
    tally.add(values['status'] as string | null, registeredAt, '')
    times.push(registeredAt)
  }
  tally.addInversions(times.filter((time, i) => i > 0 && times[i - 1]! > time).length)
  tally.flush(db, table)
}

/**
 * A list's FTS table has one column `t`, a tokenizer matching `tokenizer`,
 * no content and deletes; its vocabulary table reads the index (one
 * syllable is spelled out from it).
 */
function expectSearchTables(db: StoreConnection, list: string, tokenizer: RegExp): void {
  const sql = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(`${list}_fts`) as {
    sql: string
  }
  expect(sql.sql).toMatch(
    new RegExp(
      `\\(\\s*t, tokenize = '${tokenizer.source}', content = '', contentless_delete = 1\\s*\\)`,
    ),
  )
  const terms = db.prepare(`SELECT count(*) AS n FROM ${list}_fts_terms`).get() as { n: number }
  expect(terms.n).toBeGreaterThan(0)
}

function writeAt(db: StoreConnection, version: number): void {
  // Today's writer also logs changes (version 12 on) and team events: only the latest has their tables.
  // From version 11 the search index has today's shape, which writeAsVersion10 writes when told.
  if (version >= LATEST_VERSION) {
    upsertGuarantees(db, GUARANTEES, 1, 'then')
    upsertInspections(db, INSPECTIONS, 1, 'then')
  } else if (version >= 8) {
    writeAsVersion10(db, 'guarantees', GUARANTEES, '', version >= 11)
    writeAsVersion10(db, 'inspections', INSPECTIONS, '', version >= 11)
  } else if (version >= 3) {
    insertAsStored(db, 'guarantees', GUARANTEES)
    insertAsStored(db, 'inspections', INSPECTIONS)
  } else {
    for (const [table, records] of [
      ['guarantees', GUARANTEES],
      ['inspections', INSPECTIONS],
    ] as const) {
      for (const record of records) {
        const row = oldRow(table, record)
        if (version === 2) {
          const doc = searchDocument(
            RECORD_TABLES[table].searched.map((f) => row[f.column] as string),
          )
          insert(db, table, { ...row, search_key: '1.old' })
          db.prepare(`INSERT INTO ${table}_fts (rowid, t, c) VALUES (?, ?, ?)`).run(
            record.idx,
            doc.t,
            doc.c,
          )
        } else {
          insert(db, table, row)
        }
      }
    }
  }
  BRANDS.forEach((brand, position) =>
    insert(db, 'brands', {
      idx: brand.idx,
      name: brand.name,
      english_name: brand.englishName,
      position,
      raw: JSON.stringify(brand),
      seen_pass: 1,
    }),
  )
  insert(db, 'sync_state', {
    resource: 'inspections',
    status: 'idle',
    pass: 3,
    last_full_at: '2026-01-01T00:00:00.000Z',
    rejected: 2,
  })
  insert(db, 'review_marks', {
    resource: 'inspections',
    record_idx: 11,
    mark: 'follow_up',
    note: '박스 확인',
    updated_at: '2026-01-02 10:00:00',
    reviewed_by: '김민지',
  })
  insert(db, 'wallet_links', {
    flow: 'register',
    ref_user_id: 'kim01',
    guarantee_idx: 1,
    outcome: 'opened',
    started_at: '2026-01-03 10:00:00',
  })
}

/** A stored row, its card URL read back (`card-urls.ts`). */
const row = (db: StoreConnection, table: string, idx: number): Record<string, unknown> =>
  withCardUrl(
    db,
    db.prepare(`SELECT * FROM ${table} WHERE idx = ?`).get(idx) as Record<string, unknown>,
  )

describe('every historical version migrates to the newest, keeping every row', () => {
  it('the migrations are numbered 1..latest without a gap', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(
      Array.from({ length: LATEST_VERSION }, (_, i) => i + 1),
    )
  })

  for (let version = 1; version < LATEST_VERSION; version += 1) {
    it(`version ${version} with rows → version ${LATEST_VERSION}`, () => {
      const file = storeFileFor(temp.dir, 'sandbox')
      const old = openStore(file, { targetVersion: version })
      expect(userVersion(old.db)).toBe(version)
      transaction(old.db, () => writeAt(old.db, version))
      old.db.close()

      const { db, notice } = openStore(file)
      try {
        expect(notice).toBeNull()
        expect(userVersion(db)).toBe(LATEST_VERSION)
        for (const g of GUARANTEES) {
          expect(expandRecord(RECORD_TABLES.guarantees, row(db, 'guarantees', g.idx))).toEqual(
            JSON.parse(JSON.stringify({ refEtcData2: null, refEtcData3: null, ...g })),
          )
        }
        for (const i of INSPECTIONS) {
          expect(expandRecord(RECORD_TABLES.inspections, row(db, 'inspections', i.idx))).toEqual(
            JSON.parse(JSON.stringify(i)),
          )
        }
        expect(
          db.prepare('SELECT idx, name, english_name, position FROM brands ORDER BY idx').all(),
        ).toEqual([
          { idx: 1, name: '샤넬', english_name: 'CHANEL', position: 0 },
          { idx: 2, name: '에르메스', english_name: 'HERMES', position: 1 },
        ])
        expect(db.prepare('SELECT pass, last_full_at, rejected FROM sync_state').get()).toEqual({
          pass: 3,
          last_full_at: '2026-01-01T00:00:00.000Z',
          rejected: 2,
        })
        // A list that completed a full pass before the changes feed (version 12) gets its baseline
        // from the migration; a file already at 12 or later keeps the baselines it has (none here).
        expect(db.prepare('SELECT resource, sync_id FROM change_baselines').all()).toEqual(
          version < 12 ? [{ resource: 'inspections', sync_id: 'migration-12' }] : [],
        )
        expect(
          db.prepare('SELECT mark, note, updated_at, reviewed_by FROM review_marks').get(),
        ).toEqual({
          mark: 'follow_up',
          note: '박스 확인',
          updated_at: '2026-01-02 10:00:00',
          reviewed_by: version >= 4 ? '김민지' : null,
        })
        expect(db.prepare('SELECT outcome, guarantee_idx FROM wallet_links').get()).toEqual({
          outcome: 'opened',
          guarantee_idx: 1,
        })
        // Listed and found by search with today's index, as a fresh sync would leave them.
        expect(queryGuarantees(db, { q: '클래식' }).rows.map((r) => r.idx)).toEqual([1])
        expect(queryGuarantees(db, { q: 'birkin' }).rows.map((r) => r.idx)).toEqual([2])
        expect(queryInspections(db, { q: '네버풀' }).rows.map((r) => r.idx)).toEqual([11])
        expect(queryInspections(db, { review: 'follow_up' }).rows.map((r) => r.idx)).toEqual([11])
        expect(queryInspections(db, {}).total).toBe(2)
      } finally {
        db.close()
      }
    })
  }
})

describe('migration 6 (nfc-text)', () => {
  it('makes stored text NFC, keeps the values as sent in raw, and search still finds them', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 5 })
    const nfd = (text: string): string => text.normalize('NFD')
    const sent = {
      ...inspection(21, { productName: nfd('샤넬 클래식 플랩백'), refUserId: nfd('김민지') }),
      inspectionStatus: nfd('배송완료'),
      warnings: [],
    }
    transaction(old.db, () => {
      // Version 5 stored text as sent: the columns hold the decomposed text.
      const row = oldRow('inspections', sent)
      const doc = searchDocument(
        RECORD_TABLES.inspections.searched.map((f) => row[f.column] as string),
      )
      insert(old.db, 'inspections', {
        ...row,
        raw: JSON.stringify({ raw: sent.raw }),
        search_key: '2.old',
      })
      old.db
        .prepare('INSERT INTO inspections_fts (rowid, t, c) VALUES (?, ?, ?)')
        .run(21, doc.t, doc.c)
      insert(old.db, 'brands', {
        idx: 5,
        name: nfd('샤넬'),
        english_name: 'CHANEL',
        position: 0,
        raw: JSON.stringify({ name: nfd('샤넬') }),
        seen_pass: 1,
      })
    })
    old.db.close()

    const { db } = openStore(file)
    try {
      const stored = row(db, 'inspections', 21)
      expect(stored['product_name']).toBe('샤넬 클래식 플랩백')
      expect(stored['ref_user_id']).toBe('김민지')
      expect(stored['status']).toBe('배송완료')
      expect(stored['inspection_num']).toBe(sent.inspectionNum)
      expect(expandRecord(RECORD_TABLES.inspections, stored)).toEqual(
        JSON.parse(JSON.stringify(sent)),
      )
      expect(queryInspections(db, { q: '클래식' }).rows.map((r) => r.idx)).toEqual([21])
      expect(queryInspections(db, { status: '배송완료' }).total).toBe(1)
      expect(db.prepare('SELECT name, raw FROM brands').get()).toEqual({
        name: '샤넬',
        raw: JSON.stringify({ name: nfd('샤넬') }),
      })
    } finally {
      db.close()
    }
  })
})

describe('migration 11 (search-grams)', () => {
  it("recreates the FTS tables with one column and re-indexes every row with today's grams", () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 10 })
    transaction(old.db, () => {
      writeAsVersion10(old.db, 'guarantees', GUARANTEES, 'stalemarker')
      writeAsVersion10(old.db, 'inspections', INSPECTIONS, 'stalemarker')
    })
    old.db.close()

    const { db } = openStore(file)
    try {
      for (const list of ['guarantees', 'inspections'] as const) {
        // One column (migration 18 changed the tokenizer since), and its vocabulary table.
        expectSearchTables(db, list, /\w+/)
        // Every row was indexed again, with the key a write of today would give it.
        const table = RECORD_TABLES[list]
        const rows = db.prepare(`SELECT * FROM ${list} ORDER BY idx`).all() as Record<
          string,
          string | null
        >[]
        expect(rows).toHaveLength(2)
        for (const row of rows) {
          const fields = table.searched.map((f) => row[f.column] ?? null)
          expect(row['search_key']).toBe(searchOf([...fields, String(row['idx'])]).key)
          expect(row['search_key']!.startsWith(SEARCH_FORMAT)).toBe(true)
        }
      }
      // The old rows are gone from the index; today's grams find digits and 초성.
      expect(queryInspections(db, { q: 'stalemarker' }).total).toBe(0)
      expect(queryGuarantees(db, { q: 'stalemarker' }).total).toBe(0)
      expect(queryInspections(db, { q: '000011' }).rows.map((r) => r.idx)).toEqual([11])
      expect(queryInspections(db, { q: 'ㄴㅂㅍ' }).rows.map((r) => r.idx)).toEqual([11])
      expect(queryInspections(db, { q: '네' }).rows.map((r) => r.idx)).toEqual([11])
      expect(queryGuarantees(db, { q: 'ㅋㄹㅅ' }).rows.map((r) => r.idx)).toEqual([1])
      expect(queryInspections(db, {}).total).toBe(2)
    } finally {
      db.close()
    }
  })
})

describe('migration 16 (lean-rows)', () => {
  it('drops stored_at and keeps the index of rows whose key hashed their text, without indexing them again', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 15 })
    transaction(old.db, () => {
      writeAsVersion10(old.db, 'guarantees', GUARANTEES, '', true)
      // The writer of versions 11 to 15 stored the format and a hash of the text; an older
      // format's key stays as it is, and its record is indexed again by the next write.
      old.db.prepare("UPDATE guarantees SET search_key = '5.0uuoffj0qrqnse' WHERE idx = 1").run()
      old.db.prepare("UPDATE guarantees SET search_key = '4.0uuoffj0qrqnse' WHERE idx = 2").run()
    })
    old.db.close()

    // Version 17: migration 18 indexes every row again.
    const { db } = openStore(file, { targetVersion: 17 })
    try {
      expect(columnsOf(db, 'guarantees').has('stored_at')).toBe(false)
      expect(columnsOf(db, 'inspections').has('stored_at')).toBe(false)
      expect(db.prepare('SELECT idx, search_key FROM guarantees ORDER BY idx').all()).toEqual([
        { idx: 1, search_key: '5.' },
        { idx: 2, search_key: '4.0uuoffj0qrqnse' },
      ])
      // Still in the search index (read as the index of that version: today's list queries need
      // the newest schema): the syllable pairs of 클래식.
      const found = db
        .prepare(`SELECT rowid AS idx FROM guarantees_fts WHERE guarantees_fts MATCH '"클래 래식"'`)
        .all()
      expect(found).toEqual([{ idx: 1 }])
    } finally {
      db.close()
    }
  })
})

describe('migration 25 (compact-status-since)', () => {
  it('carries every status_since row of a version 24 store forward: the same aging, to the millisecond', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 24 })
    transaction(old.db, () => {
      writeAsVersion10(old.db, 'guarantees', GUARANTEES, '', true)
      writeAsVersion10(old.db, 'inspections', INSPECTIONS, '', true)
      old.db.exec(`
        INSERT INTO change_baselines (resource, at, sync_id) VALUES
          ('guarantees', '2026-11-01T00:00:00.000Z', 's1'),
          ('inspections', '2026-11-01T00:00:00.000Z', 's1');
        INSERT INTO status_since (resource, idx, status, since, bound) VALUES
          ('inspections', 11, '배송완료', '2025-01-12T01:00:00.000Z', 1),
          ('inspections', 12, '', '2026-11-13T00:00:00.123Z', 0),
          ('guarantees', 1, '발급완료', '2026-11-10T09:30:00.500Z', 0);
      `)
    })
    old.db.close()

    const { db } = openStore(file)
    try {
      // Stored compactly: the list and status as numbers, the instant in milliseconds.
      expect(
        db.prepare('SELECT list, idx, typeof(status) AS s, since, bound FROM status_since').all(),
      ).toEqual([
        { list: 0, idx: 11, s: 'integer', since: Date.parse('2025-01-12T01:00:00.000Z'), bound: 1 },
        { list: 0, idx: 12, s: 'integer', since: Date.parse('2026-11-13T00:00:00.123Z'), bound: 0 },
        { list: 1, idx: 1, s: 'integer', since: Date.parse('2026-11-10T09:30:00.500Z'), bound: 0 },
      ])
      const since = (resource: 'guarantees' | 'inspections', idx: number) => {
        const t = recordTimeline(db, { resource, idx })
        return [t.currentSince, t.currentSinceBound]
      }
      expect(since('inspections', 11)).toEqual(['2025-01-12T01:00:00.000Z', true])
      expect(since('inspections', 12)).toEqual(['2026-11-13T00:00:00.123Z', false])
      expect(since('guarantees', 1)).toEqual(['2026-11-10T09:30:00.500Z', false])
      // No row: since the list's baseline.
      expect(since('guarantees', 2)).toEqual(['2026-11-01T00:00:00.000Z', false])
      expect(queryInspections(db, {}).rows.map((r) => [r.idx, r.statusSince])).toEqual(
        expect.arrayContaining([
          [11, '2025-01-12T01:00:00.000Z'],
          [12, '2026-11-13T00:00:00.123Z'],
        ]),
      )
      // The counts, the filter and its total agree, a millisecond either side of a since.
      expect(agedCount(db, 'guarantees', '발급완료', '2026-11-10T09:30:00.499Z')).toBe(1)
      expect(agedCount(db, 'guarantees', '발급완료', '2026-11-10T09:30:00.500Z')).toBe(2)
      expect(agedCount(db, 'inspections', '배송완료', '2025-01-12T00:59:59.999Z')).toBe(0)
      expect(agedCount(db, 'inspections', '배송완료', '2025-01-12T01:00:00.000Z')).toBe(1)
      const aged = (asOf: string) => {
        const page = queryInspections(db, { agedDays: 3, agedAsOf: asOf })
        return { total: page.total, idx: page.rows.map((r) => r.idx).sort() }
      }
      expect(aged('2026-11-16T00:00:00.122Z')).toEqual({ total: 1, idx: [11] })
      expect(aged('2026-11-16T00:00:00.123Z')).toEqual({ total: 2, idx: [11, 12] })
      // Longest in status first: the baseline before the later move.
      expect(queryGuarantees(db, { sort: 'aged' }).rows.map((r) => r.idx)).toEqual([2, 1])
    } finally {
      db.close()
    }
  })
})

describe('migration 18 (ascii-search)', () => {
  it('recreates the FTS tables with the ascii tokenizer and indexes every row again, words split as queries split them', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 17 })
    const split = [
      ...GUARANTEES,
      guarantee(3, { productName: '디올·레이디 백™ Café–Noir', refOrderId: 'ORD-3' }),
    ]
    transaction(old.db, () => {
      writeAsVersion10(old.db, 'guarantees', split, '', true)
      writeAsVersion10(old.db, 'inspections', INSPECTIONS, '', true)
      // A row indexed with other text: only indexing it again finds record 1 by its name.
      old.db.exec(`DELETE FROM guarantees_fts WHERE rowid = 1;
        INSERT INTO guarantees_fts (rowid, t) VALUES (1, 'stalemarker')`)
    })
    old.db.close()

    const { db } = openStore(file)
    try {
      for (const list of ['guarantees', 'inspections'] as const) {
        expectSearchTables(db, list, /ascii/)
        const keys = db.prepare(`SELECT DISTINCT search_key AS key FROM ${list}`).all()
        expect(keys).toEqual([{ key: SEARCH_FORMAT }])
      }
      const found = (q: string): number[] => queryGuarantees(db, { q }).rows.map((r) => r.idx)
      expect(found('stalemarker')).toEqual([])
      expect(found('클래식')).toEqual([1])
      expect(found('birkin')).toEqual([2])
      expect(found('디올·레이디')).toEqual([3])
      expect(found('cafe noir')).toEqual([3])
      expect(found('ORD-3')).toEqual([3])
      expect(queryInspections(db, {}).total).toBe(2)
    } finally {
      db.close()
    }
  })
})

describe('migration 17 (short-rows)', () => {
  const SHORT: GuaranteeRecord[] = [
    ...[1, 2, 3].map((idx) =>
      guarantee(idx, { nftCardImg: `https://static.example.com/nft/${idx}.png` }),
    ),
    { ...guarantee(4, { nftCardImg: '\u0002odd' }), refEtcData2: '구성품: 박스' },
    { ...guarantee(5, { nftCardImg: null }), warnings: ['nftCardImg: absent'] },
    guarantee(6, { nftCardImg: 'no-slash.png' }),
    // Decomposed: the column gets NFC, raw keeps it as sent.
    { ...guarantee(7), refEtcData1: '매장: 명동본점', refEtcData3: 'Cafe\u0301' },
  ]

  it('stores card URLs without their prefix and refEtcData1..3 in columns; a re-sync of the same records rewrites nothing', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 16 })
    transaction(old.db, () => writeAsVersion10(old.db, 'guarantees', SHORT, '', true))
    expect(JSON.parse(row(old.db, 'guarantees', 7)['raw'] as string)).toEqual({
      refEtcData1: '매장: 명동본점',
      refEtcData3: 'Cafe\u0301',
    })
    old.db.close()

    const { db } = openStore(file)
    try {
      expect(db.prepare('SELECT id, prefix FROM card_url_prefixes').all()).toEqual([
        { id: 1, prefix: 'https://static.example.com/nft/' },
        { id: 2, prefix: 'http://127.0.0.1:1/card/' },
      ])
      const stored = db
        .prepare('SELECT idx, card_url, ref_etc_data1, ref_etc_data3, raw FROM guarantees')
        .all()
      expect(stored).toEqual([
        { idx: 1, card_url: '\u00011.png', ref_etc_data1: null, ref_etc_data3: null, raw: '{}' },
        { idx: 2, card_url: '\u00012.png', ref_etc_data1: null, ref_etc_data3: null, raw: '{}' },
        { idx: 3, card_url: '\u00013.png', ref_etc_data1: null, ref_etc_data3: null, raw: '{}' },
        {
          idx: 4,
          card_url: '\u001f\u0002odd',
          ref_etc_data1: null,
          ref_etc_data3: null,
          raw: '{}',
        },
        {
          idx: 5,
          card_url: '',
          ref_etc_data1: null,
          ref_etc_data3: null,
          raw: JSON.stringify({ nftCardImg: null, warnings: ['nftCardImg: absent'] }),
        },
        { idx: 6, card_url: 'no-slash.png', ref_etc_data1: null, ref_etc_data3: null, raw: '{}' },
        {
          idx: 7,
          card_url: '\u00027.png',
          ref_etc_data1: '매장: 명동본점',
          ref_etc_data3: 'Café',
          raw: JSON.stringify({ refEtcData3: 'Cafe\u0301' }),
        },
      ])
      for (const g of SHORT) {
        expect(expandRecord(RECORD_TABLES.guarantees, row(db, 'guarantees', g.idx))).toEqual({
          ...LEFT_OUT,
          ...JSON.parse(JSON.stringify(g)),
        })
      }
      expect(queryGuarantees(db, {}).rows.map((r) => [r.idx, r.cardUrl])).toEqual(
        [...SHORT].reverse().map((g) => [g.idx, g.nftCardImg ?? '']),
      )
      // The writer stores the same records exactly as the migration left them: only seen_pass moves.
      db.prepare(
        "INSERT INTO change_baselines (resource, at, sync_id) VALUES ('guarantees', 'then', 's')",
      ).run()
      // The app fills the aging rows of a store from before them when it opens it.
      transaction(db, () => fillStatusBounds(db, 'Asia/Seoul'))
      const changes = (): number =>
        (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n
      const before = changes()
      transaction(db, () => upsertGuarantees(db, SHORT, 5, 'now'))
      expect(changes() - before).toBe(SHORT.length)
      expect(db.prepare('SELECT count(*) AS n FROM changes').get()).toEqual({ n: 0 })
    } finally {
      db.close()
    }
  })
})
