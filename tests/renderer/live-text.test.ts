import { describe, expect, it } from 'vitest'
import type { LiveStatus } from '../../src/shared/live'
import { clockText, liveLine, minutesUntilTomorrow } from '../../src/renderer/src/lib/live-text'

const SEOUL = 'Asia/Seoul'

function status(overrides: Partial<LiveStatus> = {}): LiveStatus {
  return {
    state: 'running',
    intervalMinutes: 2,
    nextPollAt: '2026-11-28T05:32:00Z',
    pausedUntil: null,
    backoffUntil: null,
    failingSince: null,
    step: null,
    lastOutcome: null,
    ...overrides,
  }
}

describe('the status bar on the live schedule', () => {
  it('"until tomorrow" ends at the next midnight in the profile zone', () => {
    // 23:30 in Seoul (14:30 UTC): half an hour.
    expect(minutesUntilTomorrow(Date.parse('2026-11-28T14:30:00Z'), SEOUL)).toBe(30)
    // 00:00:30 in Seoul: almost a day, rounded up to whole minutes.
    expect(minutesUntilTomorrow(Date.parse('2026-11-28T15:00:30Z'), SEOUL)).toBe(1440)
    // The same instant is 15:00 in UTC: nine hours.
    expect(minutesUntilTomorrow(Date.parse('2026-11-28T15:00:00Z'), 'UTC')).toBe(540)
    // A second before midnight still pauses for a minute.
    expect(minutesUntilTomorrow(Date.parse('2026-11-28T14:59:59Z'), SEOUL)).toBe(1)
  })

  it('names a time of the same day by its clock, another day with its date', () => {
    const now = Date.parse('2026-11-28T05:00:00Z') // 14:00 in Seoul
    expect(clockText('2026-11-28T05:32:00Z', now, SEOUL)).toBe('14:32')
    expect(clockText('2026-11-28T15:00:00Z', now, SEOUL)).toBe('2026-11-29 00:00')
  })

  it('says next check, checking, paused, backoff, stopped, asleep, offline', () => {
    expect(liveLine(null)).toEqual({ kind: 'off' })
    expect(liveLine(status())).toEqual({ kind: 'next', at: '2026-11-28T05:32:00Z' })
    expect(liveLine(status({ step: 'poll' }))).toEqual({ kind: 'checking' })
    expect(
      liveLine(status({ state: 'paused', pausedUntil: '2026-11-28T06:00:00Z', nextPollAt: null })),
    ).toEqual({ kind: 'paused', until: '2026-11-28T06:00:00Z' })
    expect(liveLine(status({ state: 'backoff', backoffUntil: '2026-11-28T05:40:00Z' }))).toEqual({
      kind: 'backoff',
      until: '2026-11-28T05:40:00Z',
    })
    for (const state of ['stopped', 'asleep', 'offline', 'off'] as const)
      expect(liveLine(status({ state }))).toEqual({ kind: state })
  })
})
