import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection, PagePick, Cell } from '../connection'
import type {
  CacheFreshness,
  GuaranteeRow,
  InspectionRow,
  QueryPage,
  ReviewMarkName,
} from '../../../shared/cache'
import type { RecordPlace } from '../../../shared/changes'
import type { GuaranteeListQuery, ListQuery } from '../../../shared/contract'
import { LIST_LIMIT } from '../../../shared/list-limit'
import type { MarkedBy } from '../../../shared/list-filter'
import { GUARANTEE_STATE_LABELS, guaranteeStateOf } from '../../../shared/domain'
import { GUARANTEE_FIELDS, INSPECTION_FIELDS, type RowOf } from '../../../shared/record-fields'
import { AppError } from '../../app-error'
import { cellIndexReady, matchCells } from '../search/cell-index'
import { agingCutoff } from './change-queries'
import { prepared } from '../statements'
import type { PagedResource, RecordRef, SyncResource } from '../record-types'
import {
  cellColumns,
  COUNTED_MARK_SQL,
  countedMark,
  inIdxOrder,
  listCount,
  storedCells,
  summarise,
} from '../write/counts'
import { listedRow, RECORD_TABLES, type RecordTable } from '../schema/stored-raw'
import { cardUrlOf } from '../schema/card-urls'
import { brandAliases } from './brand-search'
import { isShortQuery, planSearch, shortQueryPlan, type SearchPlan } from '../search/search-text'
import { assigneeColumn, readReview, reviewClause, reviewColumn } from './reviews'
import { readSyncState } from '../sync-state'
import { teamIdentity } from '../team-side'
import { dataVersion } from '../write/writes'

/**
 * The UI's read queries: pure functions `(db, args)`, `?` parameters only.
 * Filters mirror the API's; text search uses the FTS5 indexes; paging is by
 * keyset on (registered_at, idx), so a deep page costs what the first does.
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

function checkDate(text: string): string {
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

/** Opaque keyset cursor: the sort key of the last row of a page. */
function encodeCursor(registeredAt: string, idx: number): string {
  return Buffer.from(JSON.stringify([registeredAt, idx])).toString('base64url')
}

