import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite'
import type { BrandRecord, GuaranteeRecord, InspectionRecord } from './records'
import { SEARCH_FORMAT, type SearchDocument } from './search-text'
import {
  GUARANTEE_SEARCH_COLUMNS,
  guaranteeRaw,
  guaranteeSearchFields,
  INSPECTION_SEARCH_COLUMNS,
  inspectionRaw,
  inspectionSearchFields,
  searchOf,
} from './stored-raw'

/**
 * Writes of synced records. Callers wrap a page in one `transaction()`;
 * these functions only prepare (once per connection) and run statements.
 */

interface Statements {
  /** The upsert of each table: `idx`, the stored columns, `seen_pass`, `stored_at`, `search_key`. */
  readonly upsert: Record<string, StatementSync>
  /** A stored record's `search_key` and {@link STORED_COLUMNS}. */
  readonly previous: Record<string, StatementSync>
  /** Marks an unchanged record seen: only `seen_pass`, `gone_at`, `stored_at`. */
  readonly touch: Record<string, StatementSync>
  readonly ftsDelete: Record<string, StatementSync>
  readonly ftsInsert: Record<string, StatementSync>
  readonly brand: StatementSync
}

/** The record columns an upsert writes after `idx`, in the order of its parameters. */
const STORED_COLUMNS = {
  guarantees: [
    'status',
    'product_name',
    'card_url',
    'ref_user_id',
    'ref_order_id',
    'ref_order_detail_id',
    'ref_product_code',
    'ref_category_code',
    'ref_brand_code',
    'registered_at',
    'modified_at',
    'raw',
  ],
  inspections: [
    'inspection_num',
    'status',
    'result',
    'product_name',
    'ref_user_id',
    'ref_order_id',
    'ref_order_detail_id',
    'ref_product_code',
    'registered_at',
    'modified_at',
    'raw',
  ],
} as const

const cache = new WeakMap<DatabaseSync, Statements>()
const versions = new WeakMap<DatabaseSync, number>()

/** A counter bumped by every write, so cached counts know when they are stale. */
export function dataVersion(db: DatabaseSync): number {
  return versions.get(db) ?? 0
}

/** Marks the data as changed (every write function calls this). */
export function bumpDataVersion(db: DatabaseSync): void {
  versions.set(db, dataVersion(db) + 1)
}

