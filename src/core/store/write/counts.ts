import type { StoreConnection, Cell, TallyStatements } from '../connection'
import type { ReviewCounts, ReviewMarkName, StatusCount } from '../../../shared/lists'
import type { PagedResource } from '../record-types'
import { prepared } from '../statements'

/**
 * Counts of the lists without a scan: migration 7 keeps not-gone records per
 * (list, status, review mark) in `list_counts`, and per registration day in
 * `list_day_counts`, in the same transaction as the rows: records the sync
 * inserts are added by the writer ({@link NewRecordTally}, once per page;
 * migration 8), every other change by triggers. A
 * filter without text or member is then a sum over a few small rows. A
 * query that must count its matches builds the same cells with one
 * `GROUP BY` ({@link cellColumns}), so both paths share {@link summarise}.
 */

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
export function storedCells(db: StoreConnection, resource: PagedResource, range: DayRange): Cell[] {
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
  const rows = prepared(db, sql).all(...params) as {
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

/** {@link countedMark} in SQL, of a `review_marks` row `r` (NULL when a list row has none). */
export const COUNTED_MARK_SQL = `CASE WHEN r.mark IS NULL OR r.mark = 'none' THEN '' ELSE r.mark END`

/**
 * The columns (`status`, `mark`, `n`) of a `GROUP BY 1, 2` over list rows
 * `t` left-joined to their mark `r`: the same cells as the stored ones.
 */
export function cellColumns(): string {
  return `t.status AS status, ${COUNTED_MARK_SQL} AS mark, count(*) AS n`
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
  const ofMark = review === undefined ? cells : cells.filter((c) => c.mark === countedMark(review))
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
    total: sum(ofStatus.filter((c) => review === undefined || c.mark === countedMark(review))),
    counts,
    reviewCounts: { reviewed, follow_up: followUp, none: all - reviewed - followUp },
  }
}

/** Not-gone records of a list, from the stored counts. */
export function listCount(db: StoreConnection, resource: PagedResource): number {
  const row = prepared(db, 'SELECT ifnull(sum(n), 0) AS n FROM list_counts WHERE resource = ?').get(
    resource,
  ) as { n: number }
  return row.n
}

/**
 * True while every record's `idx` order is its registration order (no
 * neighbours the other way round): the list's `(registered_at, idx)` order
 * is then `idx` order, and a query may walk an index by `idx` instead.
 */
export function inIdxOrder(db: StoreConnection, resource: PagedResource): boolean {
  const row = prepared(db, 'SELECT inversions FROM list_order WHERE resource = ?').get(resource) as
    { inversions: number } | undefined
  // No row (never expected: migration 7 writes one per list): assume the worst, sort.
  return row?.inversions === 0
}

/** The counted mark of a stored `review_marks.mark` (`''`: no mark, or `none`). */
export function countedMark(mark: string | null | undefined): string {
  return mark === null || mark === undefined || mark === 'none' ? '' : mark
}

/** The first `n` characters of `text` (SQLite's `substr(text, 1, n)`: code points, not UTF-16 units). */
function firstCharacters(text: string, n: number): string {
  if (!/[\uD800-\uDFFF]/.test(text.slice(0, 2 * n))) return text.slice(0, n)
  return Array.from(text.slice(0, 2 * n))
    .slice(0, n)
    .join('')
}

interface TallyCell {
  readonly status: string | null
  readonly day: string
  readonly mark: string
  n: number
}

function prepareTally(db: StoreConnection): TallyStatements {
  let found = db.tallyStatements
  if (found) return found
  found = {
    counts: db.prepare(`INSERT INTO list_counts (resource, has_status, status, mark, n)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`),
    days: db.prepare(`INSERT INTO list_day_counts (resource, day, has_status, status, mark, n)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n`),
    order: db.prepare('UPDATE list_order SET inversions = inversions + ? WHERE resource = ?'),
  }
  db.tallyStatements = found
  return found
}

/**
 * What the new records of one write add to the stored counts: gathered per
 * record in memory, then added in a few statements ({@link flush}) inside
 * the same transaction. Replaces migration 7's insert triggers, which cost
 * a trigger program per record; changes to stored records still go through
 * the update and delete triggers.
 */
export class NewRecordTally {
  readonly #cells = new Map<string, TallyCell>()
  #inversions = 0

  /** A new, not-gone record of `status`, registered at `registeredAt`, with counted mark `mark`. */
  add(status: string | null, registeredAt: string, mark: string): void {
    const day = firstCharacters(registeredAt, 10)
    const key = `${status === null ? '0' : `1${status}`}\u0000${day}\u0000${mark}`
    const cell = this.#cells.get(key)
    if (cell) cell.n += 1
    else this.#cells.set(key, { status, day, mark, n: 1 })
  }

  /** Neighbours in `idx` order whose registration times the insert turned the other way round (may be negative). */
  addInversions(n: number): void {
    this.#inversions += n
  }

  /** Adds what was gathered to the stored counts of `resource`, and starts over. */
  flush(db: StoreConnection, resource: PagedResource): void {
    if (this.#cells.size === 0 && this.#inversions === 0) return
    const s = prepareTally(db)
    const perList = new Map<string, TallyCell>()
    for (const cell of this.#cells.values()) {
      const hasStatus = cell.status === null ? 0 : 1
      s.days.run(resource, cell.day, hasStatus, cell.status ?? '', cell.mark, cell.n)
      const key = `${hasStatus}${cell.status ?? ''}\u0000${cell.mark}`
      const total = perList.get(key)
      if (total) total.n += cell.n
      else perList.set(key, { ...cell })
    }
    for (const cell of perList.values()) {
      s.counts.run(resource, cell.status === null ? 0 : 1, cell.status ?? '', cell.mark, cell.n)
    }
    if (this.#inversions !== 0) s.order.run(this.#inversions, resource)
    this.#cells.clear()
    this.#inversions = 0
  }
}
