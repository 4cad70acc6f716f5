import type { DatabaseSync } from 'node:sqlite'

/**
 * Reconciliation: the records that do not add up, kept in `reconcile_items`
 * by triggers in the same transaction as the rows, so the view and its
 * totals never scan the lists. One row per record and kind, keyed by kind,
 * member and order line (`''` where a value is missing), so a page of the
 * view by member and order is a walk of the primary key:
 *
 * - `unguaranteed`: a not-gone inspection with result `정품` whose order
 *   line (`ref_order_id`, `ref_order_detail_id`, both present) has no
 *   not-gone guarantee;
 * - `cancelled`: a not-gone guarantee in state `cancel` (label `발급취소`);
 * - `unlinked`: a not-gone guarantee of a member (present) who never
 *   completed a wallet link (`wallet_links` outcome `completed`); its order
 *   line is left `''`, so the view groups these by member;
 * - `duplicate`: not-gone guarantees of one member sharing one order line,
 *   when there are two or more.
 *
 * `reconcile_counts` holds the records per kind. The indexes by order line
 * (inspections: only the authentic ones) let a trigger find a line's
 * records; `wallet_links_completed` a member's completed link. The tables
 * are filled here for an existing database. Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE reconcile_items (
      kind TEXT NOT NULL,
      member TEXT NOT NULL,
      order_id TEXT NOT NULL,
      detail_id TEXT NOT NULL,
      resource TEXT NOT NULL,
      idx INTEGER NOT NULL,
      PRIMARY KEY (kind, member, order_id, detail_id, resource, idx)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX reconcile_unguaranteed_by_line ON reconcile_items (order_id, detail_id)
      WHERE kind = 'unguaranteed';
    CREATE TABLE reconcile_counts (
      kind TEXT PRIMARY KEY,
      n INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    INSERT INTO reconcile_counts (kind, n)
      VALUES ('unguaranteed', 0), ('cancelled', 0), ('unlinked', 0), ('duplicate', 0);
    CREATE TRIGGER reconcile_items_insert AFTER INSERT ON reconcile_items BEGIN
      UPDATE reconcile_counts SET n = n + 1 WHERE kind = NEW.kind;
    END;
    CREATE TRIGGER reconcile_items_delete AFTER DELETE ON reconcile_items BEGIN
      UPDATE reconcile_counts SET n = n - 1 WHERE kind = OLD.kind;
    END;

    CREATE INDEX inspections_authentic_by_line ON inspections (ref_order_id, ref_order_detail_id)
      WHERE result = '정품';
    CREATE INDEX guarantees_by_line ON guarantees (ref_order_id, ref_order_detail_id, ref_user_id)
      WHERE ref_order_id IS NOT NULL AND ref_order_detail_id IS NOT NULL;
    CREATE INDEX wallet_links_completed ON wallet_links (ref_user_id) WHERE outcome = 'completed';

    CREATE TRIGGER reconcile_inspection_insert AFTER INSERT ON inspections
    WHEN NEW.result = '정품' AND NEW.gone_at IS NULL BEGIN
      ${unguaranteedOf('NEW')}
    END;
    CREATE TRIGGER reconcile_inspection_update
    AFTER UPDATE OF result, ref_user_id, ref_order_id, ref_order_detail_id, gone_at ON inspections
    WHEN OLD.result IS NOT NEW.result OR OLD.ref_user_id IS NOT NEW.ref_user_id
      OR OLD.ref_order_id IS NOT NEW.ref_order_id
      OR OLD.ref_order_detail_id IS NOT NEW.ref_order_detail_id
      OR (OLD.gone_at IS NULL) <> (NEW.gone_at IS NULL)
    BEGIN
      ${dropInspection('OLD')}
      ${unguaranteedOf('NEW')}
    END;
    CREATE TRIGGER reconcile_inspection_delete AFTER DELETE ON inspections
    WHEN OLD.result = '정품' BEGIN
      ${dropInspection('OLD')}
    END;

    CREATE TRIGGER reconcile_guarantee_insert AFTER INSERT ON guarantees
    WHEN NEW.gone_at IS NULL BEGIN
      ${guaranteeAdded('NEW')}
    END;
    CREATE TRIGGER reconcile_guarantee_update
    AFTER UPDATE OF ref_user_id, ref_order_id, ref_order_detail_id, gone_at ON guarantees
    WHEN ${placeMoved}
    BEGIN
      ${guaranteeRemoved('OLD')}
      ${guaranteeAdded('NEW')}
    END;
    CREATE TRIGGER reconcile_guarantee_status AFTER UPDATE OF status ON guarantees
    WHEN OLD.status IS NOT NEW.status AND NOT (${placeMoved}) AND NEW.gone_at IS NULL
      AND '발급취소' IN (OLD.status, NEW.status)
    BEGIN
      DELETE FROM reconcile_items WHERE kind = 'cancelled' AND member = ${member('OLD')}
        AND order_id = ifnull(OLD.ref_order_id, '')
        AND detail_id = ifnull(OLD.ref_order_detail_id, '') AND resource = 'guarantees'
        AND idx = OLD.idx;
      ${cancelledOf('NEW')}
    END;
    CREATE TRIGGER reconcile_guarantee_delete AFTER DELETE ON guarantees BEGIN
      ${guaranteeRemoved('OLD')}
    END;

    CREATE TRIGGER reconcile_wallet_completed AFTER INSERT ON wallet_links
    WHEN NEW.outcome = 'completed' BEGIN
      DELETE FROM reconcile_items WHERE kind = 'unlinked' AND member = NEW.ref_user_id;
    END;
  `)
  backfill(db)
}

/**
 * A guarantee's member, order line or presence changed: everything it adds
 * is recomputed. A change of status alone only moves it in or out of
 * `cancelled` (the usual `ready` → `complete` writes nothing here).
 */
