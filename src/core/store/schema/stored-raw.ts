import type { SQLInputValue, SQLOutputValue } from 'node:sqlite'
import { GUARANTEE_FIELDS, INSPECTION_FIELDS, type FieldSpec } from '../../../shared/record-fields'
import { AppError } from '../../app-error'
import type { PagedResource } from '../record-types'
import { ftsText, SEARCH_FORMAT, searchDocument, type SearchDocument } from '../search/search-text'

/**
 * How a declared record (`src/shared/record-fields.ts`) becomes a row and
 * back: its column values (text in NFC), what the `raw` column keeps, and
 * what it indexes.
 *
 * `raw` format (schema 3): JSON of only the record's fields that no typed
 * column holds, null and empty ones left out — the fields declared
 * `null: 'raw'` (`guaranteeToken`), the unknown fields the
 * service sent (`raw`) and the parser's `warnings` — plus an explicit `null`
 * for a field whose NOT NULL column stores `''` for it (`null: 'blank'` or
 * `'blank-null'`), and, for a text field whose column holds its NFC form,
 * the value as sent. Columns plus `raw` give back the whole parsed record as
 * sent ({@link expandRecord}); a typical row is `{}`.
 */

/** A paged table's declaration, with the lists derived from it. */
export interface RecordTable {
  readonly name: PagedResource
  readonly fields: readonly FieldSpec[]
  /** Fields with a column, `idx` first. */
  readonly columns: readonly FieldSpec[]
  /** Fields whose NOT NULL column stores `''` for null. */
  readonly blanks: readonly FieldSpec[]
  /** Searched fields, in index order. */
  readonly searched: readonly FieldSpec[]
  /** API names of the fields that have a column. */
  readonly inColumns: ReadonlySet<string>
  /** Where each searched field stands in {@link columns}, in index order. */
  readonly searchedAt: readonly number[]
}

function tableOf(name: PagedResource, fields: readonly FieldSpec[]): RecordTable {
  const columns = fields.filter((f) => f.null !== 'raw')
  return {
    name,
    fields,
    columns,
    blanks: fields.filter((f) => f.null === 'blank' || f.null === 'blank-null'),
    searched: fields.filter((f) => f.searched === true),
    inColumns: new Set(columns.map((f) => f.api)),
    searchedAt: columns.flatMap((f, i) => (f.searched === true ? [i] : [])),
  }
}

/** The two paged tables. */
export const RECORD_TABLES: Readonly<Record<PagedResource, RecordTable>> = {
  guarantees: tableOf('guarantees', GUARANTEE_FIELDS),
  inspections: tableOf('inspections', INSPECTION_FIELDS),
}

/**
 * True when `text` is NFC for certain without asking ICU: every character
 * below U+0300 (where the first one that may change under NFC sits) or a
 * precomposed Hangul syllable not followed by a conjoining jamo (both are
 * at or above U+0300, so any of them sends the text to `normalize`).
 */
function surelyNfc(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i)
    if (code >= 0x300 && (code < 0xac00 || code > 0xd7a3)) return false
  }
  return true
}

/** Text as stored: NFC (Korean sent decomposed renders right); anything else as it is. */
export function nfc<T>(value: T): T {
  if (typeof value !== 'string' || surelyNfc(value)) return value
  return value.normalize('NFC') as T
}

/** Null, undefined, `[]` and `{}` are not worth storing. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return false
}

/**
 * What an upsert writes for one record, by column name, and the text it indexes.
 * @internal
 */
export interface RowValues {
  readonly idx: number
  /** Every column of the declaration (`idx` included) and `raw`. */
  readonly values: Readonly<Record<string, SQLInputValue>>
  /** The searched fields' stored values, in index order. */
  readonly search: readonly (string | null)[]
}

/**
 * The column values of a record (text in NFC; `''` for null in a NOT NULL
 * column) and its `raw` column. A record is read by its own properties only.
 * @internal
 */
