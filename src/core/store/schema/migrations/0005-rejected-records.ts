import type { DatabaseSync } from 'node:sqlite'

/**
 * Refused records are kept, not only counted: one row per record a sync
 * refused (its `idx` when readable, the page and position it came in, the
 * first wrong field and why, every problem as a JSON array of text, and the
 * item as sent, cut to a few KB). Newest first by `id`; looked up by
 * (resource, idx) so a record that comes back valid is cleared.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE rejected_records (
      id INTEGER PRIMARY KEY,
      resource TEXT NOT NULL,
      idx INTEGER,
      page INTEGER NOT NULL,
      position INTEGER NOT NULL,
      field TEXT NOT NULL,
      reason TEXT NOT NULL,
      problems TEXT NOT NULL,
      raw TEXT NOT NULL,
      raw_truncated INTEGER NOT NULL,
      rejected_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX rejected_records_by_idx ON rejected_records (resource, idx);
    CREATE INDEX rejected_records_newest ON rejected_records (resource, id);
  `)
}
