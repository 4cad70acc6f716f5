import type { LiveStatus } from '../../../shared/live'
import { localTimestamp } from '../../../shared/local-time'
import { instantText } from '../../../shared/time-text'

/** The pause the status bar offers first: an hour. */
export const PAUSE_HOUR_MINUTES = 60

/**
 * Minutes from `now` until the next midnight in `timeZone` (the status
 * bar's "until tomorrow"), at least one.
 */
export function minutesUntilTomorrow(now: number, timeZone: string): number {
  const wall = localTimestamp(new Date(now), timeZone)
  const hours = Number(wall.slice(11, 13))
  const minutes = Number(wall.slice(14, 16))
  const seconds = Number(wall.slice(17, 19))
  const elapsed = hours * 3600 + minutes * 60 + seconds
  return Math.max(1, Math.ceil((86_400 - elapsed) / 60))
}

/**
 * A time the status bar names: `14:32` when it falls on the same day as
 * `now` in `timeZone`, else with its date (`2026-11-29 00:00`).
 */
export function clockText(iso: string, now: number, timeZone: string): string {
  const at = instantText(iso, timeZone, 'minute')
  const today = instantText(now, timeZone, 'day')
  return at.startsWith(today) ? at.slice(11) : at
}

/** What the status bar says of the schedule: one of these, with the time it names. */
export type LiveLine =
  | { readonly kind: 'next'; readonly at: string | null }
  | { readonly kind: 'checking' }
  | { readonly kind: 'paused'; readonly until: string | null }
  | { readonly kind: 'backoff'; readonly until: string | null }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'asleep' }
  | { readonly kind: 'offline' }
  | { readonly kind: 'off' }

/** The status bar's line for a schedule status (null: the schedule never started). */
export function liveLine(status: LiveStatus | null): LiveLine {
  if (status === null) return { kind: 'off' }
  switch (status.state) {
    case 'running':
      return status.step === null ? { kind: 'next', at: status.nextPollAt } : { kind: 'checking' }
    case 'paused':
      return { kind: 'paused', until: status.pausedUntil }
    case 'backoff':
      return { kind: 'backoff', until: status.backoffUntil }
    case 'stopped':
    case 'asleep':
    case 'offline':
    case 'off':
      return { kind: status.state }
  }
}