export function rowValues(table: RecordTable, record: object): RowValues {
  const column = COLUMN_VALUES
  const raw = columnValues(table, record, column)
  const values: Record<string, SQLInputValue> = {}
  table.columns.forEach((f, i) => (values[f.column] = column[i]!))
  values['raw'] = raw
  return {
    idx: Number((record as Readonly<Record<string, unknown>>)['idx']),
    values,
    search: searchedValues(table, column, []),
  }
}

/** Writes a record's searched values (`''` as null) from its column values to `out`, in index order. */
function searchedValues(
  table: RecordTable,
  column: readonly SQLInputValue[],
  out: (string | null)[],
): (string | null)[] {
  const at = table.searchedAt
  out.length = at.length
  for (let i = 0; i < at.length; i += 1) out[i] = (column[at[i]!] as string | null) || null
  return out
}

/**
 * A record's values by column, reused from record to record: written by
 * index, for the caller to read before the next record ({@link columnValues}).
 */
const COLUMN_VALUES: SQLInputValue[] = []

/**
 * Writes a record's value for each of the table's columns to `out`, in
 * their order (text in NFC; `''` for null in a NOT NULL column), and
 * returns its `raw` column.
 */
function columnValues(table: RecordTable, record: object, out: SQLInputValue[]): string {
  const fields = record as Readonly<Record<string, unknown>>
  const sent: [string, unknown][] = []
  for (const f of table.blanks) if (fields[f.api] === null) sent.push([f.api, null])
  // Own properties without an array of their names (one a record, several KB a page).
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || table.inColumns.has(key) || isEmpty(fields[key])) continue
    sent.push([key, fields[key]])
  }
  const columns = table.columns
  for (let i = 0; i < columns.length; i += 1) {
    const f = columns[i]!
    const given = (fields[f.api] ?? null) as SQLInputValue
    const value = nfc(given)
    if (value !== given) sent.push([f.api, given])
    out[i] = value ?? (f.null === 'blank' || f.null === 'blank-null' ? '' : null)
  }
  // fromEntries: a `__proto__` key stays a plain own property.
  return sent.length === 0 ? '{}' : JSON.stringify(Object.fromEntries(sent))
}

/** A record's searched values ({@link appendPreparedRow}), reused from record to record. */
const SEARCHED: (string | null)[] = []

/**
 * Appends a record as {@link prepareRow} makes it to `flat`, without an
 * object for it: its `idx`, `search_key` and FTS text, then its values in
 * column order and `raw` (the encoding of `write/row-format.ts`).
 */
export function appendPreparedRow(flat: SQLInputValue[], table: RecordTable, record: object): void {
  const column = COLUMN_VALUES
  const raw = columnValues(table, record, column)
  const idx = Number((record as Readonly<Record<string, unknown>>)['idx'])
  const { key, text } = searchRow(searchedValues(table, column, SEARCHED), idx)
  flat.push(idx, key, text)
  for (let i = 0; i < table.columns.length; i += 1) flat.push(column[i]!)
  flat.push(raw)
}

/** Why a stored row cannot be read: names the table, the row and the column. */
function corrupt(table: string, row: Readonly<Record<string, unknown>>, why: string): AppError {
  return new AppError(
    'store_corrupt',
    `Stored ${table} record ${String(row['idx'])} cannot be read: ${why}.`,
  )
}

/**
 * One column of a stored row, checked against its declaration: an
 * `INTEGER` is a whole number, `TEXT` a string, null only where the
 * declaration allows it. A wrong value is a `store_corrupt` error naming the
 * table, the record and the column.
 */
function storedValue(
  table: string,
  spec: FieldSpec,
  row: Readonly<Record<string, unknown>>,
): string | number | null {
  const value = row[spec.column]
  if (value === null && spec.null === 'column') return null
  if (spec.sql === 'INTEGER' ? Number.isSafeInteger(value) : typeof value === 'string') {
    return value as string | number
  }
  throw corrupt(table, row, `column ${spec.column} holds ${value === null ? 'null' : typeof value}`)
}

