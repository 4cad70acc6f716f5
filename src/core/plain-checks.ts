import { ERROR_CODES, ERROR_REASONS, type ErrorData } from '../shared/errors'

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

/**
 * `value` as an {@link ErrorData}, or null when it is not one: an error
 * another thread sent, or a stored sync state's last error.
 */
export function readErrorData(value: unknown): ErrorData | null {
  if (!isFields(value)) return null
  const { code, message, status, retryAt, reason, values } = value
  if (!isOneOf(ERROR_CODES, code) || typeof message !== 'string') return null
  if (status !== undefined && !Number.isSafeInteger(status)) return null
  if (retryAt !== undefined && typeof retryAt !== 'string') return null
  if (reason !== undefined && !isOneOf(ERROR_REASONS, reason)) return null
  const plainValues =
    values === undefined ||
    (isFields(values) &&
      Object.values(values).every((v) => typeof v === 'string' || typeof v === 'number'))
  if (!plainValues) return null
  return {
    code,
    message,
    ...(status === undefined ? {} : { status: status as number }),
    ...(retryAt === undefined ? {} : { retryAt }),
    ...(reason === undefined ? {} : { reason }),
    ...(values === undefined ? {} : { values: values as Record<string, string | number> }),
  }
}

/** A data thread's answer to call `id`: its value, or why it has none. */
export type ThreadAnswer<T> =
  | { readonly id: number; readonly ok: true; readonly value: T }
  | { readonly id: number; readonly ok: false; readonly error: ErrorData }

/**
 * A data thread's answer, or null when `raw` is none: `isValue` checks an
 * answered value, an error is {@link readErrorData}'s.
 */
export function readThreadAnswer<T>(
  raw: unknown,
  isValue: (value: unknown) => value is T,
): ThreadAnswer<T> | null {
  if (!isFields(raw) || !isPositiveInteger(raw['id'])) return null
  const id = raw['id']
  if (raw['ok'] === true) {
    const value = raw['value']
    return isValue(value) ? { id, ok: true, value } : null
  }
  if (raw['ok'] !== false) return null
  const error = readErrorData(raw['error'])
  return error === null ? null : { id, ok: false, error }
}
