import type { StoreConnection } from '../connection'
import type { CacheFreshness, GuaranteeRow, InspectionRow, QueryPage } from '../../../shared/lists'
import type { RecordPlace } from '../../../shared/changes'
import { LIST_LIMIT } from '../../../shared/list-limit'
import { GUARANTEE_STATE_LABELS, guaranteeStateOf } from '../../../shared/domain'
import { GUARANTEE_FIELDS, INSPECTION_FIELDS, type RowOf } from '../../../shared/record-fields'
import { prepared } from '../statements'
import type { PagedResource, RecordRef, SyncResource } from '../record-types'
import { listCount, summarise } from '../write/counts'
import { listedRow, RECORD_TABLES, type RecordTable } from '../schema/stored-raw'
import { cardUrlOf } from '../schema/card-urls'
import { STATUS_SINCE_LIST, sinceText } from '../schema/status-since'
import { readReview } from './reviews'
import { readSyncState } from '../sync-state'
import {
  type ListRequest,
  type GuaranteeListRequest,
  type PageAsk,
  textOf,
  type Statement,
  mustCount,
  newestFirst,
  rowidsStatement,
  encodeCursor,
  type ListDriver,
  pageStatement,
} from './list-sql'
import {
  cellPage,
  cellPageApplies,
  shortCellPageApplies,
  firstRowidsStatement,
  rowsByIdx,
} from './list-cell-page'
import { assignedCountStatement, cellsOf, countStatement } from './list-counts'

/**
 * The UI's read queries: pure functions `(db, args)`, `?` parameters only.
 * Filters mirror the API's; text search uses the FTS5 indexes; paging is by
 * keyset on (registered_at, idx), so a deep page costs what the first does.
 * A list page ({@link listPage}) reads its request as SQL and plans it
 * (`list-sql.ts`), takes its rows from the cell path
 * (`list-cell-page.ts`) or that plan, and its counts
 * from the same cell walk or `list-counts.ts`.
 */

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

const GUARANTEE_COLUMNS = listedColumns(RECORD_TABLES.guarantees)

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

const INSPECTION_COLUMNS = listedColumns(RECORD_TABLES.inspections)

/** A row's assignee (login role), only when it has one. */
function assigned(r: Record<string, unknown>): { assignedTo?: string } {
  return typeof r['assignee'] === 'string' ? { assignedTo: r['assignee'] } : {}
}

/** The columns a list query selects: the declared listed fields', and `gone_at`. */
function listedColumns(table: RecordTable): string {
  return [...table.fields.filter((f) => f.row !== undefined).map((f) => f.column), 'gone_at'].join(
    ', ',
  )
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
    `SELECT idx, since FROM status_since WHERE list = ? AND idx IN (SELECT value FROM json_each(?))`,
  ).all(STATUS_SINCE_LIST[table], JSON.stringify(rows.map((row) => row.idx))) as {
    idx: number
    since: number
  }[]
  for (const row of read) since.set(Number(row.idx), sinceText(Number(row.since)))
  return rows.map((row) => ({
    ...row,
    statusSince: row.gone ? null : (since.get(row.idx) ?? baseline),
  }))
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

/**
 * What {@link explainList} tells about one query.
 * @internal
 */
export interface ListExplanation {
  readonly driver: ListDriver
  /** `EXPLAIN QUERY PLAN` of the page and of its counting (empty when stored counts answer). */
  readonly page: string[]
  readonly count: string[]
}

/**
 * The plan of a list query, for tests and the bench: which index it walks and how it counts.
 * @internal
 */
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
  const unassigned = assignedCountStatement(db, table, query, text)
  return {
    driver,
    page: plan(statement),
    count: stored ? [] : plan(unassigned ?? countStatement(db, table, query, text)),
  }
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

/** Rows per read of {@link listIdxs}. */
const IDX_PAGE = 5000

/**
 * Every idx a list filter selects, in the list's order (a bulk action on
 * "all rows of the filter"): the pages the list itself would show (the same
 * cell path or planned statement, the same cursor), read here in the owner
 * as idx and sort key only, {@link IDX_PAGE} at a time, without the rows'
 * fields or the counts a list page also answers.
 */
export function listIdxs(
  db: StoreConnection,
  resource: PagedResource,
  filter: GuaranteeListRequest,
): number[] {
  const { cursor: _cursor, limit: _limit, ...rest } = filter
  const status =
    resource === 'guarantees' && rest.state ? GUARANTEE_STATE_LABELS[rest.state] : rest.status
  const text = textOf(db, resource, rest)
  const idxs: number[] = []
  let cursor: string | undefined
  for (;;) {
    const query = { ...rest, ...(cursor ? { cursor } : {}) }
    const ask: PageAsk = {
      table: resource,
      columns: 'idx, registered_at',
      query,
      status,
      text,
      limit: IDX_PAGE + 1,
    }
    let rows = cellPage(db, ask)?.rows
    if (!rows) {
      const { statement } = pageStatement(db, ask)
      rows = prepared(db, statement.sql).all(...statement.params) as Record<string, unknown>[]
    }
    const page = rows.length > IDX_PAGE ? rows.slice(0, IDX_PAGE) : rows
    for (const row of page) idxs.push(Number(row['idx']))
    const last = page.at(-1)
    if (rows.length <= IDX_PAGE || !last) return idxs
    cursor = encodeCursor(
      String(query.sort === 'aged' ? last['sort_key'] : last['registered_at']),
      Number(last['idx']),
    )
  }
}
