import type { DatabaseSync } from 'node:sqlite'

/*
 * Frozen: this file imports nothing of the app. The record format it reads
 * (schema 2: `raw` = the whole parsed record) and the one it writes (schema
 * 3) are spelled out here as they were, so a later change to the live
 * record code cannot change what this step does to an old file.
 */

/** Rows read and rewritten per step, so no statement scans a table it is updating. */
const CHUNK = 1000

/**
 * Per table: the parsed record's fields that schema 3 keeps in typed
 * columns, and, of those, the ones whose NOT NULL column stores `''` for
 * null (so `raw` must say null).
 */
const SCHEMA_3 = {
  guarantees: {
    columns:
      'idx status productName nftCardImg refUserId refOrderId refOrderDetailId refProductCode refCategoryCode refBrandCode registeredAt modifiedAt',
    blankForNull: 'nftCardImg registeredAt',
  },
  inspections: {
    columns:
      'idx inspectionNum inspectionStatus inspectionResult productName refUserId refOrderId refOrderDetailId refProductCode registeredAt modifiedAt',
    blankForNull: 'refUserId refOrderId refOrderDetailId refProductCode registeredAt',
  },
} as const

/**
 * Schema 3's `raw`: only what the typed columns do not hold, null and empty
 * values (`[]`, `{}`) left out, plus an explicit null for a blank-for-null
 * field; `{}` when nothing is left.
 */
function schema3Raw(record: Record<string, unknown>, table: keyof typeof SCHEMA_3): string {
  const inColumns = new Set(SCHEMA_3[table].columns.split(' '))
  const kept = SCHEMA_3[table].blankForNull
    .split(' ')
    .filter((name) => record[name] === null)
    .map((name): [string, unknown] => [name, null])
  for (const [name, value] of Object.entries(record)) {
    if (inColumns.has(name) || value === null || value === undefined) continue
    const size = Array.isArray(value)
      ? value.length
      : typeof value === 'object'
        ? Object.keys(value).length
        : 1
    if (size > 0) kept.push([name, value])
  }
  // fromEntries: a `__proto__` key stays a plain own property.
  return kept.length > 0 ? JSON.stringify(Object.fromEntries(kept)) : '{}'
}

/** The schema-3 form of a schema-2 `raw`; anything unreadable is kept as it was. */
function compacted(raw: string, table: keyof typeof SCHEMA_3): string {
  try {
    const record: unknown = JSON.parse(raw)
    if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
      return schema3Raw(record as Record<string, unknown>, table)
    }
  } catch {
    // not JSON: kept as it was
  }
  return raw
}

/**
 * A smaller file, nothing lost: `raw` keeps only what the typed columns do
 * not hold (it was the whole parsed record), and the FTS tables become
 * contentless (`content = ''`, deletes allowed), since queries only ask
 * them for rowids. The search index is emptied and every `search_key`
 * cleared: the store re-indexes rows without a key right after migrating,
 * with the search code of the running app.
 */
export function up(db: DatabaseSync): void {
  for (const table of ['guarantees', 'inspections'] as const) {
    db.exec(`
      DROP TABLE ${table}_fts;
      CREATE VIRTUAL TABLE ${table}_fts USING fts5(
        t, c, tokenize = 'unicode61', content = '', contentless_delete = 1
      );
    `)
    const read = db.prepare(`SELECT idx, raw FROM ${table} WHERE idx > ? ORDER BY idx LIMIT ?`)
    const update = db.prepare(`UPDATE ${table} SET raw = ?, search_key = NULL WHERE idx = ?`)
    let after = -Infinity
    let rows: { idx: number; raw: string }[]
    do {
      rows = read.all(after, CHUNK) as { idx: number; raw: string }[]
      for (const { idx, raw } of rows) update.run(compacted(raw, table), idx)
      after = rows.at(-1)?.idx ?? after
    } while (rows.length === CHUNK)
  }
}
