import type { DatabaseSync } from 'node:sqlite'

/**
 * What each sync changed, and when each status was first seen.
 *
 * - `changes`: one row per record and kind of change a sync found (`new`,
 *   `status`, `result`, `state`, `gone`, `back`, `fields`), or one
 *   `baseline` row (no `idx`) when a list's first full pass completed.
 *   `detail` is JSON; `sync_id` and `at` name the sync and its start time;
 *   `seen` is set when staff marked it seen. Newest first by `id`.
 * - `status_history`: per record, each status (`''` for none) with the time
 *   and sync that first saw it locally, after the list's baseline.
 * - `status_since`: per record whose current status was seen after the
 *   baseline, since when it holds it (no row: since the baseline); records
 *   gone from the service have none.
 * - `change_baselines`: per list, the time and sync of its baseline. A list
 *   that completed a full pass before this migration gets its baseline now.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE changes (
      id INTEGER PRIMARY KEY,
      resource TEXT NOT NULL,
      idx INTEGER,
      kind TEXT NOT NULL,
      detail TEXT NOT NULL,
      sync_id TEXT NOT NULL,
      at TEXT NOT NULL,
      seen INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX changes_by_kind ON changes (kind, id);
    CREATE INDEX changes_by_resource ON changes (resource, kind, id);
    CREATE INDEX changes_by_record ON changes (resource, idx);
    CREATE INDEX changes_unseen ON changes (id) WHERE seen = 0;
    CREATE TABLE status_history (
      resource TEXT NOT NULL,
      idx INTEGER NOT NULL,
      status TEXT NOT NULL,
      first_seen TEXT NOT NULL,
      sync_id TEXT NOT NULL,
      PRIMARY KEY (resource, idx, status)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE status_since (
      resource TEXT NOT NULL,
      idx INTEGER NOT NULL,
      status TEXT NOT NULL,
      since TEXT NOT NULL,
      PRIMARY KEY (resource, idx)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX status_since_aging ON status_since (resource, status, since);
    CREATE TABLE change_baselines (
      resource TEXT PRIMARY KEY,
      at TEXT NOT NULL,
      sync_id TEXT NOT NULL
    ) STRICT;
    INSERT INTO change_baselines (resource, at, sync_id)
      SELECT resource, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'migration-12' FROM sync_state
      WHERE resource IN ('inspections', 'guarantees') AND last_full_at IS NOT NULL;
  `)
}
