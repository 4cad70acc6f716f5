import type { DatabaseSync } from 'node:sqlite'

/**
 * Sharing with a team server (docs/team.md). `team_outbox` holds the events
 * not yet acknowledged by the server, oldest first, each as its JSON draft
 * under its client-made UUID. `team_state` holds single values: the last
 * server sequence number applied, whether the profile has a team server, and
 * who this machine is there. `team_review_events` keeps every review event of
 * every record, local ones (no `seq` until the server numbered them) and
 * pulled ones; `review_marks` gains the current event's number, its author's
 * login role, and a flag naming who changed a mark this machine had set
 * without having seen it. `wallet_links` gains the event id and the name of the member who ran the
 * flow.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE team_outbox (
      n INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      draft TEXT NOT NULL
    ) STRICT;

    CREATE TABLE team_state (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE team_review_events (
      id TEXT PRIMARY KEY,
      resource TEXT NOT NULL,
      record_idx INTEGER NOT NULL,
      mark TEXT NOT NULL,
      note TEXT NOT NULL,
      author TEXT,
      author_name TEXT,
      client_time TEXT NOT NULL,
      based_on_seq INTEGER,
      seq INTEGER UNIQUE,
      server_time TEXT
    ) STRICT;
    CREATE INDEX team_review_events_by_record ON team_review_events (resource, record_idx, seq);

    ALTER TABLE review_marks ADD COLUMN team_seq INTEGER;
    ALTER TABLE review_marks ADD COLUMN team_author TEXT;
    ALTER TABLE review_marks ADD COLUMN changed_while_away TEXT;

    ALTER TABLE wallet_links ADD COLUMN event_id TEXT;
    ALTER TABLE wallet_links ADD COLUMN author TEXT;
    CREATE UNIQUE INDEX wallet_links_by_event ON wallet_links (event_id);
  `)
}
