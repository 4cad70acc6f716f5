import type { DatabaseSync } from 'node:sqlite'

/** Review marks are signed: the reviewer's name from the settings when the mark was set. */
export function up(db: DatabaseSync): void {
  db.exec('ALTER TABLE review_marks ADD COLUMN reviewed_by TEXT')
}
