import type { DatabaseSync } from 'node:sqlite'

/**
 * A member filter finds its rows through the search index (the member id's
 * words), then compares the exact id: the index by member goes. Its random
 * inserts cost the sync's write step about 13 µs a record, and the file
 * about 5 MB per 100,000 records (see `docs/store-and-sync.md`).
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    DROP INDEX IF EXISTS guarantees_by_member;
    DROP INDEX IF EXISTS inspections_by_member;
  `)
}
