/**
 * Formats an ISO instant as wall-clock time in the service's zone
 * (default Asia/Seoul), e.g. `2026-11-22 10:51`.
 */
export function formatInstant(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso))
  const get = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((part) => part.type === type)?.value ?? ''
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`
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
