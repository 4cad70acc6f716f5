import type { PagedResource } from '../record-types'

/**
 * How `status_since` stores a row (migration 25; docs/store-and-sync.md
 * "Aging"): the list as a number, the status as its code in
 * `status_codes`, `since` as milliseconds since 1970 (UTC). Answers give
 * `since` back as ISO text, as the service's times and the sync's are.
 */

/** The number `status_since.list` holds for each list. */
export const STATUS_SINCE_LIST: Readonly<Record<PagedResource, number>> = {
  inspections: 0,
  guarantees: 1,
}

/** An instant (ISO) as `status_since.since` holds it. */
export function sinceValue(iso: string): number {
  const ms = Date.parse(iso)
  if (!Number.isFinite(ms)) throw new RangeError(`Not an instant: ${iso}`)
  return ms
}

/** A `status_since.since` as ISO text. */
export function sinceText(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * SQL of a status's code (`?` is its text, `''` for none), added to
 * `status_codes` first with {@link ADD_STATUS_CODE}.
 */
export const STATUS_CODE_OF = '(SELECT code FROM status_codes WHERE status = ?)'

/** Adds a status text to `status_codes` unless it is there. */
export const ADD_STATUS_CODE = 'INSERT OR IGNORE INTO status_codes (status) VALUES (?)'

/** SQL of a `since` column (`column`) as ISO text, as {@link sinceText} writes it. */
export function sinceTextSql(column: string): string {
  return `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`
}
