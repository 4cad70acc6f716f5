import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * What the bench watches of the main thread while something runs (the bench
 * process's own, and the sync child's: `sync-child.ts`).
 */

/** A run's main-loop delays, ms: the 1 ms timer's longest and 99th percentile, the 5 ms timer's longest. */
export interface LoopDelays {
  readonly max: number
  readonly p99: number
  readonly max5: number
}

/**
 * The main event loop's delays while something runs, sampled by two
 * `monitorEventLoopDelay` timers side by side. Node records the whole
 * interval between two ticks of its timer, so a loop that never blocks reads
 * one tick (5.1 ms at a 5 ms resolution): a block is overstated by up to one
 * tick. The keys take the 1 ms timer's figures (a block to within 1 ms); the
 * 5 ms timer's longest, what earlier runs of this bench reported, is kept beside
 * them under `_5ms_ticks`.
 */
export function mainLoopDelays(): { stop(): LoopDelays } {
  const fine = monitorEventLoopDelay({ resolution: 1 })
  const coarse = monitorEventLoopDelay({ resolution: 5 })
  fine.enable()
  coarse.enable()
  return {
    stop() {
      fine.disable()
      coarse.disable()
      return { max: fine.max / 1e6, p99: fine.percentile(99) / 1e6, max5: coarse.max / 1e6 }
    },
  }
}

/**
 * Samples this thread's CPU time every 5 ms; `stop()` answers the most it
 * used between two samples (a block of its own work, GC included), and
 * `gaps()` the three longest waits between two samples (ms late, and when,
 * in ms since the start), each split into time on a core and time waiting
 * for one: where in a run the event loop's blocks fell, and why.
 */
export function mainThreadStretches(): { stop(): number; gaps(): string } {
  let last = process.threadCpuUsage()
  let max = 0
  const started = performance.now()
  let at = started
  // Linux's account of this thread: time on a core and time runnable but waiting for one (ns).
  const sched = (): number[] => {
    try {
      return readFileSync('/proc/thread-self/schedstat', 'utf8').trim().split(' ').map(Number)
    } catch {
      return [Number.NaN, Number.NaN]
    }
  }
  let lastSched = sched()
  const gaps: { late: number; at: number; ran: number; queued: number }[] = []
  const sample = (): void => {
    const now = process.threadCpuUsage()
    max = Math.max(max, (now.user - last.user + now.system - last.system) / 1000)
    last = now
    const s = sched()
    const t = performance.now()
    gaps.push({
      late: t - at - 5,
      at: at - started,
      ran: (s[0]! - lastSched[0]!) / 1e6,
      queued: (s[1]! - lastSched[1]!) / 1e6,
    })
    lastSched = s
    gaps.sort((a, b) => b.late - a.late).splice(3)
    at = t
  }
  const timer = setInterval(sample, 5)
  return {
    stop() {
      sample()
      clearInterval(timer)
      return max
    },
    gaps: () =>
      gaps
        .map(
          (g) =>
            `${g.late.toFixed(1)} ms at ${g.at.toFixed(0)} ms (on a core ${g.ran.toFixed(1)}, waiting for one ${g.queued.toFixed(1)})`,
        )
        .join(', '),
  }
}
