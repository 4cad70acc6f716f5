import type { DatabaseSync } from 'node:sqlite'

/**
 * An outbox event the team server refused for its content (or that failed
 * the client's own check) is set aside instead of blocking the events after
 * it (docs/team.md "Events set aside"): `set_aside` holds why, as JSON
 * (`reason`, `sqlState`, `at`), and the push skips the row until a person
 * discards it.
 */
export function up(db: DatabaseSync): void {
  db.exec(`ALTER TABLE team_outbox ADD COLUMN set_aside TEXT;`)
}
