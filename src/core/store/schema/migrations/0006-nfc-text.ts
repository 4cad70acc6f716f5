import type { DatabaseSync, SQLInputValue } from 'node:sqlite'

/*
 * Frozen: imports nothing of the app. The columns and API names are those of
 * schema 5, spelled out here.
 */

/** Rows read per step (by `idx`), so no statement scans a table it rewrites. */
const STEP = 1000

/** The text columns of each record table at schema 5, with the API name of each. */
const TEXT_COLUMNS: Readonly<
  Record<'guarantees' | 'inspections', Readonly<Record<string, string>>>
> = {
  guarantees: {
    status: 'status',
    product_name: 'productName',
    card_url: 'nftCardImg',
    ref_user_id: 'refUserId',
    ref_order_id: 'refOrderId',
    ref_order_detail_id: 'refOrderDetailId',
    ref_product_code: 'refProductCode',
    ref_category_code: 'refCategoryCode',
    ref_brand_code: 'refBrandCode',
    registered_at: 'registeredAt',
    modified_at: 'modifiedAt',
  },
  inspections: {
    inspection_num: 'inspectionNum',
    status: 'inspectionStatus',
    result: 'inspectionResult',
    product_name: 'productName',
    ref_user_id: 'refUserId',
    ref_order_id: 'refOrderId',
    ref_order_detail_id: 'refOrderDetailId',
    ref_product_code: 'refProductCode',
    registered_at: 'registeredAt',
    modified_at: 'modifiedAt',
  },
}

/**
 * Stored text becomes NFC: Korean a service sent decomposed (NFD) was
 * stored as sent and rendered as broken glyphs. A record row whose text
 * columns change gets the values as sent added to its `raw` JSON under
 * their API names (unless `raw` already names them), so the record as sent
 * is kept; its search text does not change (the index folds to NFC
 * already). Brand names change in place (their `raw` is the whole record as
 * sent). A `raw` that is not a JSON object is left as it is.
 */
export function up(db: DatabaseSync): void {
  for (const [table, apiOf] of Object.entries(TEXT_COLUMNS)) {
    const columns = Object.keys(apiOf)
    const read = db.prepare(
      `SELECT idx, raw, ${columns.join(', ')} FROM ${table} WHERE idx > ? ORDER BY idx LIMIT ?`,
    )
    let after = -Infinity
    let batch: Record<string, SQLInputValue>[]
    do {
      batch = read.all(after, STEP) as Record<string, SQLInputValue>[]
      for (const row of batch) {
        const changed = columns.filter(
          (c) => typeof row[c] === 'string' && row[c] !== row[c].normalize('NFC'),
        )
        if (changed.length > 0) rewrite(db, table, apiOf, row, changed)
      }
      after = Number(batch.at(-1)?.['idx'] ?? after)
    } while (batch.length === STEP)
  }
  const brands = db.prepare('SELECT idx, name, english_name FROM brands').all() as {
    idx: number
    name: string
    english_name: string
  }[]
  const setBrand = db.prepare('UPDATE brands SET name = ?, english_name = ? WHERE idx = ?')
  for (const brand of brands) {
    const name = brand.name.normalize('NFC')
    const english = brand.english_name.normalize('NFC')
    if (name !== brand.name || english !== brand.english_name)
      setBrand.run(name, english, brand.idx)
  }
}

function rewrite(
  db: DatabaseSync,
  table: string,
  apiOf: Readonly<Record<string, string>>,
  row: Record<string, SQLInputValue>,
  changed: readonly string[],
): void {
  let raw: unknown = null
  try {
    raw = JSON.parse(String(row['raw']))
  } catch {
    // left as it is
  }
  const sent = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : null
  const entries = Object.entries(sent ?? {})
  for (const column of changed) {
    const api = apiOf[column]!
    if (!Object.hasOwn(sent ?? {}, api)) entries.push([api, row[column]])
  }
  const sets = changed.map((c) => `${c} = :${c}`)
  db.prepare(`UPDATE ${table} SET ${sets.join(', ')}, raw = :raw WHERE idx = :idx`).run({
    ...Object.fromEntries(changed.map((c) => [c, String(row[c]).normalize('NFC')])),
    raw: sent === null ? String(row['raw']) : JSON.stringify(Object.fromEntries(entries)),
    idx: row['idx']!,
  })
}