const placeMoved = `OLD.ref_user_id IS NOT NEW.ref_user_id
      OR OLD.ref_order_id IS NOT NEW.ref_order_id
      OR OLD.ref_order_detail_id IS NOT NEW.ref_order_detail_id
      OR (OLD.gone_at IS NULL) <> (NEW.gone_at IS NULL)`

/** The order line of `row` is complete (both ids present). */
function hasLine(row: string): string {
  return `ifnull(${row}.ref_order_id, '') <> '' AND ifnull(${row}.ref_order_detail_id, '') <> ''`
}

/** Whether order line (`o`, `d`) has a not-gone guarantee. */
function guaranteed(o: string, d: string): string {
  return `EXISTS (SELECT 1 FROM guarantees g WHERE g.ref_order_id = ${o}
    AND g.ref_order_detail_id = ${d} AND g.gone_at IS NULL)`
}

/** Adds inspection `row` as `unguaranteed` when it is one. */
function unguaranteedOf(row: string): string {
  return `INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
    SELECT 'unguaranteed', ifnull(${row}.ref_user_id, ''), ${row}.ref_order_id,
      ${row}.ref_order_detail_id, 'inspections', ${row}.idx
    WHERE ${row}.result = '정품' AND ${row}.gone_at IS NULL AND ${hasLine(row)}
      AND NOT ${guaranteed(`${row}.ref_order_id`, `${row}.ref_order_detail_id`)};`
}

function dropInspection(row: string): string {
  return `DELETE FROM reconcile_items WHERE kind = 'unguaranteed'
    AND member = ifnull(${row}.ref_user_id, '') AND order_id = ifnull(${row}.ref_order_id, '')
    AND detail_id = ifnull(${row}.ref_order_detail_id, '') AND resource = 'inspections'
    AND idx = ${row}.idx;`
}

/** The member key of guarantee `row`. */
function member(row: string): string {
  return `ifnull(${row}.ref_user_id, '')`
}

/**
 * Recomputes the `duplicate` items of `row`'s member on `row`'s order line
 * from the table as it is now.
 */
function duplicatesOf(row: string): string {
  const sameLine = `g.ref_order_id = ${row}.ref_order_id
    AND g.ref_order_detail_id = ${row}.ref_order_detail_id
    AND g.ref_user_id = ${row}.ref_user_id AND g.gone_at IS NULL`
  return `
    DELETE FROM reconcile_items WHERE kind = 'duplicate' AND member = ${member(row)}
      AND order_id = ifnull(${row}.ref_order_id, '')
      AND detail_id = ifnull(${row}.ref_order_detail_id, '');
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'duplicate', g.ref_user_id, g.ref_order_id, g.ref_order_detail_id, 'guarantees', g.idx
      FROM guarantees g
      WHERE ifnull(${row}.ref_user_id, '') <> '' AND ${hasLine(row)} AND ${sameLine}
        AND (SELECT count(*) FROM guarantees g WHERE ${sameLine}) >= 2;`
}

