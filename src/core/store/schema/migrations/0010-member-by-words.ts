import type { DatabaseSync } from 'node:sqlite'

/**
 * A member filter finds its rows through the search index (the member id's
 * words), then compares the exact id: the index by member goes, and with it
 * its random inserts during a sync and its share of the file (see
 * `docs/store-and-sync.md`).
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    DROP INDEX IF EXISTS guarantees_by_member;
    DROP INDEX IF EXISTS inspections_by_member;
  `)
}
