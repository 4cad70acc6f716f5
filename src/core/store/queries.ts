import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import type {
  CacheFreshness,
  GuaranteeRow,
  GuaranteeState,
  InspectionRow,
  QueryPage,
  ReviewMarkName,
  StatusCount,
} from '../../shared/cache'
import type { Brand, BrandRow } from '../../shared/domain'
import {
  BRAND_FIELDS,
  GUARANTEE_FIELDS,
  INSPECTION_FIELDS,
  type FieldSpec,
  type RowOf,
} from '../../shared/record-fields'
import { AppError } from '../app-error'
import { createRanker, foldForSearch } from '../text/hangul-search'
import type { PagedResource } from './records'
import { RECORD_TABLES, storedValue, type RecordTable } from './stored-raw'
import { planSearch } from './search-text'
import { readReview, reviewClause, reviewColumn, reviewCounts } from './reviews'
import { readSyncState } from './sync-state'
import { dataVersion } from './writes'

/**
 * The UI's read queries: pure functions `(db, args)`, `?` parameters only.
 * Filters mirror the API's; text search uses the FTS5 indexes; paging is by
 * keyset on (registered_at, idx), so a deep page costs what the first does.
 */

/** Filters and paging of a list query (the parsed IPC arguments). */
export interface ListQuery {
  /** Free text: Korean (초성 too), English (any case), numbers and codes. */
  readonly q?: string
  /** A status label; `null` selects records without one. Absent: every status. */
  readonly status?: string | null
  /** Exact shop member id (`refUserId`). */
  readonly member?: string
  /** Registration date range, inclusive, `YYYY-MM-DD`. */
  readonly from?: string
  readonly to?: string
  /** Records with this review mark. */
  readonly review?: ReviewMarkName
  readonly sort?: 'latest' | 'oldest'
  readonly limit?: number
  readonly cursor?: string
}

/** Guarantee queries also take the API's issuance state. */
export interface GuaranteeQuery extends ListQuery {
  readonly state?: GuaranteeState
}

/**
 * Labels of each issuance state. `발급완료` is the spec's observed label of
 * `complete`; the other two are the sandbox's (the spec shows none).
 */
export const GUARANTEE_STATE_LABELS: Readonly<Record<GuaranteeState, string>> = {
  ready: '발급대기',
  complete: '발급완료',
  cancel: '발급취소',
}

const STATE_OF_LABEL = new Map(
  Object.entries(GUARANTEE_STATE_LABELS).map(([state, label]) => [label, state as GuaranteeState]),
)

/** Default and largest page of rows. */
export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 500

interface Where {
  readonly clauses: string[]
  readonly params: SQLInputValue[]
}

function baseWhere(db: DatabaseSync, table: PagedResource, query: ListQuery): Where {
  const clauses = ['gone_at IS NULL']
  const params: SQLInputValue[] = []
  if (query.member) {
    clauses.push('ref_user_id = ?')
    params.push(query.member)
  }
  if (query.from) {
    clauses.push('registered_at >= ?')
    params.push(`${checkDate(query.from)} 00:00:00`)
  }
  if (query.to) {
    clauses.push('registered_at < ?')
    params.push(`${nextDay(checkDate(query.to))} 00:00:00`)
  }
  const plan = planSearch(query.q ?? '', brandAliases(db, query.q ?? ''))
  if (plan.kind === 'match') {
    clauses.push(`idx IN (SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ?)`)
    params.push(plan.match)
  } else if (plan.kind === 'none') {
    clauses.push('0')
  }
  return { clauses, params }
}

function withStatus(where: Where, status: string | null | undefined): Where {
  if (status === undefined) return where
  if (status === null) return { ...where, clauses: [...where.clauses, 'status IS NULL'] }
  return { clauses: [...where.clauses, 'status = ?'], params: [...where.params, status] }
}

function withReview(table: PagedResource, where: Where, mark: ReviewMarkName | undefined): Where {
  if (mark === undefined) return where
  const { clause, params } = reviewClause(table, mark)
  return { clauses: [...where.clauses, clause], params: [...where.params, ...params] }
}

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