function statements(db: DatabaseSync): Statements {
  let found = cache.get(db)
  if (found) return found
  const ftsDelete: Record<string, StatementSync> = {}
  const ftsInsert: Record<string, StatementSync> = {}
  const previous: Record<string, StatementSync> = {}
  const touch: Record<string, StatementSync> = {}
  for (const table of ['guarantees', 'inspections'] as const) {
    previous[table] = db.prepare(
      `SELECT search_key, ${STORED_COLUMNS[table].join(', ')} FROM ${table} WHERE idx = ?`,
    )
    touch[table] = db.prepare(
      `UPDATE ${table} SET seen_pass = max(seen_pass, ?), gone_at = NULL, stored_at = ?
       WHERE idx = ?`,
    )
    ftsDelete[table] = db.prepare(`DELETE FROM ${table}_fts WHERE rowid = ?`)
    ftsInsert[table] = db.prepare(`INSERT INTO ${table}_fts (rowid, t, c) VALUES (?, ?, ?)`)
  }
  const upsert: Record<string, StatementSync> = {
    guarantees: db.prepare(`
      INSERT INTO guarantees (idx, status, product_name, card_url, ref_user_id, ref_order_id,
        ref_order_detail_id, ref_product_code, ref_category_code, ref_brand_code, registered_at,
        modified_at, raw, seen_pass, gone_at, stored_at, search_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
      ON CONFLICT (idx) DO UPDATE SET status = excluded.status,
        product_name = excluded.product_name, card_url = excluded.card_url,
        ref_user_id = excluded.ref_user_id, ref_order_id = excluded.ref_order_id,
        ref_order_detail_id = excluded.ref_order_detail_id,
        ref_product_code = excluded.ref_product_code, ref_category_code = excluded.ref_category_code,
        ref_brand_code = excluded.ref_brand_code, registered_at = excluded.registered_at,
        modified_at = excluded.modified_at, raw = excluded.raw,
        seen_pass = max(seen_pass, excluded.seen_pass), gone_at = NULL,
        stored_at = excluded.stored_at, search_key = excluded.search_key`),
    inspections: db.prepare(`
      INSERT INTO inspections (idx, inspection_num, status, result, product_name, ref_user_id,
        ref_order_id, ref_order_detail_id, ref_product_code, registered_at, modified_at, raw,
        seen_pass, gone_at, stored_at, search_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)
      ON CONFLICT (idx) DO UPDATE SET inspection_num = excluded.inspection_num,
        status = excluded.status, result = excluded.result, product_name = excluded.product_name,
        ref_user_id = excluded.ref_user_id, ref_order_id = excluded.ref_order_id,
        ref_order_detail_id = excluded.ref_order_detail_id,
        ref_product_code = excluded.ref_product_code, registered_at = excluded.registered_at,
        modified_at = excluded.modified_at, raw = excluded.raw,
        seen_pass = max(seen_pass, excluded.seen_pass), gone_at = NULL,
        stored_at = excluded.stored_at, search_key = excluded.search_key`),
  }
  found = {
    upsert,
    previous,
    touch,
    ftsDelete,
    ftsInsert,
    brand: db.prepare(`
      INSERT INTO brands (idx, name, english_name, position, raw, seen_pass, gone_at)
      VALUES (?, ?, ?, ?, ?, ?, NULL)
      ON CONFLICT (idx) DO UPDATE SET name = excluded.name, english_name = excluded.english_name,
        position = excluded.position, raw = excluded.raw, seen_pass = excluded.seen_pass,
        gone_at = NULL`),
  }
  cache.set(db, found)
  return found
}

/** The search part of a write: a stored key is reused when the indexed fields did not change. */
interface Search {
  /** Null when the key was reused (nothing to index). */
  readonly doc: SearchDocument | null
  readonly key: string
}

type StoredRow = Record<string, SQLOutputValue>

/** The stored columns of each table's searchable fields, in index order. */
const SEARCH_COLUMNS = {
  guarantees: GUARANTEE_SEARCH_COLUMNS,
  inspections: INSPECTION_SEARCH_COLUMNS,
} as const

/** True when every searchable field equals its stored column (null and '' index alike). */
function sameSearchFields(
  row: StoredRow,
  columns: readonly string[],
  fields: readonly (string | null | undefined)[],
): boolean {
  for (let i = 0; i < fields.length; i += 1) {
    if ((row[columns[i]!] || '') !== (fields[i] || '')) return false
  }
  return true
}

/** True when every value an upsert would write equals the stored one. */
function sameRow(row: StoredRow, columns: readonly string[], values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i += 1) if (row[columns[i]!] !== values[i]) return false
  return true
}

/**
 * Writes one record: an unchanged one (most of a re-sync) is only marked
 * seen, without rewriting the row, its indexes or its FTS row; a changed
 * one is upserted, and its FTS row rewritten only when its indexed text
 * changed. A stored `search_key` counts only with the current
 * {@link SEARCH_FORMAT}; otherwise the document is built and compared. The
 * record's `idx` is indexed too, so its digits are searchable.
 */
