import type { DatabaseSync } from 'node:sqlite'
import {
  guaranteeRaw,
  guaranteeSearchFields,
  inspectionRaw,
  inspectionSearchFields,
  searchOf,
} from '../stored-raw'
import type { GuaranteeRecord, InspectionRecord } from '../records'

/** Rows read and rewritten per step, so no statement scans a table it is updating. */
const CHUNK = 1000

interface Table {
  readonly name: 'guarantees' | 'inspections'
  /** The typed columns, selected under the record's field names. */
  readonly columns: string
  readonly compact: (record: never) => string
  readonly fields: (record: never) => (string | null | undefined)[]
}

const TABLES: readonly Table[] = [
  {
    name: 'guarantees',
    columns: `product_name AS productName, ref_user_id AS refUserId, ref_order_id AS refOrderId,
      ref_order_detail_id AS refOrderDetailId, ref_product_code AS refProductCode,
      ref_category_code AS refCategoryCode, ref_brand_code AS refBrandCode`,
    compact: (record: GuaranteeRecord) => guaranteeRaw(record),
    fields: (record: GuaranteeRecord) => guaranteeSearchFields(record),
  },
  {
    name: 'inspections',
    columns: `product_name AS productName, inspection_num AS inspectionNum,
      ref_user_id AS refUserId, ref_order_id AS refOrderId,
      ref_order_detail_id AS refOrderDetailId, ref_product_code AS refProductCode`,
    compact: (record: InspectionRecord) => inspectionRaw(record),
    fields: (record: InspectionRecord) => inspectionSearchFields(record),
  },
]

/**
 * A smaller file, nothing lost: `raw` keeps only what the typed columns do
 * not hold (format in `../stored-raw.ts`; it was the whole parsed record),
 * and the FTS tables become contentless (`content = ''`, deletes allowed),
 * since queries only ask them for rowids. Existing rows are rewritten and
 * re-indexed from their typed columns with the same fields and `search_key`
 * a write computes, so search works at once and a re-sync skips them.
 */
export function up(db: DatabaseSync): void {
  for (const table of TABLES) {
    db.exec(`
      DROP TABLE ${table.name}_fts;
      CREATE VIRTUAL TABLE ${table.name}_fts USING fts5(
        t, c, tokenize = 'unicode61', content = '', contentless_delete = 1
      );
    `)
    const read = db.prepare(
      `SELECT idx, raw, ${table.columns} FROM ${table.name} WHERE idx > ? ORDER BY idx LIMIT ?`,
    )
    const update = db.prepare(`UPDATE ${table.name} SET raw = ?, search_key = ? WHERE idx = ?`)
    const index = db.prepare(`INSERT INTO ${table.name}_fts (rowid, t, c) VALUES (?, ?, ?)`)
    let after = -Infinity
    for (;;) {
      const rows = read.all(after, CHUNK) as ({ idx: number; raw: string } & Record<
        string,
        string | null
      >)[]
      for (const row of rows) {
        const search = searchOf(table.fields(row as never))
        update.run(compactOf(row.raw, table), search.key, row.idx)
        index.run(row.idx, search.doc.t, search.doc.c)
      }
      if (rows.length < CHUNK) break
      after = rows.at(-1)!.idx
    }
    db.exec(`INSERT INTO ${table.name}_fts (${table.name}_fts) VALUES ('optimize')`)
  }
}

/** The compact form of a version-2 `raw` (the whole record); anything unreadable is kept as it was. */
function compactOf(raw: string, table: Table): string {
  let record: unknown
  try {
    record = JSON.parse(raw)
  } catch {
    return raw
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return raw
  return table.compact(record as never)
}
