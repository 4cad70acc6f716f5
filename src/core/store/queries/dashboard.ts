import type { StoreConnection } from '../connection'
import { PAGED_RESOURCES } from '../../../shared/resources'
import type { PagedResourceName } from '../../../shared/resources'
import type {
  Dashboard,
  DashboardFilter,
  DashboardList,
  DashboardListArgs,
  DashboardNumber,
  DashboardPoint,
  DashboardSeries,
  DayRange,
} from '../../../shared/dashboard'
import { RECONCILE_KINDS } from '../../../shared/reconcile'
import { AppError } from '../../app-error'
import { reconcileTotals } from './reconcile'
import { prepared } from '../statements'

/**
 * The dashboard's numbers, all from small stored tables: `list_counts` and
 * `list_day_counts` (records per list, status and registration day, kept by
 * triggers: `migrations/0007-counts.ts`) and `reconcile_counts`. A week is
 * the seven days ending on the profile's today; the filter each number
 * carries counts the same records through the list query.
 */

/** What {@link dashboard} needs: the profile's today and the series' bucket. */
export interface DashboardAsk {
  /** `YYYY-MM-DD` in the profile's time zone. */
  readonly today: string
  readonly bucket: 'day' | 'week'
}

/** Bars of each period: seven days, or eight weeks. */
const BARS = { day: 7, week: 8 } as const

const LISTS: readonly PagedResourceName[] = PAGED_RESOURCES

/** `day` moved by `days` (negative: back). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

interface StatusRow {
  has_status: number
  status: string
  n: number
}

/** Records per status of a list, all of them or those registered in `range`. */
function perStatus(
  db: StoreConnection,
  resource: PagedResourceName,
  range?: DayRange,
): Map<string | null, number> {
  const rows = (range
    ? prepared(
        db,
        `SELECT has_status, status, sum(n) AS n FROM list_day_counts
           WHERE resource = ? AND day >= ? AND day <= ? GROUP BY 1, 2`,
      ).all(resource, range.from, range.to)
    : prepared(
        db,
        `SELECT has_status, status, sum(n) AS n FROM list_counts WHERE resource = ? GROUP BY 1, 2`,
      ).all(resource)) as unknown as StatusRow[]
  const counts = new Map<string | null, number>()
  for (const row of rows) {
    if (row.n > 0) counts.set(row.has_status ? row.status : null, row.n)
  }
  return counts
}

function number(resource: PagedResourceName, n: number, args: DashboardListArgs): DashboardNumber {
  const filter: DashboardFilter = { list: resource, args }
  return { n, filter }
}

const sum = (counts: Map<string | null, number>): number =>
  [...counts.values()].reduce((total, n) => total + n, 0)

function listOf(
  db: StoreConnection,
  resource: PagedResourceName,
  thisWeek: DayRange,
  lastWeek: DayRange,
): DashboardList {
  const all = perStatus(db, resource)
  const current = perStatus(db, resource, thisWeek)
  const previous = perStatus(db, resource, lastWeek)
  const statuses = [...all.keys()].sort((a, b) => (all.get(b) ?? 0) - (all.get(a) ?? 0))
  return {
    resource,
    total: number(resource, sum(all), {}),
    thisWeek: number(resource, sum(current), { ...thisWeek }),
    lastWeek: number(resource, sum(previous), { ...lastWeek }),
    statuses: statuses.map((status) => {
      const now = current.get(status) ?? 0
      const before = previous.get(status) ?? 0
      return {
        status,
        total: number(resource, all.get(status) ?? 0, { status }),
        thisWeek: number(resource, now, { status, ...thisWeek }),
        lastWeek: number(resource, before, { status, ...lastWeek }),
        change: now - before,
      }
    }),
  }
}

/** Records registered per day from `from` to `to`, inclusive. */
function perDay(
  db: StoreConnection,
  resource: PagedResourceName,
  from: string,
  to: string,
): Map<string, number> {
  const rows = prepared(
    db,
    `SELECT day, sum(n) AS n FROM list_day_counts
     WHERE resource = ? AND day >= ? AND day <= ? GROUP BY day`,
  ).all(resource, from, to) as { day: string; n: number }[]
  return new Map(rows.map((row) => [row.day, row.n]))
}

function seriesOf(
  db: StoreConnection,
  resource: PagedResourceName,
  today: string,
  bucket: 'day' | 'week',
): DashboardSeries {
  const width = bucket === 'day' ? 1 : 7
  const bars = BARS[bucket]
  const first = addDays(today, -(2 * bars * width) + 1)
  const days = perDay(db, resource, first, today)
  const bar = (index: number): DashboardPoint => {
    const from = addDays(first, index * width)
    const to = addDays(from, width - 1)
    let n = 0
    for (let d = 0; d < width; d += 1) n += days.get(addDays(from, d)) ?? 0
    return { from, to, n, filter: { list: resource, args: { from, to } } }
  }
  return {
    resource,
    previous: Array.from({ length: bars }, (_, i) => bar(i)),
    current: Array.from({ length: bars }, (_, i) => bar(bars + i)),
  }
}

/** Every number of the dashboard, read in one go. */
export function dashboard(db: StoreConnection, ask: DashboardAsk): Dashboard {
  if (!/^\d{4}-\d{2}-\d{2}$/u.test(ask.today) || Number.isNaN(Date.parse(ask.today))) {
    throw new AppError('invalid_argument', 'Dates are written YYYY-MM-DD.')
  }
  const thisWeek = { from: addDays(ask.today, -6), to: ask.today }
  const lastWeek = { from: addDays(ask.today, -13), to: addDays(ask.today, -7) }
  const totals = reconcileTotals(db)
  return {
    today: ask.today,
    thisWeek,
    lastWeek,
    bucket: ask.bucket,
    lists: LISTS.map((resource) => listOf(db, resource, thisWeek, lastWeek)),
    series: LISTS.map((resource) => seriesOf(db, resource, ask.today, ask.bucket)),
    reconcile: RECONCILE_KINDS.map((kind) => ({
      kind,
      n: totals[kind],
      filter: { list: 'reconcile', args: { kind } },
    })),
  }
}