function writeRecord(
  s: Statements,
  table: 'guarantees' | 'inspections',
  idx: number,
  values: readonly SQLInputValue[],
  fields: readonly (string | null | undefined)[],
  pass: number,
  storedAt: string,
): void {
  const row = s.previous[table]?.get(idx) as StoredRow | undefined
  const previousKey = row === undefined ? undefined : ((row['search_key'] as string | null) ?? null)
  const current = previousKey?.startsWith(SEARCH_FORMAT) === true
  if (row !== undefined && current && sameRow(row, STORED_COLUMNS[table], values)) {
    s.touch[table]?.run(pass, storedAt, idx)
    return
  }
  const search: Search =
    row !== undefined && current && sameSearchFields(row, SEARCH_COLUMNS[table], fields)
      ? { doc: null, key: previousKey! }
      : searchOf([...fields, String(idx)])
  s.upsert[table]?.run(idx, ...values, pass, storedAt, search.key)
  writeSearch(s, table, idx, previousKey, search)
}

/**
 * Rewrites a record's FTS row only when its indexed text changed: a new
 * record is inserted, a changed one replaced, an unchanged one (most of a
 * re-sync) left alone.
 */
function writeSearch(
  s: Statements,
  table: string,
  idx: number,
  previousKey: string | null | undefined,
  search: Search,
): void {
  if (previousKey === search.key || search.doc === null) return
  if (previousKey !== undefined) s.ftsDelete[table]?.run(idx)
  s.ftsInsert[table]?.run(idx, search.doc.t, search.doc.c)
}

/** Upserts guarantees seen in sync pass `pass`; run inside a transaction. */
export function upsertGuarantees(
  db: DatabaseSync,
  items: readonly GuaranteeRecord[],
  pass: number,
  storedAt: string,
): void {
  const s = statements(db)
  for (const g of items) {
    const values = [
      g.status,
      g.productName,
      g.nftCardImg ?? '',
      g.refUserId ?? null,
      g.refOrderId ?? null,
      g.refOrderDetailId ?? null,
      g.refProductCode ?? null,
      g.refCategoryCode ?? null,
      g.refBrandCode ?? null,
      g.registeredAt ?? '',
      g.modifiedAt,
      guaranteeRaw(g),
    ]
    writeRecord(s, 'guarantees', g.idx, values, guaranteeSearchFields(g), pass, storedAt)
  }
  bumpDataVersion(db)
}

/** Upserts inspections seen in sync pass `pass`; run inside a transaction. */
export function upsertInspections(
  db: DatabaseSync,
  items: readonly InspectionRecord[],
  pass: number,
  storedAt: string,
): void {
  const s = statements(db)
  for (const i of items) {
    const values = [
      i.inspectionNum,
      i.inspectionStatus ?? null,
      i.inspectionResult ?? null,
      i.productName,
      i.refUserId ?? '',
      i.refOrderId ?? '',
      i.refOrderDetailId ?? '',
      i.refProductCode ?? '',
      i.registeredAt ?? '',
      i.modifiedAt,
      inspectionRaw(i),
    ]
    writeRecord(s, 'inspections', i.idx, values, inspectionSearchFields(i), pass, storedAt)
  }
  bumpDataVersion(db)
}

/** Replaces the brand list (it is small and always fetched whole); run inside a transaction. */
export function replaceBrands(
  db: DatabaseSync,
  items: readonly BrandRecord[],
  pass: number,
  goneAt: string,
): void {
  const s = statements(db)
  items.forEach((b, position) =>
    s.brand.run(b.idx, b.name, b.englishName, position, JSON.stringify(b), pass),
  )
  db.prepare('UPDATE brands SET gone_at = ? WHERE seen_pass < ? AND gone_at IS NULL').run(
    goneAt,
    pass,
  )
  bumpDataVersion(db)
}

/**
 * After a complete, consistent full pass: marks records the service no longer
 * returned (not seen in `pass`) as gone, instead of deleting them.
 */
export function markUnseenGone(
  db: DatabaseSync,
  table: 'guarantees' | 'inspections',
  pass: number,
  goneAt: string,
): number {
  const result = db
    .prepare(`UPDATE ${table} SET gone_at = ? WHERE seen_pass < ? AND gone_at IS NULL`)
    .run(goneAt, pass)
  bumpDataVersion(db)
  return Number(result.changes)
}
