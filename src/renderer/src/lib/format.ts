import { instantText, serviceTimeText } from '../../../shared/time-text'

/**
 * Formats an ISO instant as wall-clock time in the profile's zone
 * (default Asia/Seoul), e.g. `2026-11-22 10:51` (`src/shared/time-text.ts`).
 */
export function formatInstant(iso: string, timeZone: string): string {
  return instantText(iso, timeZone, 'minute')
}

/**
 * A service timestamp (`YYYY-MM-DD HH:MM:SS`, the service's local time) cut
 * to minutes for tables; shown as sent, never converted, since the spec does
 * not say its zone (the profile labels it).
 */
export function formatServiceTime(value: string | null): string {
  if (!value) return '—'
  return serviceTimeText(value, 'minute')
}

/**
 * A service timestamp in full with the profile's zone beside it, for a
 * detail pane (`2026-11-22 10:51:03 (Asia/Seoul)`); null when there is none.
 */
export function zonedServiceTime(value: string | null, timeZone: string): string | null {
  return value ? `${serviceTimeText(value, 'second')} (${timeZone})` : null
}
