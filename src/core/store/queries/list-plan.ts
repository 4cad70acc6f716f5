import type { StoreConnection } from '../connection'
import type { PagedResource } from '../record-types'
import { inIdxOrder } from '../write/counts'
import { STATUS_SINCE_LIST, sinceTextSql } from '../schema/status-since'
import { assigneeColumn, reviewColumn } from './reviews'
import {
  type ListRequest,
  type PageAsk,
  type Text,
  type Where,
  type Statement,
  assigneeRole,
  baseWhere,
  withStatus,
  withReview,
  withText,
  and,
  rowidRange,
  decodeCursor,
} from './list-request'

/**
 * The list planner: which index a page walks ({@link driverOf}) and the
 * SQL of that page, in the list's order after the request's cursor.
 */

/** The index a list query walks; `explainList` (`list-queries.ts`) shows each shape's SQLite plan. */
export type ListDriver =
  'time' | 'status' | 'review' | 'assigned' | 'text' | 'text-sorted' | 'cells' | 'aged'

/** The SQL of one page: `limit` rows after the query's cursor, in its sort order. */
export function pageStatement(
  db: StoreConnection,
  { table, columns, query, status, text, limit }: PageAsk,
): { driver: ListDriver; statement: Statement } {
  const driver = driverOf(db, table, query, text, status)
  const sort = query.sort ?? 'latest'
  const direction = sort === 'latest' ? 'DESC' : 'ASC'
  const after = sort === 'latest' ? '<' : '>'
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  const select = `SELECT ${columns}, ${reviewColumn(table)}, ${assigneeColumn(table)}`
  // The assigned driver walks the member's rows itself: no second read of them per row.
  const { assignee: _walked, ...unassigned } = query
  let where = withStatus(baseWhere(db, table, driver === 'assigned' ? unassigned : query), status)
  if (driver !== 'review') where = withReview(table, where, query.review)
  if (driver === 'aged')
    return { driver, statement: agedStatement(table, select, where, text, query, limit) }
  if (driver === 'text' && text.plan.kind === 'match') {
    let fts = and(rowidRange(db, table, query), `f.${table}_fts MATCH ?`, text.plan.match)
    // Rowid order is the list's order here: the cursor's idx is its position.
    if (cursor) fts = and(fts, `f.rowid ${after} ?`, cursor[1])
    const sql = `${select} FROM ${table}_fts f CROSS JOIN ${table} t ON t.idx = f.rowid
      WHERE ${[...fts.clauses, ...where.clauses].join(' AND ')} ORDER BY f.rowid ${direction} LIMIT ?`
    return { driver, statement: { sql, params: [...fts.params, ...where.params, limit] } }
  }
  where = withText(table, where, text)
  if (cursor) where = and(where, `(t.registered_at, t.idx) ${after} (?, ?)`, ...cursor)
  const order = `ORDER BY t.registered_at ${direction}, t.idx ${direction} LIMIT ?`
  if (driver === 'review') {
    // In idx order the marks' index is already in the list's order: no sort, stop after a page.
    const byIdx = inIdxOrder(db, table)
    const marks = byIdx && cursor ? `AND r.record_idx ${after} ?` : ''
    const sql = `${select} FROM review_marks r INDEXED BY review_marks_by_mark
      CROSS JOIN ${table} t ON t.idx = r.record_idx
      WHERE r.resource = '${table}' AND r.mark = ? ${marks} AND ${where.clauses.join(' AND ')}
      ${byIdx ? `ORDER BY r.record_idx ${direction} LIMIT ?` : order}`
    const params = [query.review!, ...(marks ? [cursor![1]] : []), ...where.params, limit]
    return { driver, statement: { sql, params } }
  }
  if (driver === 'assigned') {
    // The member's rows of `record_assignments_assignee` are in idx order, as the marks' are.
    const byIdx = inIdxOrder(db, table)
    const rows = byIdx && cursor ? `AND a.record_idx ${after} ?` : ''
    const sql = `${select} FROM record_assignments a INDEXED BY record_assignments_assignee
      CROSS JOIN ${table} t ON t.idx = a.record_idx
      WHERE a.assignee = ? AND a.resource = '${table}' ${rows} AND ${where.clauses.join(' AND ')}
      ${byIdx ? `ORDER BY a.record_idx ${direction} LIMIT ?` : order}`
    const role = assigneeRole(db, query.assignee!)
    const params = [role, ...(rows ? [cursor![1]] : []), ...where.params, limit]
    return { driver, statement: { sql, params } }
  }
  const index = driver === 'text-sorted' ? '' : `INDEXED BY ${table}_by_${driver}`
  const sql = `${select} FROM ${table} t ${index} WHERE ${where.clauses.join(' AND ')} ${order}`
  return { driver, statement: { sql, params: [...where.params, limit] } }
}

/**
 * Which index a page walks: text (a member's words among it, see
 * `textOf` in `list-request.ts`) in FTS rowid order while that is the list's order
 * ({@link inIdxOrder}), else its matches sorted; the records with a review
 * mark (`review_marks_by_mark`, with or without text of two or more
 * characters); the records assigned to one member
 * (`record_assignments_assignee`, likewise); else `<list>_by_status` or `<list>_by_time`, both in the
 * list's order already.
 */
function driverOf(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
  status: string | null | undefined,
): ListDriver {
  // Longest in status first: every match is ordered by since when it holds its status.
  if (query.sort === 'aged') return 'aged'
  const marked = query.review !== undefined && query.review !== 'none'
  // Marked records are few: walk them and probe the text's matches, unless
  // a short query makes those matches most of the list.
  if (marked && !text.short) return 'review'
  // So are a member's assigned records.
  const assigned = query.assignee !== undefined && query.assignee !== 'nobody'
  if (assigned && !text.short) return 'assigned'
  if (text.plan.kind === 'match') return inIdxOrder(db, table) ? 'text' : 'text-sorted'
  if (marked) return 'review'
  return status === undefined ? 'time' : 'status'
}

/**
 * A page of the `aged` sort: the filter's matches, longest in their status
 * first (then by idx), after the cursor's (since, idx). Every match is
 * keyed and sorted: meant for a narrowed list (a status, the aging filter).
 */
function agedStatement(
  table: PagedResource,
  select: string,
  filter: Where,
  text: Text,
  query: ListRequest,
  limit: number,
): Statement {
  let where = withText(table, filter, text)
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  if (cursor) where = and(where, `(${sinceKey(table)}, t.idx) > (?, ?)`, ...cursor)
  return {
    sql: `${select}, ${sinceKey(table)} AS sort_key FROM ${table} t
      WHERE ${where.clauses.join(' AND ')} ORDER BY sort_key, t.idx LIMIT ?`,
    params: [...where.params, limit],
  }
}

/**
 * Since when a row of list `t` holds its status: its `status_since` row,
 * else the list's baseline (`''` before any): the key of the `aged` sort.
 */
function sinceKey(table: PagedResource): string {
  const since = `(SELECT since FROM status_since WHERE list = ${STATUS_SINCE_LIST[table]} AND idx = t.idx)`
  return `coalesce(
    ${sinceTextSql(since)},
    (SELECT at FROM change_baselines WHERE resource = '${table}'), '')`
}
