import type { DatabaseSync } from 'node:sqlite'

/**
 * Assignments (docs/team.md "Assignment"): every assignment event of every
 * record, this machine's (unnumbered until the server numbered them) and
 * pulled ones, and each record's current assignee (a record assigned to
 * nobody has no row).
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE team_assignment_events (
      id TEXT PRIMARY KEY,
      resource TEXT NOT NULL,
      record_idx INTEGER NOT NULL,
      assignee TEXT,
      author TEXT NOT NULL,
      client_time TEXT NOT NULL,
      based_on_seq INTEGER,
      seq INTEGER,
      server_time TEXT,
      restores_id TEXT
    );
    CREATE INDEX team_assignment_events_record ON team_assignment_events (resource, record_idx);
    CREATE TABLE record_assignments (
      resource TEXT NOT NULL,
      record_idx INTEGER NOT NULL,
      assignee TEXT NOT NULL,
      assigned_by TEXT NOT NULL,
      assigned_at TEXT NOT NULL,
      event_id TEXT NOT NULL,
      team_seq INTEGER,
      PRIMARY KEY (resource, record_idx)
    ) WITHOUT ROWID;
    CREATE INDEX record_assignments_assignee ON record_assignments (assignee, resource, record_idx);
  `)
}
