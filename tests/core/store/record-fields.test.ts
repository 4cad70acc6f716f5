import type { StoreConnection } from '../../../src/core/store/connection'
import { beforeEach, describe, expect, it } from 'vitest'
import { transaction } from '../../../src/core/store/schema/database'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import { readSyncState, writeSyncState } from '../../../src/core/store/sync-state'
import {
  expandRecord,
  nfc,
  RECORD_TABLES,
  rowValues,
} from '../../../src/core/store/schema/stored-raw'
import {
  BRAND_COLUMNS,
  recordInsertSql,
  recordUpdateSql,
  storedColumns,
  writtenColumns,
} from '../../../src/core/store/write/row-format'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { BRAND_FIELDS, type FieldSpec } from '../../../src/shared/record-fields'
import { storePerTest } from './fixtures'

/**
 * The record declarations (`src/shared/record-fields.ts`) against what is
 * derived from them and the live schema: a declared field the SQL, the
 * mapping or the schema missed fails here.
 */

const store = storePerTest()
let db: StoreConnection
beforeEach(() => {
  db = store.db
})

interface ColumnInfo {
  name: string
  type: string
  notnull: number
}

const schemaOf = (table: string): Map<string, ColumnInfo> =>
  new Map(
    (db.prepare(`PRAGMA table_info(${table})`).all() as unknown as ColumnInfo[]).map((c) => [
      c.name,
      c,
    ]),
  )

/** The first column of every index of a table. */
const leadingIndexed = (table: string): Set<string> => {
  const indexes = db.prepare(`PRAGMA index_list(${table})`).all() as { name: string }[]
  return new Set(
    indexes.map(
      (index) =>
        (db.prepare(`PRAGMA index_info(${index.name})`).all() as { name: string }[])[0]!.name,
    ),
  )
}

function expectSchemaHas(table: string, fields: readonly FieldSpec[]): void {
  const schema = schemaOf(table)
  const indexed = leadingIndexed(table)
  for (const f of fields) {
    if (f.null === 'raw') {
      expect(f.column, f.api).toBe('')
      continue
    }
    const column = schema.get(f.column)
    expect(column, `${table}.${f.column} (${f.api})`).toBeDefined()
    expect(column!.type, f.column).toBe(f.sql)
    const nullable = f.null === 'column'
    // idx is the INTEGER PRIMARY KEY (the rowid): never null, whatever notnull says.
    if (f.column !== 'idx') expect(column!.notnull === 0, f.column).toBe(nullable)
    if (f.indexed) expect(indexed.has(f.column), `index on ${f.column}`).toBe(true)
  }
}

/** A record of a table with a distinct value in every declared field. */
function fullRecord(table: 'guarantees' | 'inspections', idx: number): Record<string, unknown> {
  const record: Record<string, unknown> = { raw: { unknownField: 'kept' }, warnings: [] }
  for (const f of RECORD_TABLES[table].fields) {
    if (f.sql === 'INTEGER') record[f.api] = idx
    else if (f.read === 'timestamp' || f.read === 'timestamp?')
      record[f.api] = '2025-01-02 03:04:05'
    else record[f.api] = `${f.api.toLowerCase()}${idx}x`
  }
  return record
}

