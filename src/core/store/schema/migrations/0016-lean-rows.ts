import type { DatabaseSync } from 'node:sqlite'

/**
 * Leaner record rows (see `docs/store-and-sync.md`, "Store"):
 *
 * - `stored_at` goes (the time of the write that last touched a row):
 *   nothing reads it, and it took about a tenth of a guarantee's row.
 *   `seen_pass` still tells which pass saw a record last.
 * - `search_key` keeps only the search format its FTS row was built with
 *   (`5.`), not a hash of the text: the writer tells a changed text by the
 *   searched columns, which it compares anyway. A key of format `5.` (its
 *   hash matched the row's text) becomes `5.`; any other is left, so its
 *   record is indexed again as before.
 *
 * Every row is rewritten, so the file is rebuilt afterwards (`vacuumAfter`).
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  for (const table of ['guarantees', 'inspections']) {
    db.exec(`
      ALTER TABLE ${table} DROP COLUMN stored_at;
      UPDATE ${table} SET search_key = '5.' WHERE substr(search_key, 1, 2) = '5.';
    `)
  }
}