/** Adds guarantee `row` as `cancelled` when it is one. */
function cancelledOf(row: string): string {
  return `INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'cancelled', ${member(row)}, ifnull(${row}.ref_order_id, ''),
        ifnull(${row}.ref_order_detail_id, ''), 'guarantees', ${row}.idx
      WHERE ${row}.gone_at IS NULL AND ${row}.status = '발급취소';`
}

/** The items a not-gone guarantee `row` adds, and the inspections of its line it settles. */
function guaranteeAdded(row: string): string {
  return `
    ${cancelledOf(row)}
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'unlinked', ${row}.ref_user_id, '', '', 'guarantees', ${row}.idx
      WHERE ${row}.gone_at IS NULL AND ifnull(${row}.ref_user_id, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM wallet_links w
          WHERE w.ref_user_id = ${row}.ref_user_id AND w.outcome = 'completed');
    DELETE FROM reconcile_items WHERE kind = 'unguaranteed' AND ${row}.gone_at IS NULL
      AND order_id = ${row}.ref_order_id AND detail_id = ${row}.ref_order_detail_id;
    ${duplicatesOf(row)}`
}

/** What a guarantee `row` no longer adds, and the inspections of its line left without one. */
function guaranteeRemoved(row: string): string {
  return `
    DELETE FROM reconcile_items WHERE kind IN ('cancelled', 'unlinked') AND resource = 'guarantees'
      AND idx = ${row}.idx AND member = ${member(row)}
      AND order_id IN (ifnull(${row}.ref_order_id, ''), '')
      AND detail_id IN (ifnull(${row}.ref_order_detail_id, ''), '');
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'unguaranteed', i.ref_user_id, i.ref_order_id, i.ref_order_detail_id,
        'inspections', i.idx
      FROM inspections i
      WHERE ${hasLine(row)} AND i.ref_order_id = ${row}.ref_order_id
        AND i.ref_order_detail_id = ${row}.ref_order_detail_id AND i.result = '정품'
        AND i.gone_at IS NULL
        AND NOT ${guaranteed(`${row}.ref_order_id`, `${row}.ref_order_detail_id`)};
    ${duplicatesOf(row)}`
}

/** Fills the items of the records already stored. */
function backfill(db: DatabaseSync): void {
  db.exec(`
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'unguaranteed', ifnull(i.ref_user_id, ''), i.ref_order_id, i.ref_order_detail_id,
        'inspections', i.idx
      FROM inspections i
      WHERE i.result = '정품' AND i.gone_at IS NULL AND ${hasLine('i')}
        AND NOT ${guaranteed('i.ref_order_id', 'i.ref_order_detail_id')};
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'cancelled', ifnull(g.ref_user_id, ''), ifnull(g.ref_order_id, ''),
        ifnull(g.ref_order_detail_id, ''), 'guarantees', g.idx
      FROM guarantees g WHERE g.gone_at IS NULL AND g.status = '발급취소';
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'unlinked', g.ref_user_id, '', '', 'guarantees', g.idx
      FROM guarantees g WHERE g.gone_at IS NULL AND ifnull(g.ref_user_id, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM wallet_links w
          WHERE w.ref_user_id = g.ref_user_id AND w.outcome = 'completed');
    INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
      SELECT 'duplicate', g.ref_user_id, g.ref_order_id, g.ref_order_detail_id, 'guarantees', g.idx
      FROM guarantees g
      WHERE g.gone_at IS NULL AND ifnull(g.ref_user_id, '') <> '' AND ${hasLine('g')}
        AND (SELECT count(*) FROM guarantees d WHERE d.ref_order_id = g.ref_order_id
          AND d.ref_order_detail_id = g.ref_order_detail_id AND d.ref_user_id = g.ref_user_id
          AND d.gone_at IS NULL) >= 2;
  `)
}
