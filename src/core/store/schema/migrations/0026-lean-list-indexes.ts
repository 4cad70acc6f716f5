import type { DatabaseSync } from 'node:sqlite'

/**
 * The lists' time and status indexes without `idx` as a column of their
 * own: `idx` is each list's rowid, which SQLite appends to every index
 * entry, so `(registered_at, idx)` held it twice. `<list>_by_time` on
 * `(registered_at)` and `<list>_by_status` on `(status, registered_at)`
 * keep the same order (the rowid last) and serve the same keyset ranges
 * `(registered_at, idx) > (?, ?)`.
 */
export function up(db: DatabaseSync): void {
  for (const table of ['inspections', 'guarantees']) {
    db.exec(`
      DROP INDEX ${table}_by_time;
      CREATE INDEX ${table}_by_time ON ${table} (registered_at);
      DROP INDEX ${table}_by_status;
      CREATE INDEX ${table}_by_status ON ${table} (status, registered_at);
    `)
  }
}