const countCache = new WeakMap<DatabaseSync, Map<string, StatusCount[]>>()

/** Counts per status for a filter, cached until the data changes. */
function statusCounts(db: DatabaseSync, table: PagedResource, where: Where): StatusCount[] {
  const sql = `SELECT status, count(*) AS n FROM ${table} WHERE ${where.clauses.join(' AND ')} GROUP BY status ORDER BY n DESC`
  const key = `${dataVersion(db)}\u0000${sql}\u0000${JSON.stringify(where.params)}`
  let perDb = countCache.get(db)
  if (!perDb) {
    perDb = new Map()
    countCache.set(db, perDb)
  }
  const hit = perDb.get(key)
  if (hit) return hit
  const rows = db.prepare(sql).all(...where.params) as { status: string | null; n: number }[]
  const counts = rows.map((row) => ({ status: row.status, count: row.n }))
  if (perDb.size > 64) perDb.clear()
  perDb.set(key, counts)
  return counts
}

function totalOf(counts: readonly StatusCount[], status: string | null | undefined): number {
  if (status === undefined) return counts.reduce((sum, entry) => sum + entry.count, 0)
  return counts.find((entry) => entry.status === status)?.count ?? 0
}

/** The freshness every answer carries. */
export function freshnessOf(db: DatabaseSync, resource: PagedResource | 'brands'): CacheFreshness {
  const state = readSyncState(db, resource)
  return {
    lastSyncAt: state.lastSuccessAt,
    lastFullSyncAt: state.lastFullAt,
    syncing: state.status === 'syncing',
    ...(state.lastError && state.status !== 'syncing' ? { staleBecause: state.lastError } : {}),
  }
}

function listPage<R>(
  db: DatabaseSync,
  table: PagedResource,
  columns: string,
  query: ListQuery,
  status: string | null | undefined,
  toRow: (raw: Record<string, unknown>) => R,
): QueryPage<R> {
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT)
  const sort = query.sort ?? 'latest'
  const unreviewed = baseWhere(db, table, query)
  const base = withReview(table, unreviewed, query.review)
  const counts = statusCounts(db, table, base)
  const filtered = withStatus(base, status)
  const forReviews = withStatus(unreviewed, status)
  const clauses = [...filtered.clauses]
  const params = [...filtered.params]
  if (query.cursor) {
    const [registeredAt, idx] = decodeCursor(query.cursor)
    clauses.push(`(registered_at, idx) ${sort === 'latest' ? '<' : '>'} (?, ?)`)
    params.push(registeredAt, idx)
  }
  const direction = sort === 'latest' ? 'DESC' : 'ASC'
  const rows = db
    .prepare(
      `SELECT ${columns}, ${reviewColumn(table)} FROM ${table} WHERE ${clauses.join(' AND ')}
       ORDER BY registered_at ${direction}, idx ${direction} LIMIT ?`,
    )
    .all(...params, limit + 1) as Record<string, unknown>[]
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  const last = page.at(-1)
  return {
    rows: page.map(toRow),
    total: totalOf(counts, status),
    counts,
    reviewCounts: reviewCounts(db, table, forReviews.clauses.join(' AND '), forReviews.params),
    nextCursor:
      more && last ? encodeCursor(String(last['registered_at']), Number(last['idx'])) : null,
    freshness: freshnessOf(db, table),
  }
}

/** The columns a list query selects: the declared listed fields', and `gone_at`. */
function listedColumns(table: RecordTable): string {
  return [...table.fields.filter((f) => f.row !== undefined).map((f) => f.column), 'gone_at'].join(
    ', ',
  )
}

/**
 * The declared part of a listed row, each column checked against its
 * declaration (`storedValue`); `''` of a `blank-null` field is null.
 */
function listedRow<R>(table: string, fields: readonly FieldSpec[], r: Record<string, unknown>): R {
  const row: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.row === undefined) continue
    const value = storedValue(table, f, r)
    row[f.row] = f.null === 'blank-null' && value === '' ? null : value
  }
  // Built from the same declaration as the row type (`RowOf`).
  return row as R
}

const GUARANTEE_COLUMNS = listedColumns(RECORD_TABLES.guarantees)

