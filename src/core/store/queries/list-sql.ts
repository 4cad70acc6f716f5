import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../connection'
import type { ReviewMarkName } from '../../../shared/lists'
import type { GuaranteeListQuery, ListQuery } from '../../../shared/contract'
import type { AssigneeFilter, MarkedBy } from '../../../shared/list-filter'
import { AppError } from '../../app-error'
import { agingCutoff } from './change-queries'
import { STATUS_SINCE_LIST, sinceTextSql, sinceValue } from '../schema/status-since'
import { prepared } from '../statements'
import type { PagedResource } from '../record-types'
import { brandAliases } from './brand-search'
import { isShortQuery, planSearch, shortQueryPlan, type SearchPlan } from '../search/search-text'
import { assigneeColumn, reviewClause, reviewColumn } from './reviews'
import { teamIdentity } from '../team-side'
import { inIdxOrder } from '../write/counts'
import { dataVersion } from '../data-version'

/**
 * A list request read as SQL, what every list query starts from: the
 * request's types, its text as a search plan ({@link textOf}), its filter as
 * WHERE clauses over the list table `t` ({@link baseWhere}), the matches of
 * a text search and the page cursor; then the planner, which picks the
 * index a page walks and writes that page's SQL ({@link pageStatement}).
 * A page may instead be picked from cells in `list-cell-page.ts`; its counts
 * come from `list-counts.ts`; `list-queries.ts` puts them together.
 */

/**
 * What a caller asks the store for: a list filter as the contract declares
 * it, any field left out (an absent field takes the contract's default).
 */
export type ListRequest = Readonly<Partial<ListQuery>> & {
  /** The "now" `agedDays` counts back from (ISO; default the current time). */
  readonly agedAsOf?: string
}

/** A guarantee list request: a list request and the API's issuance state. */
export type GuaranteeListRequest = Readonly<Partial<GuaranteeListQuery>>

/** What one page of a list is asked for: its list, columns, filter (status resolved) and size. */
export interface PageAsk {
  readonly table: PagedResource
  readonly columns: string
  readonly query: ListRequest
  readonly status: string | null | undefined
  readonly text: Text
  /** Rows to read: the page's limit and one more (whether there is a next page). */
  readonly limit: number
}

export interface Text {
  readonly plan: SearchPlan
  /** A short query: matches are counted up to {@link SHORT_QUERY_COUNT_CAP}. */
  readonly short: boolean
}

/**
 * Short text (one character, two initials, one or two digits:
 * `isShortQuery`) matches a large share of a list: its matches are counted
 * up to this many, and the page says its total is a lower bound.
 */
export const SHORT_QUERY_COUNT_CAP = 1000

/**
 * The FTS expression of the query's text and member: a short query is
 * spelled out as whole terms; a member id is found by its words in the
 * search index (its exact id is then compared on each match), since a
 * member's rows are few and an index of their own cost every write.
 */
export function textOf(db: StoreConnection, table: PagedResource, query: ListRequest): Text {
  const text = queryText(db, table, query.q ?? '')
  const member = query.member ? planSearch(query.member) : null
  // A member id without a word is compared on every row (no such id is expected).
  if (member?.kind !== 'match' || text.plan.kind === 'none') return text
  // Whole words: the id is exact, so a longer id starting with it need not match.
  const words = member.match.replace(/ \*$/u, '')
  const match = text.plan.kind === 'all' ? words : `(${words}) AND (${text.plan.match})`
  // Counted exactly: the member's matches are few.
  return { plan: { kind: 'match', match }, short: false }
}

function queryText(db: StoreConnection, table: PagedResource, q: string): Text {
  const spelled = shortQueryPlan(q, (syllable) => {
    const next = String.fromCodePoint(syllable.codePointAt(0)! + 1)
    const rows = prepared(
      db,
      `SELECT term FROM ${table}_fts_terms WHERE term >= ? AND term < ? LIMIT ?`,
    ).all(syllable, next, MAX_SYLLABLE_TERMS + 1) as { term: string }[]
    return rows.length > MAX_SYLLABLE_TERMS ? null : rows.map((row) => row.term)
  })
  if (spelled) return { plan: spelled, short: true }
  const plan = planSearch(q, brandAliases(db, q))
  return { plan, short: plan.kind === 'match' && isShortQuery(q) }
}

/** At most this many vocabulary terms spell out a one-syllable query. */
const MAX_SYLLABLE_TERMS = 500

