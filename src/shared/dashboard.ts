import type { PagedResourceName } from './resources'
import type { ReconcileKind } from './reconcile'

/**
 * The dashboard's numbers (`dashboard.get`). Every number carries the filter
 * that reproduces it: the list it counts and that list's query arguments
 * (those of `inspections.query`, `guarantees.query` or `reconcile.list`),
 * so the screen opens the matching filtered list.
 */

/** A list's filter parts a dashboard number uses (each is a field of the list's query). */
export interface DashboardListArgs {
  /** A status label; null: records without one. */
  readonly status?: string | null
  /** Registration dates, inclusive, `YYYY-MM-DD`. */
  readonly from?: string
  readonly to?: string
}

/** The list a number opens, with its filter. */
export type DashboardFilter =
  | { readonly list: PagedResourceName; readonly args: DashboardListArgs }
  | { readonly list: 'reconcile'; readonly args: { readonly kind: ReconcileKind } }

/** One number and the filter of the list it counts. */
export interface DashboardNumber {
  readonly n: number
  readonly filter: DashboardFilter
}

/** A status of a list: its records, those registered this week and last, and the change. */
interface DashboardStatus {
  /** The label; null for records without one. */
  readonly status: string | null
  readonly total: DashboardNumber
  readonly thisWeek: DashboardNumber
  readonly lastWeek: DashboardNumber
  /** `thisWeek.n - lastWeek.n`. */
  readonly change: number
}

/** One list's numbers. */
export interface DashboardList {
  readonly resource: PagedResourceName
  readonly total: DashboardNumber
  readonly thisWeek: DashboardNumber
  readonly lastWeek: DashboardNumber
  readonly statuses: readonly DashboardStatus[]
}

/** One bar: the records registered from `from` to `to` (a day, or a week). */
export interface DashboardPoint {
  readonly from: string
  readonly to: string
  readonly n: number
  readonly filter: DashboardFilter
}

/** Records registered per day or week: this period and the one before, bar for bar. */
export interface DashboardSeries {
  /** Inspections received, or guarantees issued (registered). */
  readonly resource: PagedResourceName
  readonly current: readonly DashboardPoint[]
  readonly previous: readonly DashboardPoint[]
}

/** A date range, inclusive. */
export interface DayRange {
  readonly from: string
  readonly to: string
}

/** Answer of `dashboard.get`. */
export interface Dashboard {
  /** The profile's today, `YYYY-MM-DD` in its time zone. */
  readonly today: string
  /** The seven days ending today, and the seven before. */
  readonly thisWeek: DayRange
  readonly lastWeek: DayRange
  readonly bucket: 'day' | 'week'
  readonly lists: readonly DashboardList[]
  readonly series: readonly DashboardSeries[]
  /** Records per reconciliation kind. */
  readonly reconcile: readonly (DashboardNumber & { readonly kind: ReconcileKind })[]
}