/** A page of guarantees for the filter. */
export function queryGuarantees(db: DatabaseSync, query: GuaranteeQuery): QueryPage<GuaranteeRow> {
  const status = query.state ? GUARANTEE_STATE_LABELS[query.state] : query.status
  return listPage(db, 'guarantees', GUARANTEE_COLUMNS, query, status, (r) => {
    const row = listedRow<RowOf<typeof GUARANTEE_FIELDS>>('guarantees', GUARANTEE_FIELDS, r)
    return {
      ...row,
      state: STATE_OF_LABEL.get(row.status) ?? null,
      gone: r['gone_at'] !== null,
      review: readReview(r['review']),
    }
  })
}

const INSPECTION_COLUMNS = listedColumns(RECORD_TABLES.inspections)

/** A page of inspections for the filter. */
export function queryInspections(db: DatabaseSync, query: ListQuery): QueryPage<InspectionRow> {
  return listPage(db, 'inspections', INSPECTION_COLUMNS, query, query.status, (r) => ({
    ...listedRow<RowOf<typeof INSPECTION_FIELDS>>('inspections', INSPECTION_FIELDS, r),
    gone: r['gone_at'] !== null,
    review: readReview(r['review']),
  }))
}

/**
 * The other names of a brand the query names exactly (any case, accents and
 * spacing aside): its Korean name for its English one and back, so `chanel`
 * also finds products named `샤넬 …`. Empty when the query names no brand.
 */
export function brandAliases(db: DatabaseSync, query: string): string[] {
  const folded = foldForSearch(query)
  if (folded.length < 2) return []
  const aliases = new Set<string>()
  for (const brand of storedBrands(db)) {
    if (foldForSearch(brand.englishName) === folded) aliases.add(brand.name.trim())
    else if (foldForSearch(brand.name) === folded) aliases.add(brand.englishName.trim())
  }
  aliases.delete('')
  return [...aliases].filter((alias) => foldForSearch(alias) !== folded).slice(0, 4)
}

/** A stored brand as `BRAND_FIELDS` declares it, with how many brands share its name. */
interface StoredBrand extends Brand {
  readonly same: number
}

const brandCache = new WeakMap<DatabaseSync, { version: number; rows: StoredBrand[] }>()

/** The stored brand list in the service's order, read once per data version. */
function storedBrands(db: DatabaseSync): StoredBrand[] {
  const version = dataVersion(db)
  const hit = brandCache.get(db)
  if (hit?.version === version) return hit.rows
  const rows = db
    .prepare(
      `SELECT ${BRAND_FIELDS.map((f) => `b.${f.column}`).join(', ')},
         (SELECT count(*) FROM brands s WHERE s.name = b.name AND s.gone_at IS NULL) AS same
       FROM brands b WHERE b.gone_at IS NULL ORDER BY b.position`,
    )
    .all()
    .map((r) => ({ ...listedRow<Brand>('brands', BRAND_FIELDS, r), same: Number(r['same']) }))
  brandCache.set(db, { version, rows })
  return rows
}

/**
 * Stored brands matching `query` (Korean, 초성 or English, accents aside),
 * best first: exact names, then names starting with it, then 초성 matches,
 * then matches inside a name; the service's order within each rank.
 */
export function searchBrands(
  db: DatabaseSync,
  query: string,
): { items: BrandRow[]; total: number } {
  const rows = storedBrands(db)
  const rank = createRanker(query)
  const items = rows
    .map((row, position) => ({ row, position, rank: rank(row.name, row.englishName) }))
    .filter((entry) => entry.rank !== null)
    .sort((a, b) => a.rank! - b.rank! || a.position - b.position)
    .map(({ row }) => ({
      idx: row.idx,
      name: row.name,
      englishName: row.englishName,
      sameNameCount: row.same,
    }))
  return { items, total: rows.length }
}

/** Number of stored, not-gone records of a resource. */
export function recordCount(db: DatabaseSync, resource: PagedResource | 'brands'): number {
  const row = db.prepare(`SELECT count(*) AS n FROM ${resource} WHERE gone_at IS NULL`).get() as {
    n: number
  }
  return row.n
}
