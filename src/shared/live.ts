import type { ErrorData } from './errors'

/**
 * The live schedule (docs/live.md): what keeps the store current between
 * the syncs staff ask for, as the status bar sees it.
 */

/** The schedule's steps, cheapest first. */
export const LIVE_STEPS = ['poll', 'moving', 'window', 'full'] as const
/** One of {@link LIVE_STEPS}: new records, records that can still move, the re-read window, the rolling full pass. */
export type LiveStep = (typeof LIVE_STEPS)[number]

/** Poll interval in minutes: default, least and most. */
export const LIVE_INTERVAL_MINUTES = { default: 2, min: 1, max: 60 } as const
/** Days the hourly step re-reads: default, least and most. */
export const LIVE_WINDOW_DAYS = { default: 30, min: 1, max: 365 } as const
/** Longest pause staff can ask for, in minutes (a week). */
export const LIVE_MAX_PAUSE_MINUTES = 7 * 24 * 60

/** Why the schedule is not polling now, or `running`. */
export type LiveState =
  /** Polls on time. */
  | 'running'
  /** Paused by staff until `pausedUntil`. */
  | 'paused'
  /** Waiting after failures until `backoffUntil`. */
  | 'backoff'
  /** Stopped by a credential error until the account is fixed. */
  | 'stopped'
  /** The computer sleeps. */
  | 'asleep'
  /** The network is down. */
  | 'offline'
  /** The app is closing, or the schedule was never started. */
  | 'off'

/** How the last run of the schedule ended. */
export interface LiveOutcome {
  /** When it ended (ISO). */
  readonly at: string
  readonly step: LiveStep
  readonly ok: boolean
  /** Requests it sent. */
  readonly requests: number
  /** Records it found new or changed (0 for a poll that found nothing). */
  readonly changed: number
  readonly error?: ErrorData
}

/** Answer of `live.status` (and payload of the `live.status` event). */
export interface LiveStatus {
  readonly state: LiveState
  readonly intervalMinutes: number
  /** When the next poll is due (ISO), or null while the schedule waits for something else. */
  readonly nextPollAt: string | null
  /** Set while paused by staff (ISO). */
  readonly pausedUntil: string | null
  /** Set while backing off after failures (ISO). */
  readonly backoffUntil: string | null
  /** Since when background syncs have failed without a success in between (ISO), or null. */
  readonly failingSince: string | null
  /** The step running now, or null. */
  readonly step: LiveStep | null
  readonly lastOutcome: LiveOutcome | null
}

/** The last failure of an account kept current in the background. */
export interface LiveAccountFailure {
  readonly profileId: string
  readonly name: string
  /** When its step failed (ISO). */
  readonly at: string
  readonly error: ErrorData
  /** A credential error stopped that account's schedule until it is fixed. */
  readonly stopped: boolean
}

/**
 * Answer of `live.accounts` (and payload of the `live.accounts` event): the
 * accounts other than the active one that are kept current in the
 * background (settings `live.allAccounts`, docs/live.md "Every account").
 */
export interface LiveAccountsStatus {
  /** The setting is on. */
  readonly enabled: boolean
  /** Other accounts kept current now (a schedule that a credential error stopped is not counted). */
  readonly accounts: number
  /** Their schedules wait while the app is locked. */
  readonly held: boolean
  /** The last failure of any of them, until that account succeeds again; null when none failed. */
  readonly lastFailure: LiveAccountFailure | null
}
