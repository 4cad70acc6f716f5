import type { DatabaseSync } from 'node:sqlite'

/**
 * A record's review history on this machine (docs/team.md "Review
 * history"): every mark and note change made here while the profile has no
 * team server, who (the reviewer's name in Settings) and when (ISO time),
 * in the order they were made. With a team server the team's events
 * (`team_review_events`) are the history instead. Marks set before this
 * version have no entry: only their last state is known.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE review_history (
      n INTEGER PRIMARY KEY,
      resource TEXT NOT NULL,
      record_idx INTEGER NOT NULL,
      mark TEXT NOT NULL,
      note TEXT NOT NULL,
      reviewed_by TEXT,
      client_time TEXT NOT NULL
    ) STRICT;
    CREATE INDEX review_history_by_record ON review_history (resource, record_idx, n);
  `)
}
