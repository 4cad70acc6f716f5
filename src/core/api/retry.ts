import { AppError } from '../app-error'

/**
 * Retries for the partner API's idempotent GETs: exponential backoff with
 * full jitter (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/),
 * `Retry-After` honoured up to a cap, a bounded number of attempts and an
 * overall deadline. Time and randomness are injected so tests run on a
 * virtual clock without real waits.
 */

/** The clock, sleep and random source retries use. */
export interface Timing {
  /** Milliseconds since the epoch. */
  now(): number
  /** Resolves after `ms`; rejects with `cancelled` as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A number in `[0, 1)`. */
  random(): number
}

/** Real time and `Math.random`. */
export const systemTiming: Timing = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(cancelled(signal))
        return
      }
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(cancelled(signal))
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

function cancelled(signal: AbortSignal | undefined): AppError {
  return new AppError('cancelled', 'Cancelled.', { cause: signal?.reason })
}

/** Limits of the retry loop. */
export interface RetryPolicy {
  /** Attempts in all, the first included; at most {@link MAX_ATTEMPTS}. */
  readonly maxAttempts: number
  /** Backoff ceiling of the first retry; doubles on each further retry. */
  readonly baseDelayMs: number
  /** Largest backoff delay. */
  readonly maxDelayMs: number
  /** The whole call, retries and waits included, ends by then. */
  readonly deadlineMs: number
  /** A `Retry-After` longer than this is not waited for: the call fails with `rate_limited`. */
  readonly maxRetryAfterMs: number
}

/** Hard upper bound on attempts, whatever a caller configures. */
const MAX_ATTEMPTS = 4

/** Defaults: 4 attempts, 0.5 s → 1 s → 2 s backoff ceilings, 60 s overall, `Retry-After` ≤ 120 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: MAX_ATTEMPTS,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  deadlineMs: 60_000,
  maxRetryAfterMs: 120_000,
}

/** The statuses worth another attempt besides network errors and timeouts. */
const RETRY_STATUSES = new Set([429, 502, 503, 504])

/**
 * True for failures another attempt may cure: network, timeout, 429, 502, 503, 504.
 * @internal
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof AppError)) return false
  switch (error.code) {
    case 'network':
    case 'timeout':
      return true
    case 'rate_limited':
    case 'server':
      return error.status !== undefined && RETRY_STATUSES.has(error.status)
    default:
      return false
  }
}

/**
 * Full-jitter backoff before retry number `retry` (1 for the first retry).
 * @internal
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1))
  return Math.floor(random() * ceiling)
}

/**
 * Milliseconds a `Retry-After` value asks to wait, from `now`: delay-seconds
 * or an HTTP-date (RFC 9110 §10.2.3). Undefined for garbage, so the caller
 * falls back to its normal backoff; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined
  const text = value.trim()
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000
  // An HTTP-date names its weekday and GMT; Date.parse alone would also take "1" or "May".
  if (!/^[A-Za-z]{3},\s+\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}:\d{2}\s+GMT$/.test(text)) {
    return undefined
  }
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** `HH:MM` of an ISO time in the machine's zone, for "rate-limited until" messages. */
export function clockTime(iso: string): string {
  const date = new Date(iso)
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`
}

/** Options of {@link withRetries}. */
export interface RetryOptions {
  readonly policy?: Partial<RetryPolicy>
  readonly timing?: Timing
  /** The caller's cancel signal: aborts the current attempt and any wait. */
  readonly signal?: AbortSignal
  /** Called before each wait, for logs and tests. */
  readonly onRetry?: (info: { attempt: number; delayMs: number; error: AppError }) => void
}

/**
 * Runs `attempt` until it succeeds, fails with something not retryable, runs
 * out of attempts, or would pass the overall deadline. `attempt` gets the
 * milliseconds left before the deadline, to bound its own timeout. Attempts
 * run one after another, never in parallel.
 */
export async function withRetries<T>(
  attempt: (remainingMs: number, attemptNumber: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy }
  const maxAttempts = Math.max(1, Math.min(MAX_ATTEMPTS, Math.floor(policy.maxAttempts)))
  const timing = options.timing ?? systemTiming
  const started = timing.now()
  const deadline = started + policy.deadlineMs

  for (let number = 1; ; number += 1) {
    if (options.signal?.aborted) throw cancelled(options.signal)
    let error: unknown
    try {
      return await attempt(Math.max(1, deadline - timing.now()), number)
    } catch (caught) {
      error = caught
    }
    if (!(error instanceof AppError) || !isRetryable(error)) throw error
    if (number >= maxAttempts) throw error

    let delay = backoffDelay(number, policy, timing.random)
    if (error.retryAt !== undefined) {
      const asked = Math.max(0, Date.parse(error.retryAt) - timing.now())
      if (asked > policy.maxRetryAfterMs) throw until(error, error.retryAt)
      // Wait at least what the service asked, plus a little jitter so clients do not return together.
      delay = asked + Math.floor(timing.random() * policy.baseDelayMs)
    }
    if (timing.now() + delay >= deadline) {
      throw error.retryAt === undefined ? error : until(error, error.retryAt)
    }
    options.onRetry?.({ attempt: number, delayMs: delay, error })
    await timing.sleep(delay, options.signal)
  }
}

/** The error to give up with when the service asked for a wait too long to take. */
function until(error: AppError, retryAt: string): AppError {
  const what =
    error.code === 'rate_limited' ? 'Rate-limited by the partner API' : 'Partner API unavailable'
  return new AppError(error.code, `${what} until ${clockTime(retryAt)}.`, {
    ...(error.status === undefined ? {} : { status: error.status }),
    retryAt,
    cause: error,
  })
}
