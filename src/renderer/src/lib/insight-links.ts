import type { QueryClient } from '@tanstack/svelte-query'
import type { DashboardFilter } from '../../../shared/dashboard'
import type { ReconcileKind, ReconcileRecord } from '../../../shared/reconcile'
import type { Client } from './client'
import { requestReveal } from './commands.svelte'
import { emptyFilters } from './list-query.svelte'
import { fromSavedFilter, type SavedViews } from './saved-views.svelte'

/**
 * What the dashboard and the reconciliation view share: their query keys
 * (refreshed when the local data changes), and how a number or a record
 * opens the list that shows it.
 */

/** Query keys of the dashboard and reconciliation answers (`[...insightKey, channel, args]`). */
export const insightKey = ['insight'] as const

/** Refreshes the dashboard and reconciliation answers whenever a list's data changed; returns the unsubscribe. */
export function refreshOnChange(client: Client, queryClient: QueryClient): () => void {
  const refresh = (): void => void queryClient.invalidateQueries({ queryKey: insightKey })
  const offs = [
    client.on('data.changed', refresh),
    client.on('sync.progress', (event) => {
      if (event.phase !== 'running') refresh()
    }),
  ]
  return () => offs.forEach((off) => off())
}

/** A kind the reconciliation view opens on, taken once when it is shown. */
let pendingKind: ReconcileKind | null = null

/** The kind the reconciliation view was asked to show, taken once. */
export function takeReconcileKind(): ReconcileKind | null {
  const kind = pendingKind
  pendingKind = null
  return kind
}

/** Opens what a dashboard number counts: a list with its filter, or the reconciliation view on a kind. */
export function openDashboardFilter(views: SavedViews, filter: DashboardFilter): void {
  if (filter.list === 'reconcile') {
    pendingKind = filter.args.kind
    location.hash = 'reconcile'
    return
  }
  views.open(filter.list, fromSavedFilter(filter.args))
}

/**
 * Opens one record on its list: the list is searched for what finds it
 * (its order line, else its member; every other filter cleared) and its
 * details open.
 */
export function openReconciledRecord(views: SavedViews, record: ReconcileRecord, q: string): void {
  requestReveal({ resource: record.resource, idx: record.idx, q })
  views.open(record.resource, { ...emptyFilters(), q })
}

const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>()

/** `day` (`YYYY-MM-DD`) in the UI's locale, month written `short` or `numeric`. */
function formatDay(day: string, locale: string, month: 'short' | 'numeric'): string {
  const key = `${locale}:${month}`
  let format = DAY_FORMATS.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month, day: 'numeric', timeZone: 'UTC' })
    DAY_FORMATS.set(key, format)
  }
  return format.format(new Date(`${day}T00:00:00Z`))
}

/** A `YYYY-MM-DD` day as a short date in the UI's locale (`11월 20일`, `Nov 20`). */
function shortDay(day: string, locale: string): string {
  return formatDay(day, locale, 'short')
}

/** A `YYYY-MM-DD` day as the shortest date in the UI's locale (`11. 20.`, `11/20`): chart ticks, table heads. */
export function tinyDay(day: string, locale: string): string {
  return formatDay(day, locale, 'numeric')
}

/** A day range as short dates (`11월 20일 – 11월 26일`); one day alone when it starts and ends the same day. */
export function shortRange(from: string, to: string, locale: string): string {
  return from === to
    ? shortDay(from, locale)
    : `${shortDay(from, locale)} – ${shortDay(to, locale)}`
}
