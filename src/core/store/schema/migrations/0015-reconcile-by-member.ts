import type { DatabaseSync } from 'node:sqlite'

/**
 * Reconciliation without a trigger program per inserted record (see
 * `docs/store-and-sync.md`, "Reconciliation"):
 *
 * - `unlinked` is kept per member instead of per guarantee:
 *   `reconcile_members` holds, per member (present) of a guarantee, how many
 *   not-gone guarantees they have and whether they completed a wallet link
 *   (`linked`); `reconcile_counts` keeps the records of the members not
 *   linked. The view lists a member's guarantees when it shows them. The
 *   `unlinked` rows of `reconcile_items` go.
 * - The insert triggers go: the writer (`reconcile-writes.ts`) adds a
 *   page's new records in a few statements per page. The update and delete
 *   triggers stay (a record moved to another member or order line, gone or
 *   back, deleted; a wallet link completed), recreated here without the
 *   per-guarantee `unlinked` rows.
 * - `guarantees_by_line` (order line and member) becomes
 *   `guarantees_by_order` (order id only): the triggers find a line's
 *   guarantees by their order and compare the rest on the row, for half the
 *   index's size.
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    DROP TRIGGER reconcile_inspection_insert;
    DROP TRIGGER reconcile_guarantee_insert;
    DROP TRIGGER reconcile_guarantee_update;
    DROP TRIGGER reconcile_guarantee_delete;
    DROP TRIGGER reconcile_wallet_completed;

    DROP INDEX guarantees_by_line;
    CREATE INDEX guarantees_by_order ON guarantees (ref_order_id) WHERE ref_order_id IS NOT NULL;

    DELETE FROM reconcile_items WHERE kind = 'unlinked';
    CREATE TABLE reconcile_members (
      member TEXT PRIMARY KEY,
      guarantees INTEGER NOT NULL,
      linked INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    INSERT INTO reconcile_members (member, guarantees, linked)
      SELECT g.ref_user_id, count(*), EXISTS (SELECT 1 FROM wallet_links w
          WHERE w.ref_user_id = g.ref_user_id AND w.outcome = 'completed')
      FROM guarantees g WHERE g.gone_at IS NULL AND ifnull(g.ref_user_id, '') <> ''
      GROUP BY g.ref_user_id;
    UPDATE reconcile_counts
      SET n = (SELECT ifnull(sum(guarantees), 0) FROM reconcile_members WHERE linked = 0)
      WHERE kind = 'unlinked';

    CREATE TRIGGER reconcile_guarantee_update
    AFTER UPDATE OF ref_user_id, ref_order_id, ref_order_detail_id, gone_at ON guarantees
    WHEN ${placeMoved}
    BEGIN
      ${guaranteeRemoved('OLD')}
      ${guaranteeAdded('NEW')}
    END;
    CREATE TRIGGER reconcile_guarantee_delete AFTER DELETE ON guarantees BEGIN
      ${guaranteeRemoved('OLD')}
    END;

    CREATE TRIGGER reconcile_wallet_completed AFTER INSERT ON wallet_links
    WHEN NEW.outcome = 'completed' BEGIN
      UPDATE reconcile_counts SET n = n - ifnull((SELECT guarantees FROM reconcile_members
          WHERE member = NEW.ref_user_id AND linked = 0), 0)
        WHERE kind = 'unlinked';
      UPDATE reconcile_members SET linked = 1 WHERE member = NEW.ref_user_id;
    END;
  `)
}

/** A guarantee's member, order line or presence changed (as in migration 13). */
const placeMoved = `OLD.ref_user_id IS NOT NEW.ref_user_id
      OR OLD.ref_order_id IS NOT NEW.ref_order_id
      OR OLD.ref_order_detail_id IS NOT NEW.ref_order_detail_id
      OR (OLD.gone_at IS NULL) <> (NEW.gone_at IS NULL)`

/** The order line of `row` is complete (both ids present). */
function hasLine(row: string): string {
  return `ifnull(${row}.ref_order_id, '') <> '' AND ifnull(${row}.ref_order_detail_id, '') <> ''`
}

