import type { DatabaseSync } from 'node:sqlite'

/**
 * Aging from the first sync (docs/store-and-sync.md "Changes feed and
 * aging"): `status_since.bound` is 1 when a row's `since` is only the
 * service's time of the record's last change (it holds its status at least
 * since then), 0 when a sync saw the status arrive. Records stored before
 * this version have no row for the status they held at the baseline, and a
 * new one's row says when it was first seen: `status_bounds_pending` names
 * the lists whose rows `fillStatusBounds` (`write/changes.ts`) still has to
 * fill, which needs the profile's time zone and so runs after the migration.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE status_since ADD COLUMN bound INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE status_bounds_pending (resource TEXT PRIMARY KEY) STRICT;
    INSERT INTO status_bounds_pending (resource)
      SELECT 'inspections' WHERE EXISTS (SELECT 1 FROM inspections)
      UNION ALL SELECT 'guarantees' WHERE EXISTS (SELECT 1 FROM guarantees);
  `)
}
