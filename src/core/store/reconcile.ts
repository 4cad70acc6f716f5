import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from './connection'
import {
  RECONCILE_KINDS,
  type ReconcileGroup,
  type ReconcileKind,
  type ReconcilePage,
  type ReconcileRecord,
  type ReconcileTotals,
} from '../../shared/reconcile'
import { AppError } from '../app-error'
import { prepared } from './statements'

/**
 * The reconciliation view's queries over `reconcile_items` and
 * `reconcile_counts`, which triggers keep (migration 13, see
 * `migrations/0013-reconcile.ts`): a page walks the primary key (kind,
 * member, order line), the totals are four small rows. Pure `(db, args)`
 * functions with `?` parameters.
 */

/** Filter and keyset paging of {@link queryReconcile}. */
export interface ReconcileQuery {
  readonly kind?: ReconcileKind | undefined
  /** Exact member id. */
  readonly member?: string | undefined
  /** Groups per page (default 50, at most 500). */
  readonly limit?: number | undefined
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/** The position of a group: kind, member, order id, detail id (`''` where none). */
type GroupKey = [string, string, string, string]

function encodeCursor(key: GroupKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

function decodeCursor(cursor: string): GroupKey {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (
      Array.isArray(value) &&
      value.length === 4 &&
      value.every((part) => typeof part === 'string')
    ) {
      return value as GroupKey
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_argument', 'The page cursor is not valid.')
}

/** Records per kind, from the counts the triggers keep. */
export function reconcileTotals(db: StoreConnection): ReconcileTotals {
  const rows = prepared(db, 'SELECT kind, n FROM reconcile_counts').all() as {
    kind: string
    n: number
  }[]
  const totals = Object.fromEntries(RECONCILE_KINDS.map((kind) => [kind, 0])) as Record<
    ReconcileKind,
    number
  >
  for (const row of rows) {
    if ((RECONCILE_KINDS as readonly string[]).includes(row.kind)) {
      totals[row.kind as ReconcileKind] = row.n
    }
  }
  return totals
}

interface GroupRow {
  kind: ReconcileKind
  member: string
  order_id: string
  detail_id: string
  n: number
  records: string
}

/** A page of groups in (kind, member, order line) order, with the totals per kind. */
export function queryReconcile(db: StoreConnection, query: ReconcileQuery): ReconcilePage {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 500)
  const where: string[] = []
  const params: SQLInputValue[] = []
  if (query.kind) {
    where.push('kind = ?')
    params.push(query.kind)
  }
  if (query.member !== undefined) {
    where.push('member = ?')
    params.push(query.member)
  }
  if (query.cursor) {
    where.push('(kind, member, order_id, detail_id) > (?, ?, ?, ?)')
    params.push(...decodeCursor(query.cursor))
  }
  const rows = prepared(
    db,
    `SELECT kind, member, order_id, detail_id, count(*) AS n,
       json_group_array(json_array(resource, idx)) AS records
     FROM reconcile_items ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     GROUP BY kind, member, order_id, detail_id
     ORDER BY kind, member, order_id, detail_id LIMIT ?`,
  ).all(...params, limit + 1) as unknown as GroupRow[]
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  const totals = reconcileTotals(db)
  const last = page.at(-1)
  return {
    rows: page.map(groupOf),
    totals,
    total: query.kind ? totals[query.kind] : RECONCILE_KINDS.reduce((s, k) => s + totals[k], 0),
    nextCursor:
      more && last ? encodeCursor([last.kind, last.member, last.order_id, last.detail_id]) : null,
  }
}

function groupOf(row: GroupRow): ReconcileGroup {
  const records = (JSON.parse(row.records) as [ReconcileRecord['resource'], number][])
    .map(([resource, idx]): ReconcileRecord => ({ resource, idx }))
    .sort((a, b) => a.idx - b.idx)
  return {
    kind: row.kind,
    member: row.member === '' ? null : row.member,
    orderId: row.order_id === '' ? null : row.order_id,
    orderDetailId: row.detail_id === '' ? null : row.detail_id,
    count: row.n,
    records,
  }
}

/** Every group of the filter, page by page (the export's walk). */
export function* reconcileGroups(
  db: StoreConnection,
  query: Omit<ReconcileQuery, 'limit' | 'cursor'>,
): Generator<ReconcileGroup> {
  let cursor: string | undefined
  do {
    const page = queryReconcile(db, { ...query, limit: 500, ...(cursor ? { cursor } : {}) })
    yield* page.rows
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}
