import type { StoreConnection } from '../connection'
import { bumpDataVersion } from '../data-version'
import { RECORD_TABLES, searchRow, type StoredRow } from '../schema/stored-raw'

/** Rows indexed per step of {@link indexUnindexed}. */
const INDEX_CHUNK = 1000

/**
 * Indexes every record without a `search_key` (none after a migration that
 * cleared the index) with the running app's search code, in chunks; returns
 * how many. Run inside a transaction.
 */
export function indexUnindexed(db: StoreConnection): number {
  let indexed = 0
  for (const table of Object.values(RECORD_TABLES)) {
    const columns = table.searched.map((f) => f.column)
    const read = db.prepare(
      `SELECT idx, ${columns.join(', ')} FROM ${table.name}
       WHERE search_key IS NULL AND idx > ? ORDER BY idx LIMIT ?`,
    )
    const setKey = db.prepare(`UPDATE ${table.name} SET search_key = ? WHERE idx = ?`)
    const insert = db.prepare(`INSERT INTO ${table.name}_fts (rowid, t) VALUES (?, ?)`)
    let after = -Infinity
    for (;;) {
      const rows = read.all(after, INDEX_CHUNK) as StoredRow[]
      for (const row of rows) {
        const idx = Number(row['idx'])
        const { key, text } = searchRow(
          columns.map((c) => row[c] as string | null),
          idx,
        )
        setKey.run(key, idx)
        insert.run(idx, text)
      }
      indexed += rows.length
      if (rows.length < INDEX_CHUNK) break
      after = Number(rows.at(-1)!['idx'])
    }
  }
  if (indexed > 0) bumpDataVersion(db)
  return indexed
}
