import { localTimestamp } from '../../../shared/local-time'

/**
 * Formats an ISO instant as wall-clock time in the service's zone
 * (default Asia/Seoul), e.g. `2026-11-22 10:51`.
 */
export function formatInstant(iso: string, timeZone: string): string {
  return localTimestamp(new Date(iso), timeZone).slice(0, 16)
}

/**
 * A service timestamp (`YYYY-MM-DD HH:MM:SS`, the service's local time) cut
 * to minutes for tables; shown as sent, never converted, since the spec does
 * not say its zone (the profile labels it).
 */
export function formatServiceTime(value: string | null): string {
  if (!value) return '—'
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(value) ? value.slice(0, 16) : value
}

/**
 * A service timestamp in full with the profile's zone beside it, for a
 * detail pane (`2026-11-22 10:51:03 (Asia/Seoul)`); null when there is none.
 */
export function zonedServiceTime(value: string | null, timeZone: string): string | null {
  return value ? `${value} (${timeZone})` : null
}
