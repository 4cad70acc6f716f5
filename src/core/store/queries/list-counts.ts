import type { StoreConnection, Cell } from '../connection'
import { matchCells } from '../search/cell-index'
import { agingCutoff } from './change-queries'
import { STATUS_CODE_OF, STATUS_SINCE_LIST, sinceValue } from '../schema/status-since'
import { prepared } from '../statements'
import type { PagedResource } from '../record-types'
import { cellColumns, COUNTED_MARK_SQL, inIdxOrder, storedCells } from '../write/counts'
import { dataVersion } from '../data-version'
import {
  type ListRequest,
  type Text,
  SHORT_QUERY_COUNT_CAP,
  type Statement,
  baseWhere,
  withText,
  and,
  mustCount,
  searchOnly,
  rowidRange,
  checkDate,
  matchingRowids,
} from './list-sql'

/**
 * The counts of a list page (per status and review mark, the cells): from
 * the stored counts when the filter allows, else counted by SQL over what
 * the page walks, a short query's matches up to
 * {@link SHORT_QUERY_COUNT_CAP}.
 */

/**
 * The cells (per status and mark) of the filter without its status and
 * review parts: from the stored counts when it has no text and no member,
 * else counted, a short query's matches only up to
 * {@link SHORT_QUERY_COUNT_CAP} (`capped` then says there are more).
 */
export function cellsOf(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): { cells: Cell[]; capped: boolean } {
  if (text.plan.kind === 'none') return { cells: [], capped: false }
  const aged = agedCells(db, table, query, text)
  if (aged) return { cells: aged, capped: false }
  const unassigned = unassignedCells(db, table, query, text)
  if (unassigned) return { cells: unassigned, capped: false }
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
 * a scan: every stored record has a `status_since` row, so the aged
 * records are the stored counts less the rows after the cutoff (the recent
 * end of their index). Null for any other filter.
 */
function agedCells(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): Cell[] | null {
  if (query.agedDays === undefined || text.plan.kind !== 'all' || query.member) return null
  if (query.markedBy !== undefined || query.assignee !== undefined) return null
  if (query.from !== undefined || query.to !== undefined) return null
  const cutoff = sinceValue(agingCutoff(query.agedAsOf ?? new Date().toISOString(), query.agedDays))
  const stored = storedCells(db, table, {})
  // One range of the (list, status, since) index per status the list holds.
  const recentOf = prepared(
    db,
    `SELECT ${cellColumns()} FROM status_since s CROSS JOIN ${table} t ON t.idx = s.idx
      LEFT JOIN review_marks r ON r.resource = '${table}' AND r.record_idx = t.idx
      WHERE s.list = ${STATUS_SINCE_LIST[table]} AND s.status = ${STATUS_CODE_OF}
        AND s.since > ? AND t.gone_at IS NULL
      GROUP BY 1, 2`,
  )
  const recent = new Map<string, number>()
  for (const status of new Set(stored.map((c) => c.status ?? ''))) {
    for (const c of recentOf.all(status, cutoff) as unknown as Cell[]) {
      recent.set(`${c.status}\u0000${c.mark}`, c.n)
    }
  }
  return stored.map((c) => ({
    ...c,
    n: c.n - (recent.get(`${c.status}\u0000${c.mark}`) ?? 0),
  }))
}

/**
 * The cells of the "assigned to nobody" filter without text, member, aging
 * or who marked, without a scan: the stored counts (of the filter's days)
 * less the cells of the assigned records, read from `record_assignments`
 * ({@link assignedCountStatement}). Null for any other filter.
 */
function unassignedCells(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): Cell[] | null {
  const statement = assignedCountStatement(db, table, query, text)
  if (!statement) return null
  const assigned = prepared(db, statement.sql).all(...statement.params) as unknown as Cell[]
  const taken = new Map(assigned.map((c) => [`${c.status}\u0000${c.mark}`, c.n]))
  const range = {
    from: query.from === undefined ? undefined : checkDate(query.from),
    to: query.to === undefined ? undefined : checkDate(query.to),
  }
  return storedCells(db, table, range)
    .map((c) => ({ ...c, n: c.n - (taken.get(`${c.status}\u0000${c.mark}`) ?? 0) }))
    .filter((c) => c.n > 0)
}

/**
 * The cells of the assigned records within the filter's days: what the
 * "assigned to nobody" filter subtracts from the stored counts. Null when
 * that filter has another part the stored counts cannot answer.
 */
export function assignedCountStatement(
  db: StoreConnection,
  table: PagedResource,
  query: ListRequest,
  text: Text,
): Statement | null {
  if (query.assignee !== 'nobody' || text.plan.kind !== 'all' || query.member) return null
  if (query.markedBy !== undefined || query.agedDays !== undefined) return null
  const where = baseWhere(db, table, { from: query.from, to: query.to })
  return {
    sql: `SELECT ${cellColumns()} FROM record_assignments a CROSS JOIN ${table} t ON t.idx = a.record_idx
      LEFT JOIN review_marks r ON r.resource = '${table}' AND r.record_idx = t.idx
      WHERE a.resource = '${table}' AND ${where.clauses.join(' AND ')} GROUP BY 1, 2`,
    params: where.params,
  }
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

/** The counting statement of {@link cellsOf}, walking what the page walks. */
export function countStatement(
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