/** A WHERE clause over the list table `t` and its parameters. */
export interface Where {
  readonly clauses: string[]
  readonly params: SQLInputValue[]
}

/** SQL and parameters of one statement. */
export interface Statement {
  readonly sql: string
  readonly params: SQLInputValue[]
}

/** The filter's member, date, aging and "marked by" parts. */
export function baseWhere(db: StoreConnection, table: PagedResource, query: ListRequest): Where {
  let where: Where = { clauses: ['t.gone_at IS NULL'], params: [] }
  if (query.markedBy !== undefined) {
    const marked = markedByClause(table, query.markedBy, teamIdentity(db)?.role ?? null)
    where = and(where, marked.clauses[0]!, ...marked.params)
  }
  if (query.assignee !== undefined) {
    const assigned = assigneeClause(table, query.assignee, assigneeRole(db, query.assignee))
    where = and(where, assigned.clauses[0]!, ...assigned.params)
  }
  if (query.agedDays !== undefined) {
    const aged = agedClause(table, query.agedDays, query.agedAsOf)
    where = and(where, aged.clauses[0]!, ...aged.params)
  }
  if (query.member) where = and(where, 't.ref_user_id = ?', query.member)
  if (query.from) where = and(where, 't.registered_at >= ?', `${checkDate(query.from)} 00:00:00`)
  if (query.to) {
    where = and(where, 't.registered_at < ?', `${nextDay(checkDate(query.to))} 00:00:00`)
  }
  return where
}

/**
 * Records whose review row (a mark or a note) was last set by `markedBy`.
 * A row without a team author was set on this computer (before the profile
 * had a team server, or without one), so it is this member's; `me` without a
 * team identity is exactly those.
 */
function markedByClause(table: PagedResource, markedBy: MarkedBy, me: string | null): Where {
  const marks = `t.idx IN (SELECT record_idx FROM review_marks WHERE resource = '${table}' AND`
  if (markedBy === 'me') {
    return { clauses: [`${marks} (team_author IS NULL OR team_author = ?))`], params: [me] }
  }
  if (markedBy === 'others') {
    return {
      clauses: [`${marks} team_author IS NOT NULL AND team_author IS NOT ?)`],
      params: [me],
    }
  }
  return { clauses: [`${marks} team_author = ?)`], params: [markedBy.role] }
}

/** The login role an assignee filter names (`me`: this member's, null without a team); null for `nobody`. */
function assigneeRole(db: StoreConnection, assignee: AssigneeFilter): string | null {
  if (assignee === 'nobody') return null
  return assignee === 'me' ? (teamIdentity(db)?.role ?? null) : assignee.role
}

/**
 * Records assigned to `assignee` (`record_assignments`, one row per
 * assigned record): a member's rows are read from its index by login role,
 * nobody's are the list's rows without one. `me` without a team identity
 * selects nothing (nothing is assigned on a computer without a team).
 */
function assigneeClause(
  table: PagedResource,
  assignee: AssigneeFilter,
  role: string | null,
): Where {
  const rows = `SELECT record_idx FROM record_assignments`
  if (assignee === 'nobody') {
    return { clauses: [`t.idx NOT IN (${rows} WHERE resource = '${table}')`], params: [] }
  }
  return {
    clauses: [`t.idx IN (${rows} WHERE assignee = ? AND resource = '${table}')`],
    params: [role],
  }
}

/**
 * The aging filter over list `table`: records whose current status holds
 * since `days` days before `asOf` or earlier by their `status_since` row
 * (every stored record has one from the first sync that saw it; a record
 * without, as a store from before them may hold, counts as aged, as the
 * counts do: `change-queries.ts`).
 */
function agedClause(table: PagedResource, days: number, asOf: string | undefined): Where {
  const cutoff = sinceValue(agingCutoff(asOf ?? new Date().toISOString(), days))
  const list = STATUS_SINCE_LIST[table]
  return {
    clauses: [
      `ifnull((SELECT since FROM status_since WHERE list = ${list} AND idx = t.idx), ?) <= ?`,
    ],
    params: [cutoff, cutoff],
  }
}

function withStatus(where: Where, status: string | null | undefined): Where {
  if (status === undefined) return where
  if (status === null) return and(where, 't.status IS NULL')
  return and(where, 't.status = ?', status)
}

function withReview(table: PagedResource, where: Where, mark: ReviewMarkName | undefined): Where {
  if (mark === undefined) return where
  const { clause, params } = reviewClause(table, mark)
  return and(where, clause, ...params)
}