/** The `raw` column of a row as an object, or a `store_corrupt` error naming the row. */
function parseStoredRaw(
  table: string,
  row: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const text = row['raw']
  if (typeof text !== 'string') throw corrupt(table, row, 'its raw column is not text')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw corrupt(table, row, 'its raw column is not JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw corrupt(table, row, 'its raw column is not a JSON object')
  }
  return parsed as Record<string, unknown>
}

/**
 * The whole parsed record back from a row (as `SELECT *` gives it), as the
 * service sent it: columns, then `raw` over them. Absent optional fields are
 * null. A row that does not match the declaration is a `store_corrupt` error
 * for that row.
 */
export function expandRecord(
  table: RecordTable,
  row: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  for (const f of table.fields) {
    record[f.api] = f.null === 'raw' ? null : storedValue(table.name, f, row)
  }
  return { ...record, raw: {}, warnings: [], ...parseStoredRaw(table.name, row) }
}

/**
 * The indexed text of a record, and its `search_key`: the
 * {@link SEARCH_FORMAT} its FTS row is built with. The row itself is a
 * function of the searched columns (and `idx`) in that format, so the writer
 * tells a changed text by those columns; a key of another format (or none)
 * has the record indexed again.
 * @internal
 */
export function searchOf(fields: readonly (string | null | undefined)[]): {
  doc: SearchDocument
  key: string
} {
  return { doc: searchDocument(fields), key: SEARCH_FORMAT }
}

/** A stored row as SQLite reads it, by column name. */
export type StoredRow = Record<string, SQLOutputValue>

/**
 * A record as the write step takes it: its row values, its `search_key` and
 * its FTS row's text. A sync makes these where it parsed the page (the page
 * thread), so the database owner, which every write waits for, only
 * compares and runs statements.
 */
export interface PreparedRow {
  readonly idx: number
  /** Every column of the declaration (`idx` included) and `raw` ({@link rowValues}). */
  readonly values: Readonly<Record<string, SQLInputValue>>
  /** `search_key`: the {@link SEARCH_FORMAT} of its FTS row's text. */
  readonly key: string
  /** The FTS row's text (`ftsText`). */
  readonly text: string
}

/** A record's {@link PreparedRow}: its values, its search key and FTS text ({@link searchRow}). */
function prepareRow(table: RecordTable, record: object): PreparedRow {
  const { idx, values, search } = rowValues(table, record)
  const { key, text } = searchRow(search, idx)
  return { idx, values, key, text }
}

/**
 * A record's `search_key` and FTS text from its searched fields' stored
 * values, `idx` indexed last (so its digits are searchable too).
 */
export function searchRow(
  search: readonly (string | null)[],
  idx: number,
): Pick<PreparedRow, 'key' | 'text'> {
  const fields = SEARCH_FIELDS
  fields.length = search.length + 1
  for (let i = 0; i < search.length; i += 1) fields[i] = search[i]!
  fields[search.length] = String(idx)
  const { doc, key } = searchOf(fields)
  return { key, text: ftsText(doc) }
}

/** {@link searchRow}'s fields, then `idx`: reused from record to record. */
const SEARCH_FIELDS: (string | null)[] = []

/** The {@link PreparedRow}s of a list's records, in their order. */
export function prepareRows(resource: PagedResource, items: readonly object[]): PreparedRow[] {
  const table = RECORD_TABLES[resource]
  return items.map((item) => prepareRow(table, item))
}

/**
 * The declared part of a listed row, each column checked against its
 * declaration (`storedValue`); `''` of a `blank-null` field is null.
 */
export function listedRow<R>(
  table: string,
  fields: readonly FieldSpec[],
  r: Record<string, unknown>,
): R {
  const row: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.row === undefined) continue
    const value = storedValue(table, f, r)
    row[f.row] = f.null === 'blank-null' && value === '' ? null : value
  }
  // Built from the same declaration as the row type (`RowOf`).
  return row as R
}
