import { AppError } from '../app-error'
import { clockTime, type Timing } from './retry'

/**
 * How many requests to the partner API may be in flight at once, adapted to
 * what the service's answers say (additive increase, multiplicative
 * decrease, as TCP's congestion control and Netflix's concurrency-limits do):
 *
 * - it starts at {@link IN_FLIGHT_INITIAL} and grows while answers come back
 *   clean: by one per clean answer at first ("slow start": it doubles every
 *   round trip, and each answer lets the next requests out at once), then,
 *   once the service has pushed back or slowed down, by one per window of
 *   clean answers (one answer per request allowed);
 * - it does not grow while latency rose markedly above the best seen (an
 *   answer's in slow start, which ends it; a window's median after): the
 *   service is queueing, more requests would only wait;
 * - it halves on a 429, a 5xx or a timeout, at most once per window (the
 *   requests already out when it halved do not halve it again);
 * - it never leaves `[min, max]` (1 and 8 by default);
 * - a `Retry-After` pauses every new attempt until then, not only the one
 *   that received it.
 *
 * Pure: time comes in as arguments, so tests drive it without a clock.
 */

/**
 * Fewest requests in flight.
 * @internal
 */
export const IN_FLIGHT_MIN = 1
/**
 * Most requests in flight: more would be unkind to a partner's service, and the wire is full by then.
 * @internal
 */
export const IN_FLIGHT_MAX = 8
/**
 * Requests in flight before any answer came back.
 * @internal
 */
export const IN_FLIGHT_INITIAL = 3

/** Windows in a row slower than the best seen, after which their latency is taken as the new best. */
const HELD_WINDOWS = 3

/** Options of {@link InFlightLimit}. */
export interface InFlightOptions {
  readonly min?: number
  readonly max?: number
  readonly initial?: number
  /** A window whose median latency exceeds the best median by this factor (plus `slackMs`) rose markedly (default 2). */
  readonly riseFactor?: number
  /**
   * Absolute tolerance on latency (default 10 ms): jitter on loopback, and the client's own busy
   * event loop (it parses the answers it asked for), are not the service queueing.
   */
  readonly slackMs?: number
}

/** What one attempt ended with, as the limit sees it. */
export type AttemptOutcome =
  /** A clean answer, `latencyMs` from sending to the last byte. */
  | { readonly kind: 'answer'; readonly latencyMs: number }
  /** 429, 5xx or a timeout; `retryAfterMs` when the service said how long to wait. */
  | { readonly kind: 'pushback'; readonly retryAfterMs?: number }
  /** Anything that says nothing about load (a 4xx, a bad body, offline, a cancel). */
  | { readonly kind: 'neutral' }

/** The in-flight limit: read {@link limit}, report each attempt with {@link record}. */
export class InFlightLimit {
  readonly #min: number
  readonly #max: number
  readonly #riseFactor: number
  readonly #slackMs: number
  #limit: number
  #slowStart = true
  /** Latencies of clean answers to attempts started since the limit last changed. */
  #window: number[] = []
  /** Best latency seen (an answer's in slow start, a window's median after): the service's own. */
  #baseline = Infinity
  /** When the limit last changed; attempts started before then were sent under the old limit. */
  #changedAt = -Infinity
  /** When the limit was last cut; attempts started before then met the same trouble. */
  #cutAt = -Infinity
  #pausedUntil = -Infinity
  /** Windows in a row whose latency rose. */
  #held = 0

  constructor(options: InFlightOptions = {}) {
    this.#min = Math.max(1, Math.floor(options.min ?? IN_FLIGHT_MIN))
    this.#max = Math.max(this.#min, Math.floor(options.max ?? IN_FLIGHT_MAX))
    this.#limit = clamp(Math.floor(options.initial ?? IN_FLIGHT_INITIAL), this.#min, this.#max)
    this.#riseFactor = options.riseFactor ?? 2
    this.#slackMs = options.slackMs ?? 10
  }

  /** Requests that may be in flight now. */
  get limit(): number {
    return this.#limit
  }

  /** No new attempt may start before this time (ms since the epoch); in the past when free. */
  get pausedUntil(): number {
    return this.#pausedUntil
  }

  /**
   * Takes the outcome of one attempt that started at `startedAt` and ended
   * at `now` (both ms since the epoch) into account.
   */
  record(outcome: AttemptOutcome, startedAt: number, now: number): void {
    if (outcome.kind === 'neutral') return
    if (outcome.kind === 'pushback') {
      if (outcome.retryAfterMs !== undefined) {
        this.#pausedUntil = Math.max(this.#pausedUntil, now + outcome.retryAfterMs)
      }
      this.#slowStart = false
      // One cut per window: the other requests sent before it fail for the same reason.
      if (startedAt >= this.#cutAt) {
        this.#set(Math.floor(this.#limit / 2), now)
        this.#cutAt = now
      }
      return
    }
    if (this.#slowStart) {
      if (startedAt < this.#cutAt) return
      const rose = outcome.latencyMs > this.#baseline * this.#riseFactor + this.#slackMs
      this.#baseline = Math.min(this.#baseline, outcome.latencyMs)
      if (rose) this.#slowStart = false
      else this.#set(this.#limit + 1, now)
      return
    }
    if (startedAt < this.#changedAt) return
    this.#window.push(outcome.latencyMs)
    if (this.#window.length < this.#limit) return
    const latency = median(this.#window)
    this.#window = []
    const rose = latency > this.#baseline * this.#riseFactor + this.#slackMs
    this.#baseline = Math.min(this.#baseline, latency)
    if (!rose) {
      this.#held = 0
      this.#set(this.#limit + 1, now)
      return
    }
    // The service answers slower with more in flight: hold here. Slow at this limit window after
    // window, it is the service's (or the network's) new normal, not queueing: start from it.
    this.#held += 1
    if (this.#held >= HELD_WINDOWS) {
      this.#held = 0
      this.#baseline = latency
    }
  }

  #set(limit: number, now: number): void {
    const next = clamp(limit, this.#min, this.#max)
    this.#window = []
    if (next === this.#limit) return
    this.#limit = next
    this.#changedAt = now
  }
}

/** What an attempt's error says about the service's load: 429, 5xx and timeouts push back. */
export function outcomeOfError(error: unknown, now: number): AttemptOutcome {
  if (!(error instanceof AppError)) return { kind: 'neutral' }
  const pushback =
    error.code === 'timeout' ||
    error.code === 'rate_limited' ||
    (error.code === 'server' && error.status !== undefined && error.status >= 500)
  if (!pushback) return { kind: 'neutral' }
  if (error.retryAt === undefined) return { kind: 'pushback' }
  const at = Date.parse(error.retryAt)
  return Number.isNaN(at)
    ? { kind: 'pushback' }
    : { kind: 'pushback', retryAfterMs: Math.max(0, at - now) }
}

/**
 * Waits until the limit's `Retry-After` pause is over, so no attempt of any
 * request starts inside it. A pause longer than `maxWaitMs` is not waited
 * for: it fails at once with `rate_limited`, saying until when.
 */
export async function waitForPause(
  limit: InFlightLimit,
  timing: Timing,
  maxWaitMs: number,
  signal?: AbortSignal,
): Promise<void> {
  for (;;) {
    const wait = limit.pausedUntil - timing.now()
    if (wait <= 0) return
    if (wait > maxWaitMs) {
      const retryAt = new Date(limit.pausedUntil).toISOString()
      throw new AppError(
        'rate_limited',
        `Rate-limited by the partner API until ${clockTime(retryAt)}.`,
        {
          retryAt,
        },
      )
    }
    await timing.sleep(wait, signal)
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