/** The text part for a plan that does not walk the FTS index: the set of matching rowids. */
export function withText(table: PagedResource, where: Where, text: Text): Where {
  if (text.plan.kind === 'all') return where
  if (text.plan.kind === 'none') return and(where, '0')
  const fts = `${table}_fts`
  return and(where, `t.idx IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, text.plan.match)
}

export function and(where: Where, clause: string, ...params: SQLInputValue[]): Where {
  return { clauses: [...where.clauses, clause], params: [...where.params, ...params] }
}

/** True when the filter has a part the stored counts cannot answer: a member, aging, who marked or who is assigned. */
export function mustCount(query: ListRequest): boolean {
  return (
    Boolean(query.member) ||
    query.agedDays !== undefined ||
    query.markedBy !== undefined ||
    query.assignee !== undefined
  )
}

/** Text of two or more characters, without member or dates: what the cell index counts. */
export function searchOnly(
  query: ListRequest,
  text: Text,
): text is Text & { plan: { kind: 'match'; match: string } } {
  if (text.plan.kind !== 'match' || text.short) return false
  return !mustCount(query) && query.from === undefined && query.to === undefined
}

/** True when the list's order is newest first (the default). */
export function newestFirst(query: ListRequest): boolean {
  return (query.sort ?? 'latest') === 'latest'
}

/** The idx range of the filter's dates (idx order being time order): bounds of an FTS walk. */
export function rowidRange(db: StoreConnection, table: PagedResource, query: ListRequest): Where {
  let range: Where = { clauses: [], params: [] }
  const edge = (clause: string, order: string, value: string): number =>
    (
      prepared(
        db,
        `SELECT idx FROM ${table} INDEXED BY ${table}_by_time WHERE ${clause} ORDER BY ${order} LIMIT 1`,
      ).get(value) as { idx: number } | undefined
    )?.idx ?? Number.NaN
  if (query.from) {
    const low = edge('registered_at >= ?', 'registered_at, idx', `${query.from} 00:00:00`)
    range = and(range, 'f.rowid >= ?', Number.isNaN(low) ? Number.MAX_SAFE_INTEGER : low)
  }
  if (query.to) {
    const high = edge(
      'registered_at < ?',
      'registered_at DESC, idx DESC',
      `${nextDay(query.to)} 00:00:00`,
    )
    range = and(range, 'f.rowid <= ?', Number.isNaN(high) ? Number.MIN_SAFE_INTEGER : high)
  }
  return range
}

export function checkDate(text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new AppError('invalid_argument', 'Dates are written YYYY-MM-DD.')
  }
  return text
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

/**
 * Every match of an FTS expression, kept until the data changes, with the
 * key it is kept under (which also keeps its parse in the cell index).
 */
export function matchingRowids(
  db: StoreConnection,
  table: PagedResource,
  match: string,
): { rowids: string | null; key: string } {
  const key = `${dataVersion(db)}\u0000${table}\u0000${match}`
  const perDb = db.searchRowids
  if (perDb.has(key)) return { rowids: perDb.get(key)!, key }
  const { sql, params } = rowidsStatement(table, match)
  const rowids = (prepared(db, sql).get(...params) as { rowids: string | null }).rowids
  if (perDb.size >= ROWID_CACHE_SIZE) perDb.clear()
  perDb.set(key, rowids)
  return { rowids, key }
}

/** Searches whose matches are kept per connection (a page of another tab or the next page reuses them). */
const ROWID_CACHE_SIZE = 16

/** The statement listing every match of an FTS expression, as one comma-separated text. */
export function rowidsStatement(table: PagedResource, match: string): Statement {
  const fts = `${table}_fts`
  return {
    sql: `SELECT group_concat(rowid) AS rowids FROM ${fts} WHERE ${fts} MATCH ?`,
    params: [match],
  }
}

/** Opaque keyset cursor: the sort key of the last row of a page. */
export function encodeCursor(registeredAt: string, idx: number): string {
  return Buffer.from(JSON.stringify([registeredAt, idx])).toString('base64url')
}

export function decodeCursor(cursor: string): [string, number] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      Number.isSafeInteger(value[1])
    ) {
      return [value[0], value[1] as number]
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_argument', 'The page cursor is not valid.')
}

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
 * {@link textOf}) in FTS rowid order while that is the list's order
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
