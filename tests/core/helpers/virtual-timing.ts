import { AppError } from '../../../src/core/app-error'
import type { Timing } from '../../../src/core/api/retry'
import { createRng } from '../../../src/sandbox/seed'

/** A virtual clock for retry tests: `sleep` records the wait and moves time on at once. */
export interface VirtualTiming extends Timing {
  /** Every wait asked for, in order. */
  readonly sleeps: number[]
  /** Moves the clock without a sleep (time spent inside an attempt). */
  advance(ms: number): void
}

/** Starts at `start` (default 2025-01-01T00:00:00Z) with a seeded random source. */
export function virtualTiming(seed = 1, start = Date.UTC(2025, 0, 1)): VirtualTiming {
  let now = start
  const random = createRng(seed)
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => now,
    random,
    advance(ms) {
      now += ms
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw new AppError('cancelled', 'Cancelled.')
      sleeps.push(ms)
      now += ms
      await Promise.resolve()
      if (signal?.aborted) throw new AppError('cancelled', 'Cancelled.')
    },
  }
}
