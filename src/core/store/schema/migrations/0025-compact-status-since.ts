import type { DatabaseSync } from 'node:sqlite'

/**
 * `status_since` in a compact form (docs/store-and-sync.md "Aging"): every
 * record held has a row, so its bytes count once per record, in the table
 * and again in its aging index. The list is a number (`0` inspections,
 * `1` guarantees: SQLite stores both in the row's header alone), the status
 * a small number from `status_codes` (one row per status text, `''` for
 * none), `since` the instant in milliseconds since 1970 (UTC) instead of
 * its ISO text. The table keeps its primary key (list, idx) and its aging
 * index (list, status, since). A row whose `since` is no readable time is
 * dropped: the record then counts from its list's baseline, as a record
 * without a row did before migration 22.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE status_codes (
      code INTEGER PRIMARY KEY,
      status TEXT NOT NULL UNIQUE
    ) STRICT;
    INSERT INTO status_codes (status) SELECT DISTINCT status FROM status_since ORDER BY status;
    CREATE TABLE status_since_compact (
      list INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      status INTEGER NOT NULL,
      since INTEGER NOT NULL,
      bound INTEGER NOT NULL,
      PRIMARY KEY (list, idx)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO status_since_compact (list, idx, status, since, bound)
      SELECT CASE s.resource WHEN 'inspections' THEN 0 ELSE 1 END, s.idx, c.code,
        CAST(round(unixepoch(s.since, 'subsec') * 1000) AS INTEGER), s.bound
      FROM status_since s JOIN status_codes c ON c.status = s.status
      WHERE s.resource IN ('inspections', 'guarantees') AND unixepoch(s.since, 'subsec') IS NOT NULL
      ORDER BY 1, 2;
    DROP TABLE status_since;
    ALTER TABLE status_since_compact RENAME TO status_since;
    CREATE INDEX status_since_aging ON status_since (list, status, since);
  `)
}
