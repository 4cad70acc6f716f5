import type { SQLInputValue, StatementSync } from 'node:sqlite'
import { deserialize, serialize } from 'node:v8'
import { BRAND_FIELDS } from '../../../shared/record-fields'
import { AppError } from '../../app-error'
import type { StoreConnection, WriteStatements } from '../connection'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from '../record-types'
import {
  appendPreparedRow,
  RECORD_TABLES,
  type PreparedRow,
  type RecordTable,
} from '../schema/stored-raw'
import { movable } from '../../threads/transfer'
import type { EncodedRows, PageWrite, PageWriteRequest } from './page-write'

/**
 * The row format of a synced record, from the record declarations
 * (`stored-raw.ts`): the column order, the rows the page thread encodes in
 * that order and the owner decodes, and the write path's SQL (`writes.ts`)
 * built from the same order, its statements prepared once per connection.
 */

/**
 * The record columns an upsert writes: every declared column (`idx` first) and `raw`.
 * @internal
 */
export function storedColumns(table: RecordTable): string[] {
  return [...table.columns.map((f) => f.column), 'raw']
}

/** Each list's {@link storedColumns}: the order of its inserts' parameters and of encoded rows. */
export const STORED_COLUMNS: Readonly<Record<PagedResource, readonly string[]>> = {
  guarantees: storedColumns(RECORD_TABLES.guarantees),
  inspections: storedColumns(RECORD_TABLES.inspections),
}

/** Slots a record takes in the flat array: `idx`, key, text, then its values. */
function slotsOf(resource: PagedResource): number {
  return 3 + STORED_COLUMNS[resource].length
}

/**
 * Prepares and encodes a list's records for {@link decodePageWrite}, in a
 * buffer of their own (see {@link movable}).
 */
export function encodeRows(
  resource: PagedResource,
  items: readonly (GuaranteeRecord | InspectionRecord)[],
): EncodedRows {
  const table = RECORD_TABLES[resource]
  const flat: SQLInputValue[] = []
  for (const item of items) appendPreparedRow(flat, table, item)
  const bytes = serialize(flat)
  return { count: items.length, bytes: movable([bytes]).length > 0 ? bytes : new Uint8Array(bytes) }
}

/** A value {@link encodeRows} writes for a column: text, a number or null. */
function isColumnValue(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || typeof value === 'number'
}

/**
 * The rows of a flat array from {@link encodeRows}, each checked for the
 * shape it was written with, or null when one is not a row: the bytes were
 * made by this app, so any other shape is a bug, never stored half.
 */
function decodedRows(resource: PagedResource, flat: readonly unknown[]): PreparedRow[] | null {
  const columns = STORED_COLUMNS[resource]
  const slots = slotsOf(resource)
  const rows: PreparedRow[] = []
  for (let at = 0; at < flat.length; at += slots) {
    const idx = flat[at]
    const key = flat[at + 1]
    const text = flat[at + 2]
    if (!Number.isSafeInteger(idx) || typeof key !== 'string' || typeof text !== 'string') {
      return null
    }
    const values: Record<string, SQLInputValue> = {}
    for (let i = 0; i < columns.length; i += 1) {
      const value = flat[at + 3 + i]
      if (!isColumnValue(value)) return null
      values[columns[i]!] = value
    }
    rows.push({ idx: idx as number, values, key, text })
  }
  return rows
}

/**
 * The page write a request stands for, its records decoded. Encoded bytes
 * that do not hold as many records as they claim, or hold anything but
 * rows, fail as `internal`: they were made by this app, so that is a bug,
 * never stored half.
 */
export function decodePageWrite(request: PageWriteRequest): PageWrite {
  if (!('encoded' in request)) return request
  const { encoded, ...rest } = request
  // Named records are taken out of their parcel by the owner before this (`owner/worker.ts`).
  if (!('bytes' in encoded)) {
    throw new AppError('internal', "A synced page's records never reached the cache.")
  }
  let flat: unknown
  try {
    flat = deserialize(encoded.bytes)
  } catch (cause) {
    throw new AppError('internal', 'A synced page could not be read back.', { cause })
  }
  const slots = slotsOf(request.resource)
  if (!Array.isArray(flat) || flat.length % slots !== 0) {
    throw new AppError('internal', 'A synced page came back with records that are not rows.')
  }
  if (flat.length / slots !== encoded.count) {
    throw new AppError('internal', 'A synced page came back with the wrong number of records.')
  }
  const rows = decodedRows(request.resource, flat)
  if (rows === null) {
    throw new AppError('internal', 'A synced page came back with records that are not rows.')
  }
  return { ...rest, rows }
}

/**
 * The upsert of a table keyed by `idx`, with named parameters (`:column`):
 * a conflict sets every column to the new value, or to its expression in
 * `set` (which may also name columns not inserted).
 */
