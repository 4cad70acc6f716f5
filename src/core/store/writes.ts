import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { BrandRecord, GuaranteeRecord, InspectionRecord } from './records'
import type { SearchDocument } from './search-text'
import { SEARCH_FORMAT } from './search-text'
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
  readonly guarantee: StatementSync
  readonly inspection: StatementSync
  /** A stored record's `search_key` and searchable columns (as `f0`, `f1`, …). */
  readonly previous: Record<string, StatementSync>
  readonly ftsDelete: Record<string, StatementSync>
  readonly ftsInsert: Record<string, StatementSync>
  readonly brand: StatementSync
}

/** Aliases of the searchable columns in {@link Statements.previous}. */
const FIELD_NAMES = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6'] as const

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
  for (const table of ['guarantees', 'inspections']) {
    const columns = table === 'guarantees' ? GUARANTEE_SEARCH_COLUMNS : INSPECTION_SEARCH_COLUMNS
    previous[table] = db.prepare(
      `SELECT search_key, ${columns.map((c, i) => `${c} AS ${FIELD_NAMES[i]}`).join(', ')}
       FROM ${table} WHERE idx = ?`,
    )
    ftsDelete[table] = db.prepare(`DELETE FROM ${table}_fts WHERE rowid = ?`)
    ftsInsert[table] = db.prepare(`INSERT INTO ${table}_fts (rowid, t, c) VALUES (?, ?, ?)`)
  }
  found = {
    guarantee: db.prepare(`
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
    inspection: db.prepare(`
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
    previous,
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

/**
 * The record's `search_key` before this write (undefined for a new record)
 * and its search now. When every searchable field equals the stored column
 * and the stored key has the current {@link SEARCH_FORMAT}, the key is
 * reused without building the document (most of a re-sync).
 */
function searchFor(
  s: Statements,
  table: string,
  idx: number,
  fields: readonly (string | null | undefined)[],
): { previousKey: string | null | undefined; search: Search } {
  const row = s.previous[table]?.get(idx) as Record<string, string | null> | undefined
  if (row === undefined) return { previousKey: undefined, search: searchOf(fields) }
  const previousKey = row['search_key'] ?? null
  if (previousKey?.startsWith(SEARCH_FORMAT)) {
    let same = true
    for (let i = 0; i < fields.length && same; i += 1) {
      // searchDocument skips empty fields: null and '' index alike.
      same = (row[FIELD_NAMES[i]!] || '') === (fields[i] || '')
    }
    if (same) return { previousKey, search: { doc: null, key: previousKey } }
  }
  return { previousKey, search: searchOf(fields) }
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
    const { previousKey, search } = searchFor(s, 'guarantees', g.idx, guaranteeSearchFields(g))
    s.guarantee.run(
      g.idx,
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
      pass,
      storedAt,
      search.key,
    )
    writeSearch(s, 'guarantees', g.idx, previousKey, search)
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
    const { previousKey, search } = searchFor(s, 'inspections', i.idx, inspectionSearchFields(i))
    s.inspection.run(
      i.idx,
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
      pass,
      storedAt,
      search.key,
    )
    writeSearch(s, 'inspections', i.idx, previousKey, search)
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
