import type { StoreConnection, PagePick, Cell } from '../connection'
import { cellIndexReady, matchCells } from '../search/cell-index'
import { prepared } from '../statements'
import type { PagedResource } from '../record-types'
import { countedMark, inIdxOrder } from '../write/counts'
import { assigneeColumn, reviewColumn } from './reviews'
import { dataVersion } from '../data-version'
import {
  type ListRequest,
  type PageAsk,
  type Text,
  SHORT_QUERY_COUNT_CAP,
  type Statement,
  mustCount,
  searchOnly,
  newestFirst,
  decodeCursor,
  matchingRowids,
} from './list-sql'

/**
 * The cell path of a text search: a page and its counts from one walk of
 * the search's matches and the owner's in-memory cells (`cell-index.ts`),
 * for a short query its first matches only. Where it does not apply, the
 * SQL plans of `list-sql.ts` answer.
 */

/**
 * A text search's page and counts from one walk of its matches: the rowids
 * the search index gives, each one's cell from the owner's memory
 * (`cell-index.ts`), the page picked among them in idx order (the list's
 * order) and its rows read by idx. Null where {@link cellPageApplies} does
 * not: the SQL plans of `pageStatement` (`list-sql.ts`) answer then.
 */
export function cellPage(
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

/**
 * Whether a query's page and counts come from its matches' cells
 * ({@link cellPage}): text of two or more characters, no member or dates,
 * idx order being the list's order, and the list's cell index ready.
 */
export function cellPageApplies(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): text is Text & { plan: { kind: 'match'; match: string } } {
  if (query.sort === 'aged') return false
  return searchOnly(query, text) && inIdxOrder(db, table) && cellIndexReady(db, table)
}

/**
 * Whether a short query's first page and counts come from its first
 * matches' cells ({@link firstRowids}): the first page of a short text
 * without member or dates, idx order being the list's order, and the
 * list's cell index ready. Later pages (a cursor) use the SQL plans.
 */
export function shortCellPageApplies(
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
 * dropped). The SQL count (`countStatement` in `list-counts.ts`) counts the same ones.
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
export function firstRowidsStatement(
  table: PagedResource,
  match: string,
  descending: boolean,
): Statement {
  const fts = `${table}_fts`
  return {
    sql: `SELECT group_concat(rowid) AS rowids, count(*) AS n FROM (SELECT rowid FROM ${fts}
      WHERE ${fts} MATCH ? ORDER BY rowid ${descending ? 'DESC' : 'ASC'} LIMIT ?)`,
    params: [match, SHORT_QUERY_COUNT_CAP + 1],
  }
}

/** The statement reading a page's rows by idx (`?`: a JSON array of them). */
export function rowsByIdx(table: PagedResource, columns: string): string {
  return `SELECT ${columns}, ${reviewColumn(table)}, ${assigneeColumn(table)} FROM ${table} t
    WHERE t.idx IN (SELECT value FROM json_each(?))`
}
