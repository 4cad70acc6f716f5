import type { DatabaseSync } from 'node:sqlite'

/**
 * `sync_state.page_size`: the page size the service was found to take for
 * a list (the cap it applied to a larger ask), so the next sync of that list
 * asks for it at once. Null until a service capped a page.
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`ALTER TABLE sync_state ADD COLUMN page_size INTEGER;`)
}