describe('record declarations', () => {
  for (const table of ['guarantees', 'inspections'] as const) {
    const fields = RECORD_TABLES[table].fields
    it(`${table}: the live schema after every migration has each declared column, type, nullability and index`, () => {
      expectSchemaHas(table, fields)
    })

    it(`${table}: the derived insert and update set every declared column, one parameter each`, () => {
      const insert = recordInsertSql(RECORD_TABLES[table])
      const update = recordUpdateSql(RECORD_TABLES[table])
      const written = writtenColumns(RECORD_TABLES[table])
      expect(written).toEqual([...storedColumns(RECORD_TABLES[table]), 'seen_pass', 'search_key'])
      // The insert's parameters numbered in the columns' order, one per column (the writer
      // builds its values from the same list); the update's named.
      expect(insert).toContain(`(${written.join(', ')})`)
      expect(insert).toContain(`VALUES (${written.map((_, i) => `?${i + 1}`).join(', ')})`)
      expect(insert).not.toContain(':')
      const set = written
        .filter((c) => c !== 'idx')
        .map((c) => (c === 'seen_pass' ? 'seen_pass = max(seen_pass, :seen_pass)' : `${c} = :${c}`))
      expect(update).toContain(`SET ${set.join(', ')}, gone_at = NULL WHERE idx = :idx`)
      expect(update).not.toContain('?')
      for (const f of fields.filter((field) => field.null !== 'raw')) {
        expect(written).toContain(f.column)
      }
      expect(storedColumns(RECORD_TABLES[table])).toEqual([
        ...fields.filter((f) => f.null !== 'raw').map((f) => f.column),
        'raw',
      ])
      // Every value an upsert binds is a parameter of the statement, and back.
      const values = rowValues(RECORD_TABLES[table], fullRecord(table, 1)).values
      expect(Object.keys(values).sort()).toEqual(storedColumns(RECORD_TABLES[table]).sort())
    })

    it(`${table}: every declared field is written, read back, listed and (when declared so) searched`, () => {
      const record = fullRecord(table, 7)
      transaction(db, () =>
        table === 'guarantees'
          ? upsertGuarantees(db, [record as never], 1, 'now')
          : upsertInspections(db, [record as never], 1, 'now'),
      )
      const stored = db.prepare(`SELECT * FROM ${table} WHERE idx = 7`).get() as Record<
        string,
        unknown
      >
      expect(expandRecord(RECORD_TABLES[table], stored)).toEqual(record)
      const query = table === 'guarantees' ? queryGuarantees : queryInspections
      const [row] = query(db, {}).rows as unknown as Record<string, unknown>[]
      for (const f of fields) {
        if (f.row !== undefined) expect(row![f.row], f.row).toBe(record[f.api])
      }
      for (const f of fields) {
        if (f.sql !== 'TEXT' || f.read.startsWith('timestamp')) continue
        const found = query(db, { q: String(record[f.api]) }).rows.map((r) => r.idx)
        expect(found, `search for ${f.api}`).toEqual(f.searched ? [7] : [])
      }
    })
  }

  it('brands: the live schema and the derived upsert cover every declared field', () => {
    expectSchemaHas('brands', BRAND_FIELDS)
    expect(BRAND_COLUMNS).toEqual(['idx', 'name', 'english_name', 'position', 'raw', 'seen_pass'])
  })
})

