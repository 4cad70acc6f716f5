import type { DatabaseSync } from 'node:sqlite'

/**
 * For a faster sync write step (see `docs/store-and-sync.md`).
 *
 * The insert triggers of migration 7 go: a trigger program run for every
 * inserted record is a large share of the sync's write step. The writer
 * (`writes.ts`) adds new records to `list_counts`, `list_day_counts`
 * and `list_order` itself, once per page. The update and delete triggers
 * stay: they fire only when a stored record's status, registration time or
 * gone state changes, or a record is deleted, which a sync rarely does.
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    DROP TRIGGER IF EXISTS guarantees_insert;
    DROP TRIGGER IF EXISTS inspections_insert;
  `)
}