/** Guarantee `row` counts for its member: not gone, with a member. */
function counted(row: string): string {
  return `${row}.gone_at IS NULL AND ifnull(${row}.ref_user_id, '') <> ''`
}

/** The member key of guarantee `row`. */
function member(row: string): string {
  return `ifnull(${row}.ref_user_id, '')`
}

/** Not-gone guarantees on `row`'s order line (and of its member when `sameMember`). */
function onLine(row: string, alias: string, sameMember: boolean): string {
  return `${alias}.ref_order_id = ${row}.ref_order_id
    AND ${alias}.ref_order_detail_id = ${row}.ref_order_detail_id
    ${sameMember ? `AND ${alias}.ref_user_id = ${row}.ref_user_id` : ''} AND ${alias}.gone_at IS NULL`
}

/** Recomputes the `duplicate` items of `row`'s member on `row`'s order line. */
function duplicatesOf(row: string): string {
  return `
    DELETE FROM reconcile_items WHERE kind = 'duplicate' AND member = ${member(row)}
      AND order_id = ifnull(${row}.ref_order_id, '')
      AND detail_id = ifnull(${row}.ref_order_detail_id, '');
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'duplicate', g.ref_user_id, g.ref_order_id, g.ref_order_detail_id, 'guarantees', g.idx
      FROM guarantees g
      WHERE ifnull(${row}.ref_user_id, '') <> '' AND ${hasLine(row)} AND ${onLine(row, 'g', true)}
        AND (SELECT count(*) FROM guarantees c WHERE ${onLine(row, 'c', true)}) >= 2;`
}

/** What a not-gone guarantee `row` adds, and the inspections of its line it settles. */
function guaranteeAdded(row: string): string {
  return `
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'cancelled', ${member(row)}, ifnull(${row}.ref_order_id, ''),
        ifnull(${row}.ref_order_detail_id, ''), 'guarantees', ${row}.idx
      WHERE ${row}.gone_at IS NULL AND ${row}.status = '발급취소';
    INSERT INTO reconcile_members (member, guarantees, linked)
      SELECT ${row}.ref_user_id, 1, EXISTS (SELECT 1 FROM wallet_links w
          WHERE w.ref_user_id = ${row}.ref_user_id AND w.outcome = 'completed')
      WHERE ${counted(row)}
      ON CONFLICT (member) DO UPDATE SET guarantees = guarantees + 1;
    UPDATE reconcile_counts SET n = n + 1 WHERE kind = 'unlinked' AND ${counted(row)}
      AND (SELECT linked FROM reconcile_members WHERE member = ${row}.ref_user_id) = 0;
    DELETE FROM reconcile_items WHERE kind = 'unguaranteed' AND ${row}.gone_at IS NULL
      AND order_id = ${row}.ref_order_id AND detail_id = ${row}.ref_order_detail_id;
    ${duplicatesOf(row)}`
}

/** What a guarantee `row` no longer adds, and the inspections of its line left without one. */
function guaranteeRemoved(row: string): string {
  return `
    DELETE FROM reconcile_items WHERE kind = 'cancelled' AND member = ${member(row)}
      AND order_id = ifnull(${row}.ref_order_id, '')
      AND detail_id = ifnull(${row}.ref_order_detail_id, '') AND resource = 'guarantees'
      AND idx = ${row}.idx;
    UPDATE reconcile_counts SET n = n - 1 WHERE kind = 'unlinked' AND ${counted(row)}
      AND (SELECT linked FROM reconcile_members WHERE member = ${row}.ref_user_id) = 0;
    UPDATE reconcile_members SET guarantees = guarantees - 1
      WHERE member = ${row}.ref_user_id AND ${counted(row)};
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'unguaranteed', i.ref_user_id, i.ref_order_id, i.ref_order_detail_id,
        'inspections', i.idx
      FROM inspections i
      WHERE ${hasLine(row)} AND i.ref_order_id = ${row}.ref_order_id
        AND i.ref_order_detail_id = ${row}.ref_order_detail_id AND i.result = '정품'
        AND i.gone_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM guarantees g WHERE ${onLine(row, 'g', false)});
    ${duplicatesOf(row)}`
}