function upsertSql(
  table: string,
  columns: readonly string[],
  set: Readonly<Record<string, string>>,
): string {
  const updates = columns
    .filter((c) => c !== 'idx' && !(c in set))
    .map((c) => `${c} = excluded.${c}`)
  const extra = Object.entries(set).map(([c, value]) => `${c} = ${value}`)
  return `INSERT INTO ${table} (${columns.join(', ')})
    VALUES (${columns.map((c) => `:${c}`).join(', ')})
    ON CONFLICT (idx) DO UPDATE SET ${[...updates, ...extra].join(', ')}`
}

/**
 * The columns a record write sets, in the order its statements take their
 * parameters: the declared ones (`idx` first), `raw`, and the sync's own.
 * @internal
 */
export function writtenColumns(table: RecordTable): string[] {
  return [...storedColumns(table), 'seen_pass', 'search_key']
}

/**
 * The insert of a record not stored yet: its parameters are numbered
 * (`?1`, `?2`, …) in {@link writtenColumns} order, the order the writer
 * builds its values from the same list. Numbered rather than named: a sync
 * inserts every record once, and node:sqlite binds a record's named
 * parameters at about two and a half times the cost of numbered ones.
 * @internal
 */
export function recordInsertSql(table: RecordTable): string {
  const columns = writtenColumns(table)
  return `INSERT INTO ${table.name} (${columns.join(', ')})
    VALUES (${columns.map((_, i) => `?${i + 1}`).join(', ')})`
}

/**
 * The update of a stored record, with named parameters (`:column`) for the
 * {@link writtenColumns}, taken with their colon
 * (`setAllowBareNamedParameters(false)`, one lookup per key): every column
 * to its new value; seen in the later pass; no longer gone. (An
 * update and an insert instead of one upsert: with the counts' update
 * triggers on the table, an `ON CONFLICT DO UPDATE` pays for them even when
 * it only inserts.)
 * @internal
 */
export function recordUpdateSql(table: RecordTable): string {
  const set = writtenColumns(table)
    .filter((c) => c !== 'idx')
    .map((c) => (c === 'seen_pass' ? 'seen_pass = max(seen_pass, :seen_pass)' : `${c} = :${c}`))
  return `UPDATE ${table.name} SET ${[...set, 'gone_at = NULL'].join(', ')} WHERE idx = :idx`
}

/**
 * The brand list's columns: the declared ones, its position in the list, `raw`, `seen_pass`.
 * @internal
 */
export const BRAND_COLUMNS = [...BRAND_FIELDS.map((f) => f.column), 'position', 'raw', 'seen_pass']

/** The statements take their named parameters' keys with the colon (one lookup per key). */
function named(
  statements: Record<PagedResource, StatementSync>,
): Record<PagedResource, StatementSync> {
  for (const statement of Object.values(statements)) statement.setAllowBareNamedParameters(false)
  return statements
}

/** The write path's statements, prepared once per connection. */
export function writeStatements(db: StoreConnection): WriteStatements {
  let found = db.writeStatements
  if (found) return found
  const each = (sql: (table: RecordTable) => string): Record<PagedResource, StatementSync> => ({
    guarantees: db.prepare(sql(RECORD_TABLES.guarantees)),
    inspections: db.prepare(sql(RECORD_TABLES.inspections)),
  })
  found = {
    insert: each(recordInsertSql),
    update: named(each(recordUpdateSql)),
    previous: each(
      (t) => `SELECT search_key, gone_at, ${storedColumns(t).join(', ')} FROM ${t.name}
        WHERE idx IN (SELECT value FROM json_each(?))`,
    ),
    touch: each(
      (t) => `UPDATE ${t.name} SET seen_pass = max(seen_pass, ?), gone_at = NULL WHERE idx = ?`,
    ),
    ftsDelete: each((t) => `DELETE FROM ${t.name}_fts WHERE rowid = ?`),
    ftsInsert: each((t) => `INSERT INTO ${t.name}_fts (rowid, t) VALUES (?, ?)`),
    inversions: each(
      (t) => `SELECT ifnull(b > :r, 0) + ifnull(:r > a, 0) - ifnull(b > a, 0) AS d FROM (SELECT
        (SELECT registered_at FROM ${t.name} WHERE idx < :idx ORDER BY idx DESC LIMIT 1) AS b,
        (SELECT registered_at FROM ${t.name} WHERE idx > :idx ORDER BY idx ASC LIMIT 1) AS a)`,
    ),
    span: each(
      (t) => `SELECT idx, registered_at FROM ${t.name}
        WHERE idx >= ifnull((SELECT max(idx) FROM ${t.name} WHERE idx < :lo), :lo)
          AND idx <= ifnull((SELECT min(idx) FROM ${t.name} WHERE idx > :hi), :hi)
        ORDER BY idx LIMIT :cap`,
    ),
    marks: each(
      (t) => `SELECT record_idx, mark FROM review_marks
        WHERE resource = '${t.name}' AND record_idx IN (SELECT value FROM json_each(?))`,
    ),
    brand: db.prepare(upsertSql('brands', BRAND_COLUMNS, { gone_at: 'NULL' })),
  }
  db.writeStatements = found
  return found
}
