import type { QueryClient } from '@tanstack/svelte-query'
import type { DashboardFilter } from '../../../shared/dashboard'
import type { Client } from './client'
import type { Navigation } from './navigation'
import { fromSavedFilter } from './saved-views.svelte'

/**
 * What the dashboard and the reconciliation view share: their query keys
 * (refreshed when the local data changes), how a number opens the list it
 * counts, and how their days are written.
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

/** Opens what a dashboard number counts: its list with its filter (a jump), or the reconciliation view on a kind. */
export function openDashboardFilter(navigation: Navigation, filter: DashboardFilter): void {
  if (filter.list === 'reconcile') navigation.openReconcile(filter.args.kind)
  else
    navigation.openList(filter.list, { filters: fromSavedFilter(filter.args), jump: 'dashboard' })
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

const WEEKDAY_FORMATS = new Map<string, Intl.DateTimeFormat>()

/** A `YYYY-MM-DD` day's weekday, short, in the UI's locale (`월`, `Mon`). */
export function weekday(day: string, locale: string): string {
  let format = WEEKDAY_FORMATS.get(locale)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' })
    WEEKDAY_FORMATS.set(locale, format)
  }
  return format.format(new Date(`${day}T00:00:00Z`))
}

/**
 * The dates a run of bars covers, as a short range (`11. 16. – 11. 22.`): the
 * first bar's first day to the last bar's last day.
 */
export function periodRange(
  points: readonly { from: string; to: string }[],
  locale: string,
): string {
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) return ''
  return first.from === last.to
    ? tinyDay(first.from, locale)
    : `${tinyDay(first.from, locale)} – ${tinyDay(last.to, locale)}`
}
