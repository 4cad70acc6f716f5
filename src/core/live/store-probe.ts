import type { StoreConnection } from '../store/connection'
import type { PagedResourceName } from '../../shared/resources'
import { prepared } from '../store/statements'
import type { PagedResource } from '../store/record-types'

/**
 * Read-only questions the live schedule asks the store (run on the owner's
 * thread, `store-ops.ts`). None of them writes: a poll that finds nothing
 * new leaves the file and its WAL as they were.
 */

/** What a poll read of one list's newest records: each record's idx and what moves it. */
export interface ProbeRow {
  readonly idx: number
  readonly status: string | null
  /** An inspection's result (null for guarantees). */
  readonly result: string | null
  readonly modifiedAt: string | null
}

/** The answer of {@link compareNewest}. */
export interface ProbeAnswer {
  /** Records the store does not hold, or holds as gone. */
  readonly unknown: readonly number[]
  /** Records held with another status, result or modification time. */
  readonly changed: readonly number[]
  /** The newest registration time stored (not gone), or null for an empty list. */
  readonly newestRegisteredAt: string | null
}

const TABLES: Readonly<Record<PagedResource, string>> = {
  inspections: 'inspections',
  guarantees: 'guarantees',
}

/** Compares a page of the service's newest records with the stored rows, by primary key. */
export function compareNewest(
  db: StoreConnection,
  ask: { readonly resource: PagedResource; readonly rows: readonly ProbeRow[] },
): ProbeAnswer {
  const table = TABLES[ask.resource]
  const result = ask.resource === 'inspections' ? 'result' : 'NULL'
  const stored = prepared(
    db,
    `SELECT idx, status, ${result} AS result, modified_at AS modifiedAt, gone_at AS goneAt
       FROM ${table} WHERE idx IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ask.rows.map((row) => row.idx))) as unknown as (ProbeRow & {
    goneAt: string | null
  })[]
  const byIdx = new Map(stored.map((row) => [row.idx, row]))
  const unknown: number[] = []
  const changed: number[] = []
  for (const row of ask.rows) {
    const held = byIdx.get(row.idx)
    if (!held || held.goneAt !== null) unknown.push(row.idx)
    else if (
      held.status !== row.status ||
      held.result !== row.result ||
      held.modifiedAt !== row.modifiedAt
    ) {
      changed.push(row.idx)
    }
  }
  const newest = prepared(
    db,
    `SELECT max(registered_at) AS at FROM ${table} WHERE gone_at IS NULL`,
  ).get() as { at: string | null } | undefined
  return { unknown, changed, newestRegisteredAt: newest?.at ?? null }
}

/**
 * The registration time of the oldest stored record, registered on `from`
 * or later (`YYYY-MM-DD`), in a status that can still move: an inspection
 * received or approved and in delivery (a delivered one keeps its result or
 * has none: the spec shows a result on only some of them), a guarantee
 * waiting to be issued. Null when there is none.
 */
export function oldestMoving(
  db: StoreConnection,
  ask: { readonly resource: PagedResource; readonly from: string },
): string | null {
  const sql =
    ask.resource === 'inspections'
      ? `SELECT min(registered_at) AS at FROM inspections
          WHERE gone_at IS NULL AND status IN ('감정접수', '감정승인(배송중)') AND registered_at >= ?`
      : `SELECT min(registered_at) AS at FROM guarantees
          WHERE gone_at IS NULL AND status = '발급대기' AND registered_at >= ?`
  const row = prepared(db, sql).get(ask.from) as { at: string | null } | undefined
  return row?.at ?? null
}

/** A changes-feed entry a notification may be about, with its record's product name. */
export interface ChangeRow {
  readonly id: number
  readonly resource: PagedResourceName
  readonly idx: number | null
  readonly kind: 'result' | 'state'
  readonly before: string | null
  readonly after: string | null
  readonly productName: string | null
}

/**
 * The feed's result and state entries after `after` (by id, oldest first),
 * at most `limit`, and the feed's newest id (0 when empty).
 */
export function changesSince(
  db: StoreConnection,
  ask: { readonly after: number; readonly limit: number },
): { readonly rows: readonly ChangeRow[]; readonly maxId: number } {
  const rows = prepared(
    db,
    `SELECT c.id, c.resource, c.idx, c.kind,
            json_extract(c.detail, '$.before') AS before, json_extract(c.detail, '$.after') AS after,
            CASE c.resource WHEN 'inspections' THEN i.product_name ELSE g.product_name END AS productName
       FROM changes c
       LEFT JOIN inspections i ON c.resource = 'inspections' AND i.idx = c.idx
       LEFT JOIN guarantees g ON c.resource = 'guarantees' AND g.idx = c.idx
      WHERE c.id > ? AND c.kind IN ('result', 'state')
      ORDER BY c.id LIMIT ?`,
  ).all(ask.after, ask.limit) as unknown as ChangeRow[]
  const max = prepared(db, 'SELECT max(id) AS id FROM changes').get() as { id: number | null }
  return { rows, maxId: max.id ?? 0 }
}
