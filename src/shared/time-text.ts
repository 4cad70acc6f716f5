import { localTimestamp } from './local-time'

/**
 * The one way the app writes a time, in the window and in an export's text:
 * wall-clock digits in the profile's zone, one pattern per precision —
 * `2026-11-22` (day), `2026-11-22 10:51` (minute), `2026-11-22 10:51:03`
 * (second). Instants (ISO text with `Z` or an offset, a `Date`, epoch
 * milliseconds) are converted to the zone; the service's own times are
 * wall-clock text already (the spec gives them no zone) and are only cut to
 * the precision. A workbook's date cells stay dates (`src/core/export/xlsx.ts`).
 */

/** How much of a time is written. */
export type TimePrecision = 'day' | 'minute' | 'second'

/** Characters of `YYYY-MM-DD HH:MM:SS` each precision keeps. */
const LENGTH: Readonly<Record<TimePrecision, number>> = { day: 10, minute: 16, second: 19 }

/** A service wall-clock time, `YYYY-MM-DD HH:MM[:SS]` (or with `T`), with no zone. */
const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?(?:\.\d+)?)?$/u
/** An instant: date and time with `Z` or an offset. */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/iu

/** An instant in `timeZone`, e.g. `2026-11-22 10:51`; the text unchanged when it is no time. */
export function instantText(
  instant: string | number | Date,
  timeZone: string,
  precision: TimePrecision = 'minute',
): string {
  const date = instant instanceof Date ? instant : new Date(instant)
  if (Number.isNaN(date.getTime())) return String(instant)
  return localTimestamp(date, timeZone).slice(0, LENGTH[precision])
}

/**
 * A service wall-clock time cut to `precision` (never converted: it is the
 * service's own clock, which the profile's zone labels); other text as it is.
 */
export function serviceTimeText(value: string, precision: TimePrecision = 'minute'): string {
  const match = WALL_CLOCK.exec(value)
  if (!match) return value
  const text = `${match[1] ?? ''} ${match[2] ?? '00:00'}${match[3] ?? ':00'}`
  return text.slice(0, LENGTH[precision])
}

/**
 * Any value that may hold a time, written the one way: an instant in the
 * zone, a wall-clock time cut to the precision, anything else as it is.
 * For values whose kind is not known in advance (a wallet page's return
 * parameters, an export's cells).
 */
export function timeValueText(
  value: string,
  timeZone: string,
  precision: TimePrecision = 'second',
): string {
  const trimmed = value.trim()
  if (INSTANT.test(trimmed)) return instantText(trimmed, timeZone, precision)
  if (WALL_CLOCK.test(trimmed) && trimmed.length > 10) return serviceTimeText(trimmed, precision)
  return value
}
