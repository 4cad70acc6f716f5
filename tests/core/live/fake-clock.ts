import type { LiveClock } from '../../../src/core/live/schedule'

/** A clock whose time moves only when a test says: timers fire in order as it passes them. */
export interface FakeClock extends LiveClock {
  /** Moves time on by `ms`, firing every timer it passes. */
  advance(ms: number): void
  /** Timers waiting. */
  readonly pending: number
  /** When the next timer fires, or null when none waits. */
  nextAt(): number | null
}

export function fakeClock(start = Date.now()): FakeClock {
  let now = start
  let next = 0
  const timers = new Map<number, { at: number; fire: () => void }>()
  return {
    now: () => now,
    after(ms, fire) {
      const id = (next += 1)
      timers.set(id, { at: now + Math.max(0, ms), fire })
      return () => timers.delete(id)
    },
    advance(ms) {
      const end = now + ms
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        timers.delete(due[0])
        now = Math.max(now, due[1].at)
        due[1].fire()
      }
      now = end
    },
    nextAt() {
      const ats = [...timers.values()].map((timer) => timer.at)
      return ats.length === 0 ? null : Math.min(...ats)
    },
    get pending() {
      return timers.size
    },
  }
}

/**
 * Moves `clock` on by `ms`, timer by timer, waiting after each for what it
 * started (`settle`: the schedules' and syncs' `idle()`), so a run a timer
 * starts ends before the next timer fires.
 */
export async function passTime(
  clock: FakeClock,
  ms: number,
  settle: () => Promise<void>,
): Promise<void> {
  const end = clock.now() + ms
  for (;;) {
    const next = clock.nextAt()
    const to = next === null ? end : Math.min(end, next)
    clock.advance(to - clock.now())
    await settle()
    if (to >= end && (clock.nextAt() ?? Infinity) > end) return
  }
}