describe('stored text is NFC; the record as sent stays in raw', () => {
  const nfd = (text: string): string => text.normalize('NFD')

  it('Korean sent decomposed is stored, listed and found composed, and given back as sent', () => {
    const name = '샤넬 클래식 플랩백'
    expect(nfd(name)).not.toBe(name)
    const sent = {
      ...fullRecord('inspections', 3),
      productName: nfd(name),
      inspectionStatus: nfd('배송완료'),
      refUserId: nfd('김민지'),
    }
    transaction(db, () => upsertInspections(db, [sent as never], 1, 'now'))
    const stored = db.prepare('SELECT * FROM inspections WHERE idx = 3').get() as Record<
      string,
      unknown
    >
    expect(stored['product_name']).toBe(name)
    expect(stored['status']).toBe('배송완료')
    expect(stored['ref_user_id']).toBe('김민지')
    expect(JSON.parse(String(stored['raw']))).toMatchObject({
      productName: nfd(name),
      inspectionStatus: nfd('배송완료'),
    })
    expect(expandRecord(RECORD_TABLES.inspections, stored)).toEqual(sent)
    const [row] = queryInspections(db, { q: '클래식' }).rows
    expect(row?.productName).toBe(name)
    expect(queryInspections(db, { q: nfd('플랩') }).rows.map((r) => r.idx)).toEqual([3])
    expect(queryInspections(db, { status: '배송완료' }).total).toBe(1)
    expect(queryInspections(db, { member: '김민지' }).total).toBe(1)
    // A re-sync of the same decomposed record changes nothing.
    const before = db.prepare('SELECT raw, search_key FROM inspections').get()
    transaction(db, () => upsertInspections(db, [sent as never], 2, 'later'))
    expect(db.prepare('SELECT raw, search_key FROM inspections').get()).toEqual(before)
  })

  it('nfc() equals normalize(NFC), also where it skips ICU (text below U+0300, Hangul syllables)', () => {
    const samples = [
      '루이비통 스피디 30',
      nfd('루이비통'),
      '\uac00\u11a8', // a syllable and a trailing jamo compose into one syllable
      'HERME\u0300S',
      '\u212b', // Å (angstrom sign) becomes U+00C5
      'Åström café',
      'ORD-2024-0001',
      '',
    ]
    for (let a = 0; a < 0x300; a += 1) samples.push(String.fromCharCode(a, 0x41, a))
    for (const text of samples) expect(nfc(text)).toBe(text.normalize('NFC'))
    expect(nfc(null)).toBeNull()
    expect(nfc(7)).toBe(7)
  })

  it('a record sent composed keeps in raw only the fields no column holds', () => {
    const record = fullRecord('guarantees', 4)
    const raw = JSON.parse(String(rowValues(RECORD_TABLES.guarantees, record).values['raw']))
    expect(Object.keys(raw as object).sort()).toEqual(
      [
        ...RECORD_TABLES.guarantees.fields.filter((f) => f.null === 'raw').map((f) => f.api),
        'raw',
      ].sort(),
    )
  })
})

describe('a damaged stored row', () => {
  it('gives a store_corrupt error naming the row, not a crash', () => {
    const record = fullRecord('guarantees', 9)
    transaction(db, () => upsertGuarantees(db, [record as never], 1, 'now'))
    db.prepare(`UPDATE guarantees SET raw = '{not json' WHERE idx = 9`).run()
    const stored = db.prepare('SELECT * FROM guarantees WHERE idx = 9').get() as Record<
      string,
      unknown
    >
    expect(() => expandRecord(RECORD_TABLES.guarantees, stored)).toThrow(
      expect.objectContaining({
        code: 'store_corrupt',
        message: 'Stored guarantees record 9 cannot be read: its raw column is not JSON.',
      }),
    )
    db.prepare(`UPDATE guarantees SET raw = '[1]' WHERE idx = 9`).run()
    expect(() =>
      expandRecord(
        RECORD_TABLES.guarantees,
        db.prepare('SELECT * FROM guarantees WHERE idx = 9').get() as Record<string, unknown>,
      ),
    ).toThrow(/not a JSON object/)
    // The list never reads raw: it still answers.
    expect(queryGuarantees(db, {}).rows.map((r) => r.idx)).toEqual([9])
  })
  it('a damaged sync state: an unreadable checkpoint or error reads as none, a wrong row is store_corrupt', () => {
    writeSyncState(db, 'inspections', {
      status: 'syncing',
      mode: 'full',
      pass: 2,
      checkpoint: { nextPage: 3, pageSize: 100, total: 450, fetched: 200 },
    })
    expect(readSyncState(db, 'inspections').checkpoint).toEqual({
      nextPage: 3,
      pageSize: 100,
      total: 450,
      fetched: 200,
    })
    db.prepare(
      `UPDATE sync_state SET checkpoint = '{"nextPage":"x"}', last_error = '{oops', mode = 'sideways'`,
    ).run()
    expect(readSyncState(db, 'inspections')).toMatchObject({
      status: 'syncing',
      mode: null,
      pass: 2,
      checkpoint: null,
      lastError: null,
    })
    db.prepare(`UPDATE sync_state SET pass = -4`).run()
    expect(() => readSyncState(db, 'inspections')).toThrow(
      expect.objectContaining({ code: 'store_corrupt' }),
    )
  })
})
