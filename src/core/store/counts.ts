import type { DatabaseSync } from 'node:sqlite'
import type { ReviewCounts, ReviewMarkName, StatusCount } from '../../shared/cache'
import type { PagedResource } from './records'

/**
 * Counts of the lists without a scan: migration 7 keeps not-gone records per
 * (list, status, review mark) in `list_counts`, and per registration day in
 * `list_day_counts`, by triggers in the same transaction as the rows. A
 * filter without text or member is then a sum over a few small rows. A
 * query that must count its matches builds the same cells with one
 * `GROUP BY` ({@link cellColumns}), so both paths share {@link summarise}.
 */

/** Not-gone records of one status and counted review mark (`''`: no mark, or `none`). */
export interface Cell {
  readonly status: string | null
  readonly mark: string
  readonly n: number
}

/** What a page reports about its filter. */
export interface Summary {
  readonly total: number
  readonly counts: StatusCount[]
  readonly reviewCounts: ReviewCounts
}

/** Registration days, inclusive, `YYYY-MM-DD`. */
export interface DayRange {
  readonly from?: string | undefined
  readonly to?: string | undefined
}

/**
 * The stored cells of a list, over a day range when one is given (the
 * filter's `from`/`to`: a record registered on those days counts).
 */
export function storedCells(db: DatabaseSync, resource: PagedResource, range: DayRange): Cell[] {
  const params: string[] = [resource]
  let sql = 'SELECT has_status, status, mark, n FROM list_counts WHERE resource = ? AND n <> 0'
  if (range.from !== undefined || range.to !== undefined) {
    const days: string[] = []
    if (range.from !== undefined) {
      days.push('day >= ?')
      params.push(range.from)
    }
    if (range.to !== undefined) {
      days.push('day <= ?')
      params.push(range.to)
    }
    sql = `SELECT has_status, status, mark, sum(n) AS n FROM list_day_counts
      WHERE resource = ? AND ${days.join(' AND ')} GROUP BY has_status, status, mark`
  }
  const rows = db.prepare(sql).all(...params) as {
    has_status: number
    status: string
    mark: string
    n: number
  }[]
  return rows.map((row) => ({
    status: row.has_status ? row.status : null,
    mark: row.mark,
    n: row.n,
  }))
}

/**
 * The columns (`status`, `mark`, `n`) of a `GROUP BY 1, 2` over list rows
 * `t` left-joined to their mark `r`: the same cells as the stored ones.
 */
export function cellColumns(): string {
  return `t.status AS status, CASE WHEN r.mark IS NULL OR r.mark = 'none' THEN '' ELSE r.mark END AS mark, count(*) AS n`
}

/** The counted mark of a filter's review mark. */
function markBucket(review: ReviewMarkName): string {
  return review === 'none' ? '' : review
}

/**
 * Total, per-status counts (without the status part of the filter) and
 * per-mark counts (without its review part) of cells that cover the rest
 * of the filter.
 */
export function summarise(
  cells: readonly Cell[],
  status: string | null | undefined,
  review: ReviewMarkName | undefined,
): Summary {
  const ofMark = review === undefined ? cells : cells.filter((c) => c.mark === markBucket(review))
  const ofStatus = status === undefined ? cells : cells.filter((c) => c.status === status)
  const perStatus = new Map<string | null, number>()
  for (const cell of ofMark) perStatus.set(cell.status, (perStatus.get(cell.status) ?? 0) + cell.n)
  const counts = [...perStatus]
    .filter(([, count]) => count > 0)
    .map(([s, count]) => ({ status: s, count }))
    .sort((a, b) => b.count - a.count || String(a.status).localeCompare(String(b.status)))
  const sum = (list: readonly Cell[]): number => list.reduce((acc, cell) => acc + cell.n, 0)
  const all = sum(ofStatus)
  const reviewed = sum(ofStatus.filter((c) => c.mark === 'reviewed'))
  const followUp = sum(ofStatus.filter((c) => c.mark === 'follow_up'))
  return {
    total: sum(ofStatus.filter((c) => review === undefined || c.mark === markBucket(review))),
    counts,
    reviewCounts: { reviewed, follow_up: followUp, none: all - reviewed - followUp },
  }
}

/** Not-gone records of a list, from the stored counts. */
export function listCount(db: DatabaseSync, resource: PagedResource): number {
  const row = db
    .prepare('SELECT ifnull(sum(n), 0) AS n FROM list_counts WHERE resource = ?')
    .get(resource) as { n: number }
  return row.n
}

/**
 * True while every record's `idx` order is its registration order (no
 * neighbours the other way round): the list's `(registered_at, idx)` order
 * is then `idx` order, and a query may walk an index by `idx` instead.
 */
export function inIdxOrder(db: DatabaseSync, resource: PagedResource): boolean {
  const row = db.prepare('SELECT inversions FROM list_order WHERE resource = ?').get(resource) as
    { inversions: number } | undefined
  return (row?.inversions ?? 0) === 0
}
