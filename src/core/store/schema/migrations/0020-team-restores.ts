import type { DatabaseSync } from 'node:sqlite'

/**
 * An undo is a new review event that brings back an earlier state
 * (docs/team.md "Undo"): `restores_id` names the event it restores, so the
 * record shows that event's author and time again.
 */
export function up(db: DatabaseSync): void {
  db.exec(`ALTER TABLE team_review_events ADD COLUMN restores_id TEXT;`)
}
