import { GUARANTEE_STATE_LABELS } from '../../../shared/domain'
import type { StoreConnection } from '../connection'
import type { PagedResource } from '../record-types'
import { prepared } from '../statements'
import type { PreparedRow } from '../schema/stored-raw'

/**
 * The reconciliation view's share of a page's new records (migration 15,
 * `migrations/0015-reconcile-by-member.ts`): no trigger runs per inserted
 * record; the writer (`writes.ts`) hands the records a page inserted here,
 * and a few statements per page add them to `reconcile_items`,
 * `reconcile_members` and `reconcile_counts`, by the same rules as the
 * update triggers. Run inside the page's transaction, after its inserts.
 */

const AUTHENTIC = '정품'
const CANCELLED = GUARANTEE_STATE_LABELS.cancel

/** A text column's value, `''` for null (the items' key for a missing value). */
function text(row: PreparedRow, column: string): string {
  const value = row.values[column]
  return typeof value === 'string' ? value : ''
}

/** Adds a page's newly inserted records (never gone) to the reconciliation tables. */
export function reconcileInserted(
  db: StoreConnection,
  resource: PagedResource,
  rows: readonly PreparedRow[],
): void {
  if (rows.length === 0) return
  if (resource === 'guarantees') guaranteesInserted(db, rows)
  else inspectionsInserted(db, rows)
}

/**
 * New authentic inspections on a complete order line no not-gone guarantee
 * holds become `unguaranteed`.
 */
function inspectionsInserted(db: StoreConnection, rows: readonly PreparedRow[]): void {
  const candidates = rows
    .filter((row) => row.values['result'] === AUTHENTIC)
    .map(
      (row) =>
        [
          text(row, 'ref_user_id'),
          text(row, 'ref_order_id'),
          text(row, 'ref_order_detail_id'),
          row.idx,
        ] as const,
    )
    .filter(([, order, detail]) => order !== '' && detail !== '')
  if (candidates.length === 0) return
  prepared(
    db,
    `INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
     SELECT 'unguaranteed', j.value ->> 0, j.value ->> 1, j.value ->> 2, 'inspections', j.value ->> 3
     FROM json_each(?) j
     WHERE NOT EXISTS (SELECT 1 FROM guarantees g WHERE g.ref_order_id = j.value ->> 1
       AND g.ref_order_detail_id = j.value ->> 2 AND g.gone_at IS NULL)`,
  ).run(JSON.stringify(candidates))
}

/**
 * New guarantees: `cancelled` ones listed, each member's count raised (and
 * the `unlinked` total with it for members without a completed link), the
 * inspections of their order lines settled, and their member's order lines
 * checked for a `duplicate`.
 */
function guaranteesInserted(db: StoreConnection, rows: readonly PreparedRow[]): void {
  const members = new Map<string, number>()
  const cancelled: (readonly [string, string, string, number])[] = []
  // Each complete order line with its member, as often as it comes (repeats kept): the
  // statements below take each once (a delete by line, an `INSERT OR IGNORE`).
  const lines: (readonly [string, string, string])[] = []
  let ofMembers = false
  for (const row of rows) {
    const member = text(row, 'ref_user_id')
    const order = text(row, 'ref_order_id')
    const detail = text(row, 'ref_order_detail_id')
    if (member !== '') members.set(member, (members.get(member) ?? 0) + 1)
    if (row.values['status'] === CANCELLED) cancelled.push([member, order, detail, row.idx])
    if (order !== '' && detail !== '') {
      lines.push([order, detail, member])
      if (member !== '') ofMembers = true
    }
  }
  if (cancelled.length > 0) {
    prepared(
      db,
      `INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
       SELECT 'cancelled', value ->> 0, value ->> 1, value ->> 2, 'guarantees', value ->> 3
       FROM json_each(?)`,
    ).run(JSON.stringify(cancelled))
  }
  if (members.size > 0) {
    // Each member's row as it is now: their new guarantees count towards `unlinked` unless linked.
    const counted = prepared(
      db,
      `INSERT INTO reconcile_members (member, guarantees, linked)
       SELECT key, value, EXISTS (SELECT 1 FROM wallet_links w
         WHERE w.ref_user_id = key AND w.outcome = 'completed')
       FROM json_each(?) WHERE true
       ON CONFLICT (member) DO UPDATE SET guarantees = guarantees + excluded.guarantees
       RETURNING member, linked`,
    ).all(JSON.stringify(Object.fromEntries(members))) as { member: string; linked: number }[]
    let unlinked = 0
    for (const { member, linked } of counted) if (linked === 0) unlinked += members.get(member)!
    if (unlinked > 0) {
      prepared(db, `UPDATE reconcile_counts SET n = n + ? WHERE kind = 'unlinked'`).run(unlinked)
    }
  }
  if (lines.length === 0) return
  const all = JSON.stringify(lines)
  const unguaranteed = prepared(
    db,
    `SELECT n FROM reconcile_counts WHERE kind = 'unguaranteed'`,
  ).get() as { n: number } | undefined
  if ((unguaranteed?.n ?? 0) > 0) {
    prepared(
      db,
      `DELETE FROM reconcile_items WHERE kind = 'unguaranteed'
       AND (order_id, detail_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
    ).run(all)
  }
  // A member's second guarantee on a line makes a duplicate (each of them is listed): lines
  // whose order has one guarantee, nearly all, are passed over on the index alone.
  if (!ofMembers) return
  prepared(
    db,
    `INSERT OR IGNORE INTO reconcile_items (kind, member, order_id, detail_id, resource, idx)
     SELECT 'duplicate', g.ref_user_id, g.ref_order_id, g.ref_order_detail_id, 'guarantees', g.idx
     FROM json_each(?) j CROSS JOIN guarantees g ON g.ref_order_id = j.value ->> 0
       AND g.ref_order_detail_id = j.value ->> 1 AND g.ref_user_id = j.value ->> 2
       AND g.gone_at IS NULL
     WHERE j.value ->> 2 <> ''
       AND (SELECT count(*) FROM guarantees o WHERE o.ref_order_id = j.value ->> 0) >= 2
       AND (SELECT count(*) FROM guarantees c WHERE c.ref_order_id = g.ref_order_id
         AND c.ref_order_detail_id = g.ref_order_detail_id AND c.ref_user_id = g.ref_user_id
         AND c.gone_at IS NULL) >= 2`,
  ).run(all)
}
