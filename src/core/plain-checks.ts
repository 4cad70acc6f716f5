/**
 * Checks of values that arrive from outside this thread (another thread's
 * message, a stored row), written by hand for the data threads, which load
 * no schema library (about 4 MB in each thread that does).
 */

/** A plain object's fields (not null, not an array). */
export type Fields = Readonly<Record<string, unknown>>

/** True for an object that is neither null nor an array. */
export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** True for an integer of at least `min` (a whole number JavaScript holds exactly). */
export function isIntegerFrom(value: unknown, min: number): value is number {
  return Number.isSafeInteger(value) && (value as number) >= min
}

/** True for an integer of at least 1. */
export function isPositiveInteger(value: unknown): value is number {
  return isIntegerFrom(value, 1)
}

/** True when `value` is one of `values`. */
export function isOneOf<T>(values: readonly T[], value: unknown): value is T {
  return (values as readonly unknown[]).includes(value)
}
