import type { DatabaseSync } from 'node:sqlite'

/**
 * The record tables lose `stored_at` (the time of the write that last
 * touched a row): nothing reads it, and it took about a tenth of a
 * guarantee's row. `seen_pass` still tells which pass saw a record last.
 * Every row is rewritten, so the file is rebuilt afterwards (`vacuumAfter`).
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE guarantees DROP COLUMN stored_at;
    ALTER TABLE inspections DROP COLUMN stored_at;
  `)
}
