import { describe, expect, it } from 'vitest'
import { CheckpointSchedule } from '../../../src/core/owner/checkpointer'

/** Fake timers: `advance` fires what is due. */
function fakeTimers() {
  let now = 0
  let next = 1
  const due = new Map<number, { at: number; fn: () => void }>()
  return {
    timers: {
      set: (fn: () => void, ms: number): unknown => {
        const id = next++
        due.set(id, { at: now + ms, fn })
        return id
      },
      clear: (id: unknown): void => {
        due.delete(id as number)
      },
    },
    advance(ms: number): void {
      now += ms
      for (const [id, timer] of [...due]) {
        if (timer.at <= now) {
          due.delete(id)
          timer.fn()
        }
      }
    },
    pending: (): number => due.size,
  }
}

describe('checkpoint schedule', () => {
  it('checkpoints once per few thousand records during a sync, not after every page', () => {
    const clock = fakeTimers()
    let runs = 0
    const schedule = new CheckpointSchedule(
      () => (runs += 1),
      { everyRecords: 1000, idleMs: 500 },
      clock.timers,
    )
    for (let page = 0; page < 25; page += 1) {
      schedule.wrote(100)
      clock.advance(10)
    }
    expect(runs).toBe(2)
    // The sync goes quiet (last write 10 ms ago): the rest is checkpointed once, after the idle time.
    clock.advance(489)
    expect(runs).toBe(2)
    clock.advance(1)
    expect(runs).toBe(3)
    expect(clock.pending()).toBe(0)
  })

  it('a small write (a review mark) is checkpointed when quiet; stop drops the pending one', () => {
    const clock = fakeTimers()
    let runs = 0
    const schedule = new CheckpointSchedule(() => (runs += 1), { idleMs: 1000 }, clock.timers)
    schedule.wrote(0)
    clock.advance(1000)
    expect(runs).toBe(1)
    schedule.wrote(1)
    schedule.stop()
    clock.advance(5000)
    expect(runs).toBe(1)
    expect(clock.pending()).toBe(0)
  })
})