function decodeCursor(cursor: string): [string, number] {
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

/** The index a list query walks; {@link explainList} shows each shape's SQLite plan. */
export type ListDriver = 'time' | 'status' | 'review' | 'text' | 'text-sorted' | 'cells' | 'aged'

/**
 * Short text (one character, two initials, one or two digits:
 * `isShortQuery`) matches a large share of a list: its matches are counted
 * up to this many, and the page says its total is a lower bound.
 */
export const SHORT_QUERY_COUNT_CAP = 1000

/** At most this many vocabulary terms spell out a one-syllable query. */
const MAX_SYLLABLE_TERMS = 500

interface Text {
  readonly plan: SearchPlan
  /** A short query: matches are counted up to {@link SHORT_QUERY_COUNT_CAP}. */
  readonly short: boolean
}

/**
 * The FTS expression of the query's text and member: a short query is
 * spelled out as whole terms; a member id is found by its words in the
 * search index (its exact id is then compared on each match), since a
 * member's rows are few and an index of their own cost every write.
 */
function textOf(db: StoreConnection, table: PagedResource, query: ListRequest): Text {
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

/** A WHERE clause over the list table `t` and its parameters. */
interface Where {
  readonly clauses: string[]
  readonly params: SQLInputValue[]
}

function and(where: Where, clause: string, ...params: SQLInputValue[]): Where {
  return { clauses: [...where.clauses, clause], params: [...where.params, ...params] }
}

/**
 * The aging filter over list `table`: records whose current status was seen
 * `days` days before `asOf` or earlier: those with a `status_since` row by
 * it, the rest (holding their status since the list's baseline) when the
 * baseline is that old (migration 12; `change-queries.ts`).
 */
function agedClause(table: PagedResource, days: number, asOf: string | undefined): Where {
  const cutoff = agingCutoff(asOf ?? new Date().toISOString(), days)
  return {
    clauses: [
      `(t.idx IN (SELECT idx FROM status_since WHERE resource = '${table}' AND since <= ?)
        OR (ifnull((SELECT at <= ? FROM change_baselines WHERE resource = '${table}'), 0)
          AND t.idx NOT IN (SELECT idx FROM status_since WHERE resource = '${table}')))`,
    ],
    params: [cutoff, cutoff],
  }
}

/** True when the filter has a part the stored counts cannot answer: a member, aging or who marked. */
function mustCount(query: ListRequest): boolean {
  return Boolean(query.member) || query.agedDays !== undefined || query.markedBy !== undefined
}

/** The filter's member, date, aging and "marked by" parts. */
function baseWhere(db: StoreConnection, table: PagedResource, query: ListRequest): Where {
  let where: Where = { clauses: ['t.gone_at IS NULL'], params: [] }
  if (query.markedBy !== undefined) {
    const marked = markedByClause(table, query.markedBy, teamIdentity(db)?.role ?? null)
    where = and(where, marked.clauses[0]!, ...marked.params)
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
function withText(table: PagedResource, where: Where, text: Text): Where {
  if (text.plan.kind === 'all') return where
  if (text.plan.kind === 'none') return and(where, '0')
  const fts = `${table}_fts`
  return and(where, `t.idx IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, text.plan.match)
}

/**
 * Which index a page walks: text (a member's words among it, see
 * {@link textOf}) in FTS rowid order while that is the list's order
 * ({@link inIdxOrder}), else its matches sorted; the records with a review
 * mark (`review_marks_by_mark`, with or without text of two or more
 * characters); else `<list>_by_status` or `<list>_by_time`, both in the
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
  if (text.plan.kind === 'match') return inIdxOrder(db, table) ? 'text' : 'text-sorted'
  if (marked) return 'review'
  return status === undefined ? 'time' : 'status'
}

/** The idx range of the filter's dates (idx order being time order): bounds of an FTS walk. */
function rowidRange(db: StoreConnection, table: PagedResource, query: ListRequest): Where {
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

/** SQL and parameters of one statement. */
interface Statement {
  readonly sql: string
  readonly params: SQLInputValue[]
}

/** What one page of a list is asked for: its list, columns, filter (status resolved) and size. */
interface PageAsk {
  readonly table: PagedResource
  readonly columns: string
  readonly query: ListRequest
  readonly status: string | null | undefined
  readonly text: Text
  /** Rows to read: the page's limit and one more (whether there is a next page). */
  readonly limit: number
}

/** The SQL of one page: `limit` rows after the query's cursor, in its sort order. */
function pageStatement(
  db: StoreConnection,
  { table, columns, query, status, text, limit }: PageAsk,
): { driver: ListDriver; statement: Statement } {
  const driver = driverOf(db, table, query, text, status)
  const sort = query.sort ?? 'latest'
  const direction = sort === 'latest' ? 'DESC' : 'ASC'
  const after = sort === 'latest' ? '<' : '>'
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  const select = `SELECT ${columns}, ${reviewColumn(table)}, ${assigneeColumn(table)}`
  let where = withStatus(baseWhere(db, table, query), status)
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
  const index = driver === 'text-sorted' ? '' : `INDEXED BY ${table}_by_${driver}`
  const sql = `${select} FROM ${table} t ${index} WHERE ${where.clauses.join(' AND ')} ${order}`
  return { driver, statement: { sql, params: [...where.params, limit] } }
}

/**
 * Since when a row of list `t` holds its status: its `status_since` row,
 * else the list's baseline (`''` before any): the key of the `aged` sort.
 */
function sinceKey(table: PagedResource): string {
  return `coalesce(
    (SELECT since FROM status_since WHERE resource = '${table}' AND idx = t.idx),
    (SELECT at FROM change_baselines WHERE resource = '${table}'), '')`
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
 * The cells (per status and mark) of the filter without its status and
 * review parts: from the stored counts when it has no text and no member,
 * else counted, a short query's matches only up to
 * {@link SHORT_QUERY_COUNT_CAP} (`capped` then says there are more).
 */
function cellsOf(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): { cells: Cell[]; capped: boolean } {
  if (text.plan.kind === 'none') return { cells: [], capped: false }
  const aged = agedCells(db, table, query, text)
  if (aged) return { cells: aged, capped: false }
  if (text.plan.kind === 'all' && !mustCount(query)) {
    const range = {
      from: query.from === undefined ? undefined : checkDate(query.from),
      to: query.to === undefined ? undefined : checkDate(query.to),
    }
    return { cells: storedCells(db, table, range), capped: false }
  }
  const statement = countStatement(db, table, query, text)
  const key = `${dataVersion(db)}\u0000${statement.sql}\u0000${JSON.stringify(statement.params)}`
  const perDb = db.searchCells
  const hit = perDb.get(key)
  if (hit) return hit
  const found =
    indexedCells(db, table, query, text) ??
    capCells(
      prepared(db, statement.sql).all(...statement.params) as unknown as (Cell & {
        low?: number
      })[],
      text.short && !query.member,
    )
  if (perDb.size > 64) perDb.clear()
  perDb.set(key, found)
  return found
}

/**
 * The cells of the aging filter alone (no text, member or dates) without
 * a scan: the records whose status was seen after the list's baseline are
 * the few with a `status_since` row, so the aged records are the stored
 * counts less those seen after the cutoff when the baseline is older than
 * it, else those seen by the cutoff. Null for any other filter.
 */
function agedCells(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): Cell[] | null {
  if (query.agedDays === undefined || text.plan.kind !== 'all' || query.member) return null
  if (query.markedBy !== undefined) return null
  if (query.from !== undefined || query.to !== undefined) return null
  const cutoff = agingCutoff(query.agedAsOf ?? new Date().toISOString(), query.agedDays)
  const baseline = prepared(db, 'SELECT at FROM change_baselines WHERE resource = ?').get(table) as
    { at: string } | undefined
  const sinceBaseline = baseline !== undefined && baseline.at <= cutoff
  const rows = prepared(
    db,
    `SELECT ${cellColumns()} FROM status_since s CROSS JOIN ${table} t ON t.idx = s.idx
      LEFT JOIN review_marks r ON r.resource = '${table}' AND r.record_idx = t.idx
      WHERE s.resource = '${table}' AND (s.since > ?) = ? AND t.gone_at IS NULL GROUP BY 1, 2`,
  ).all(cutoff, sinceBaseline ? 1 : 0) as unknown as Cell[]
  if (!sinceBaseline) return rows
  const recent = new Map(rows.map((c) => [`${c.status}\u0000${c.mark}`, c.n]))
  return storedCells(db, table, {}).map((c) => ({
    ...c,
    n: c.n - (recent.get(`${c.status}\u0000${c.mark}`) ?? 0),
  }))
}

/**
 * The cells of a text search without member or dates, from the matching
 * rowids and the owner's in-memory cells (`cell-index.ts`): the search index
 * alone is read. Null when that index is not ready or the text is one
 * character (counted up to a cap by SQL).
 */
function indexedCells(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): { cells: Cell[]; capped: false } | null {
  if (!searchOnly(query, text)) return null
  const matched = matchCells(db, table, matchingRowids(db, table, text.plan.match).rowids)
  return matched && { cells: matched.cells, capped: false }
}

/** Text of two or more characters, without member or dates: what the cell index counts. */
function searchOnly(
  query: ListRequest,
  text: Text,
): text is Text & { plan: { kind: 'match'; match: string } } {
  if (text.plan.kind !== 'match' || text.short) return false
  return !mustCount(query) && query.from === undefined && query.to === undefined
}

/** The statement listing every match of an FTS expression, as one comma-separated text. */
function rowidsStatement(table: PagedResource, match: string): Statement {
  const fts = `${table}_fts`
  return {
    sql: `SELECT group_concat(rowid) AS rowids FROM ${fts} WHERE ${fts} MATCH ?`,
    params: [match],
  }
}

/** Searches whose matches are kept per connection (a page of another tab or the next page reuses them). */
const ROWID_CACHE_SIZE = 16

/**
 * Every match of an FTS expression, kept until the data changes, with the
 * key it is kept under (which also keeps its parse in the cell index).
 */
function matchingRowids(
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

/** The statement reading a page's rows by idx (`?`: a JSON array of them). */
function rowsByIdx(table: PagedResource, columns: string): string {
  return `SELECT ${columns}, ${reviewColumn(table)}, ${assigneeColumn(table)} FROM ${table} t
    WHERE t.idx IN (SELECT value FROM json_each(?))`
}

/**
 * Whether a query's page and counts come from its matches' cells
 * ({@link cellPage}): text of two or more characters, no member or dates,
 * idx order being the list's order, and the list's cell index ready.
 */
function cellPageApplies(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): text is Text & { plan: { kind: 'match'; match: string } } {
  if (query.sort === 'aged') return false
  return searchOnly(query, text) && inIdxOrder(db, table) && cellIndexReady(db, table)
}

/**
 * A text search's page and counts from one walk of its matches: the rowids
 * the search index gives, each one's cell from the owner's memory
 * (`cell-index.ts`), the page picked among them in idx order (the list's
 * order) and its rows read by idx. Null where {@link cellPageApplies} does
 * not: the SQL plans of {@link pageStatement} answer then.
 */
function cellPage(
  db: StoreConnection,
  { table, columns, query, status, text, limit }: PageAsk,
): { rows: Record<string, unknown>[]; cells: Cell[]; capped: boolean } | null {
  if (text.plan.kind !== 'match') return null
  const short = shortCellPageApplies(db, table, query, text)
  if (!short && !cellPageApplies(db, table, query, text)) return null
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  const descending = newestFirst(query)
  const mark = query.review === undefined ? undefined : countedMark(query.review)
  const { rowids, key, capped } = short
    ? firstRowids(db, table, text.plan.match, descending)
    : { ...matchingRowids(db, table, text.plan.match), capped: false }
  const pick: PagePick = {
    accept: (cell) =>
      (status === undefined || cell.status === status) &&
      (mark === undefined || cell.mark === mark),
    cursor: cursor === null ? null : cursor[1],
    descending,
    limit,
  }
  // Its parse is kept with the matches (per data version and search).
  const matched = matchCells(db, table, rowids, pick, key)
  if (!matched) return null
  // Only the first matches were read: a page they do not fill may go on past them.
  if (capped && matched.page.length < limit) return null
  const read = prepared(db, rowsByIdx(table, columns)).all(JSON.stringify(matched.page))
  const byIdx = new Map<number, Record<string, unknown>>()
  for (const row of read) byIdx.set(Number(row['idx']), row)
  const rows = matched.page.flatMap((idx) => {
    const row = byIdx.get(idx)
    return row ? [row] : []
  })
  return { rows, cells: matched.cells, capped }
}

/** True when the list's order is newest first (the default). */
function newestFirst(query: ListRequest): boolean {
  return (query.sort ?? 'latest') === 'latest'
}

/**
 * Whether a short query's first page and counts come from its first
 * matches' cells ({@link firstRowids}): the first page of a short text
 * without member or dates, idx order being the list's order, and the
 * list's cell index ready. Later pages (a cursor) use the SQL plans.
 */
function shortCellPageApplies(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): boolean {
  if (text.plan.kind !== 'match' || !text.short || query.member) return false
  if (query.sort === 'aged' || query.cursor) return false
  if (mustCount(query) || query.from !== undefined || query.to !== undefined) return false
  return inIdxOrder(db, table) && cellIndexReady(db, table)
}

/**
 * The first {@link SHORT_QUERY_COUNT_CAP} matches of a short query in the
 * list's direction, in one walk of the search index, as comma-separated
 * rowids; `capped` when there were more (the one read past the cap is
 * dropped). The SQL count ({@link countStatement}) counts the same ones.
 */
function firstRowids(
  db: StoreConnection,
  table: PagedResource,
  match: string,
  descending: boolean,
): { rowids: string | null; key: string; capped: boolean } {
  const key = `${dataVersion(db)}\u0000${table}\u0000first ${descending}\u0000${match}`
  const { sql, params } = firstRowidsStatement(table, match, descending)
  const found = prepared(db, sql).get(...params) as { rowids: string | null; n: number }
  if (found.n <= SHORT_QUERY_COUNT_CAP) return { rowids: found.rowids, key, capped: false }
  const rowids = found.rowids!.slice(0, found.rowids!.lastIndexOf(','))
  return { rowids, key, capped: true }
}

/** The statement of {@link firstRowids}: one more match than the cap, and how many it found. */
function firstRowidsStatement(table: PagedResource, match: string, descending: boolean): Statement {
  const fts = `${table}_fts`
  return {
    sql: `SELECT group_concat(rowid) AS rowids, count(*) AS n FROM (SELECT rowid FROM ${fts}
      WHERE ${fts} MATCH ? ORDER BY rowid ${descending ? 'DESC' : 'ASC'} LIMIT ?)`,
    params: [match, SHORT_QUERY_COUNT_CAP + 1],
  }
}

/** The counting statement of {@link cellsOf}, walking what the page walks. */
function countStatement(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): Statement {
  const marks = `LEFT JOIN review_marks r ON r.resource = '${table}' AND r.record_idx = t.idx`
  const where = baseWhere(db, table, query)
  if (text.plan.kind !== 'match') {
    // A member id without a word (see `textOf`): every row compared.
    const rows = withText(table, where, text)
    return {
      sql: `SELECT ${cellColumns()} FROM ${table} t ${marks}
        WHERE ${rows.clauses.join(' AND ')} GROUP BY 1, 2`,
      params: rows.params,
    }
  }
  const range = inIdxOrder(db, table) ? rowidRange(db, table, query) : { clauses: [], params: [] }
  const fts = and(range, `f.${table}_fts MATCH ?`, text.plan.match)
  const from = `FROM ${table}_fts f CROSS JOIN ${table} t ON t.idx = f.rowid ${marks}
    WHERE ${[...fts.clauses, ...where.clauses].join(' AND ')}`
  if (!text.short) {
    return {
      sql: `SELECT ${cellColumns()} ${from} GROUP BY 1, 2`,
      params: [...fts.params, ...where.params],
    }
  }
  // The first matches in the list's direction (as `firstRowids` reads them); `low` orders
  // each cell's last one, so the lowest is the one read past the cap.
  const ascending = query.sort === 'oldest'
  return {
    sql: `SELECT status, mark, count(*) AS n, ${ascending ? '-max(rowid)' : 'min(rowid)'} AS low
      FROM (
        SELECT t.status AS status, ${COUNTED_MARK_SQL} AS mark,
          f.rowid AS rowid ${from} ORDER BY f.rowid ${ascending ? 'ASC' : 'DESC'} LIMIT ?
      ) GROUP BY 1, 2`,
    params: [...fts.params, ...where.params, SHORT_QUERY_COUNT_CAP + 1],
  }
}

/** Drops the one row counted past the cap (the lowest `low`: see `countStatement`), saying that there are more. */
function capCells(
  rows: readonly (Cell & { low?: number })[],
  capping: boolean,
): { cells: Cell[]; capped: boolean } {
  const cells = rows.map((row) => ({ status: row.status, mark: row.mark, n: row.n }))
  const sum = cells.reduce((acc, cell) => acc + cell.n, 0)
  if (!capping || sum <= SHORT_QUERY_COUNT_CAP) return { cells, capped: false }
  let lowest = 0
  rows.forEach((row, i) => {
    if ((row.low ?? Infinity) < (rows[lowest]!.low ?? Infinity)) lowest = i
  })
  cells[lowest] = { ...cells[lowest]!, n: cells[lowest]!.n - 1 }
  return { cells, capped: true }
}

/** The freshness every answer carries. */
function freshnessOf(db: StoreConnection, resource: SyncResource): CacheFreshness {
  const state = readSyncState(db, resource)
  return {
    lastSyncAt: state.lastSuccessAt,
    lastFullSyncAt: state.lastFullAt,
    syncing: state.status === 'syncing',
    ...(state.lastError && state.status !== 'syncing' ? { staleBecause: state.lastError } : {}),
  }
}

function listPage<R extends { readonly idx: number; readonly gone: boolean }>(
  db: StoreConnection,
  table: PagedResource,
  columns: string,
  query: ListRequest,
  status: string | null | undefined,
  toRow: (raw: Record<string, unknown>) => R,
): QueryPage<R & { readonly statusSince: string | null }> {
  const limit = Math.min(Math.max(query.limit ?? LIST_LIMIT.default, 1), LIST_LIMIT.max)
  const text = textOf(db, table, query)
  const ask: PageAsk = { table, columns, query, status, text, limit: limit + 1 }
  const fromCells = cellPage(db, ask)
  let rows = fromCells?.rows
  if (!rows) {
    const { statement } = pageStatement(db, ask)
    rows = prepared(db, statement.sql).all(...statement.params) as Record<string, unknown>[]
  }
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  const last = page.at(-1)
  const { cells, capped } = fromCells ?? cellsOf(db, table, query, text)
  const summary = summarise(cells, status, query.review)
  return {
    rows: withStatusSince(db, table, page.map(toRow)),
    total: summary.total,
    ...(capped ? { totalIsLowerBound: true } : {}),
    counts: summary.counts,
    reviewCounts: summary.reviewCounts,
    nextCursor:
      more && last
        ? encodeCursor(
            String(query.sort === 'aged' ? last['sort_key'] : last['registered_at']),
            Number(last['idx']),
          )
        : null,
    freshness: freshnessOf(db, table),
  }
}

/**
 * A page's rows, each with since when it holds its current status
 * (`statusSince`): its `status_since` row, else the list's baseline; null
 * for a gone record or before the baseline. One lookup by primary key for
 * the page, never part of the page's plan.
 */
function withStatusSince<R extends { readonly idx: number; readonly gone: boolean }>(
  db: StoreConnection,
  table: PagedResource,
  rows: readonly R[],
): (R & { readonly statusSince: string | null })[] {
  if (rows.length === 0) return []
  const baseline =
    (
      prepared(db, 'SELECT at FROM change_baselines WHERE resource = ?').get(table) as
        { at: string } | undefined
    )?.at ?? null
  const since = new Map<number, string>()
  const read = prepared(
    db,
    `SELECT idx, since FROM status_since WHERE resource = ? AND idx IN (SELECT value FROM json_each(?))`,
  ).all(table, JSON.stringify(rows.map((row) => row.idx))) as { idx: number; since: string }[]
  for (const row of read) since.set(Number(row.idx), row.since)
  return rows.map((row) => ({
    ...row,
    statusSince: row.gone ? null : (since.get(row.idx) ?? baseline),
  }))
}

/** What {@link explainList} tells about one query. */
export interface ListExplanation {
  readonly driver: ListDriver
  /** `EXPLAIN QUERY PLAN` of the page and of its counting (empty when stored counts answer). */
  readonly page: string[]
  readonly count: string[]
}

/** The plan of a list query, for tests and the bench: which index it walks and how it counts. */
export function explainList(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
): ListExplanation {
  const limit = Math.min(Math.max(query.limit ?? LIST_LIMIT.default, 1), LIST_LIMIT.max)
  const text = textOf(db, table, query)
  const columns = table === 'guarantees' ? GUARANTEE_COLUMNS : INSPECTION_COLUMNS
  const plan = (s: Statement): string[] =>
    (db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.params) as { detail: string }[]).map(
      (row) => row.detail,
    )
  const short = shortCellPageApplies(db, table, query, text)
  if (text.plan.kind === 'match' && (short || cellPageApplies(db, table, query, text))) {
    // One walk of the matches (a short query's first ones) counts them and picks the page;
    // its rows are read by idx.
    const walk = short
      ? firstRowidsStatement(table, text.plan.match, newestFirst(query))
      : rowidsStatement(table, text.plan.match)
    return {
      driver: 'cells',
      page: [...plan(walk), ...plan({ sql: rowsByIdx(table, columns), params: ['[]'] })],
      count: [],
    }
  }
  const { driver, statement } = pageStatement(db, {
    table,
    columns,
    query,
    status: query.status,
    text,
    limit: limit + 1,
  })
  const stored = text.plan.kind !== 'match' && !mustCount(query)
  return {
    driver,
    page: plan(statement),
    count: stored ? [] : plan(countStatement(db, table, query, text)),
  }
}

/** The columns a list query selects: the declared listed fields', and `gone_at`. */
function listedColumns(table: RecordTable): string {
  return [...table.fields.filter((f) => f.row !== undefined).map((f) => f.column), 'gone_at'].join(
    ', ',
  )
}

const GUARANTEE_COLUMNS = listedColumns(RECORD_TABLES.guarantees)

/** A page of guarantees for the filter. */
export function queryGuarantees(
  db: StoreConnection,
  query: GuaranteeListRequest,
): QueryPage<GuaranteeRow> {
  const status = query.state ? GUARANTEE_STATE_LABELS[query.state] : query.status
  return listPage(db, 'guarantees', GUARANTEE_COLUMNS, query, status, (r) => {
    const row = listedRow<RowOf<typeof GUARANTEE_FIELDS>>('guarantees', GUARANTEE_FIELDS, r)
    return {
      ...row,
      cardUrl: cardUrlOf(db, row.cardUrl, row.idx),
      state: guaranteeStateOf(row.status),
      gone: r['gone_at'] !== null,
      review: readReview(r['review']),
      ...assigned(r),
    }
  })
}

const INSPECTION_COLUMNS = listedColumns(RECORD_TABLES.inspections)

/** A row's assignee (login role), only when it has one. */
function assigned(r: Record<string, unknown>): { assignedTo?: string } {
  return typeof r['assignee'] === 'string' ? { assignedTo: r['assignee'] } : {}
}

/** A page of inspections for the filter. */
export function queryInspections(
  db: StoreConnection,
  query: ListRequest,
): QueryPage<InspectionRow> {
  return listPage(db, 'inspections', INSPECTION_COLUMNS, query, query.status, (r) => ({
    ...listedRow<RowOf<typeof INSPECTION_FIELDS>>('inspections', INSPECTION_FIELDS, r),
    gone: r['gone_at'] !== null,
    review: readReview(r['review']),
    ...assigned(r),
  }))
}

/**
 * Where the list shows record `idx` (`records.locate`): its registration
 * time and, for an inspection, its number; null when the list does not
 * show it (never stored, or gone from the service). A screen that knows
 * only the idx (the changes feed) opens the list on what finds the record
 * there, instead of paging through a search for its idx: a one- or
 * two-digit idx is inside most records' numbers.
 */
export function locateRecord(db: StoreConnection, ref: RecordRef): RecordPlace | null {
  const { resource, idx } = ref
  const number = resource === 'inspections' ? 'inspection_num' : 'NULL'
  const row = prepared(
    db,
    `SELECT registered_at, ${number} AS inspection_num FROM ${resource}
     WHERE idx = ? AND gone_at IS NULL`,
  ).get(idx) as { registered_at: string | null; inspection_num: string | null } | undefined
  if (row === undefined) return null
  return { resource, idx, registeredAt: row.registered_at, inspectionNum: row.inspection_num }
}

/** Number of stored, not-gone records of a resource (the lists: from the stored counts). */
export function recordCount(db: StoreConnection, resource: SyncResource): number {
  if (resource !== 'brands') return listCount(db, resource)
  const row = db.prepare('SELECT count(*) AS n FROM brands WHERE gone_at IS NULL').get() as {
    n: number
  }
  return row.n
}

/**
 * Every idx a list filter selects, in the list's order (a bulk action on
 * "all rows of the filter"): the list's own pages, read here in the owner.
 */
export function listIdxs(
  db: StoreConnection,
  resource: PagedResource,
  filter: GuaranteeListRequest,
): number[] {
  const idxs: number[] = []
  let cursor: string | undefined
  do {
    const { cursor: _cursor, limit: _limit, ...rest } = filter
    const args = { ...rest, limit: LIST_LIMIT.max, ...(cursor ? { cursor } : {}) }
    const page = resource === 'guarantees' ? queryGuarantees(db, args) : queryInspections(db, args)
    for (const row of page.rows) idxs.push(row.idx)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return idxs
}
