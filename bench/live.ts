import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createCore, type Core } from '../src/core/app'
import { openConfFile } from '../src/core/settings/conf-file'
import { sourceThreads } from '../src/core/threads/source-entries'
import { MemoryStore } from '../src/core/vault/memory-store'
import type { SandboxChange } from '../src/sandbox/churn'
import { startSandboxChild, type SandboxChild } from './sandbox-client'

/**
 * `BENCH_PARTS=live`: the live schedule against a sandbox in a child
 * process (so its CPU is not the app's), on a store synced in full from it
 * (`BENCH_LIVE_SIZE` records a list, default 1,000,000):
 * - `live_poll_requests_idle`: requests of one scheduled poll when nothing changed (both lists);
 * - `live_poll_cpu_ms_idle_1m`: the process's CPU time (all threads) of such a poll;
 * - `live_idle_cpu_pct_1m`: the process's CPU between polls over one minute, a list open;
 * - `live_requests_per_hour_idle_1m`: requests an hour of the default plan when nothing changes,
 *   the schedule run for an hour of its own (fake) time;
 * - `live_new_record_visible_ms`: with a 2 s interval, the median time from the sandbox adding
 *   a record to the list's query answer holding it.
 * `1m` in a key is the size's label at other sizes (`2k`, `100k`).
 */

type Record = (name: string, value: number, unit: string, target?: string | null) => void

/** A clock the bench moves: timers fire when their time comes. */
class BenchClock {
  #now: number
  #timers: { at: number; fire: () => void; live: boolean }[] = []
  constructor(start: number) {
    this.#now = start
  }
  now = (): number => this.#now
  after = (ms: number, fire: () => void): (() => void) => {
    const timer = { at: this.#now + Math.max(0, ms), fire, live: true }
    this.#timers.push(timer)
    return () => void (timer.live = false)
  }
  /** The time of the next live timer, or null. */
  next(): number | null {
    const live = this.#timers.filter((timer) => timer.live)
    return live.length === 0 ? null : Math.min(...live.map((timer) => timer.at))
  }
  /** Moves to `at`, firing the timers due. */
  moveTo(at: number): void {
    this.#now = Math.max(this.#now, at)
    const due = this.#timers.filter((timer) => timer.live && timer.at <= this.#now)
    this.#timers = this.#timers.filter((timer) => timer.live && timer.at > this.#now)
    for (const timer of due) timer.fire()
  }
}

function bootCore(
  sandbox: SandboxChild,
  dataDir: string,
  counter: { requests: number },
  live: NonNullable<Parameters<typeof createCore>[0]['live']>,
): Core {
  const counting: typeof fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input)
    if (url.startsWith(sandbox.baseUrl)) counter.requests += 1
    return fetch(input, init)
  }
  return createCore({
    fetch: counting,
    dataDir,
    host: 'web',
    version: '0.0.0-bench',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    autoSync: true,
    live,
    ...sourceThreads(),
    sandbox: {
      name: 'Sandbox',
      baseUrl: sandbox.baseUrl,
      staticUrl: sandbox.staticUrl,
      partnerId: sandbox.partnerId,
      redirectUri: new URL('/wallet/done', sandbox.baseUrl).toString(),
      credentials: { apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret },
    },
  })
}

/** CPU time of this process (every thread), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const wait = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms))

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Runs the live part. */
export async function benchLive(record: Record): Promise<void> {
  const size = Number(process.env['BENCH_LIVE_SIZE'] ?? 1_000_000)
  const label = size >= 1_000_000 ? `${size / 1_000_000}m` : `${size / 1000}k`
  console.log(`\n# live schedule over ${size} records a list`)
  const sandbox = await startSandboxChild(size, { testEndpoints: true })
  const dir = mkdtempSync(join(tmpdir(), 'bench-live-'))
  try {
    // The schedule on a clock the bench moves: its own hour runs in as long as its requests take.
    const clock = new BenchClock(Date.now())
    const counter = { requests: 0 }
    const core = bootCore(sandbox, join(dir, 'data'), counter, { clock })
    let t = performance.now()
    await core.sync.idle()
    console.log(`synced both lists in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    await core.live.idle()

    // One scheduled poll with nothing new: its requests and CPU time.
    const due = clock.next()
    if (due === null) throw new Error('The schedule has no timer.')
    // A list open, as the window shows one.
    await core.router.dispatch('inspections.query', { limit: 50 })
    const polls: { requests: number; cpu: number }[] = []
    for (let k = 0; k < 5; k += 1) {
      const before = { requests: counter.requests, cpu: cpuMs() }
      // The poll comes due now; the schedule's timer fires on its clock.
      core.live.pollNow()
      clock.moveTo(clock.now())
      await wait(0)
      await core.live.idle()
      await core.sync.idle()
      polls.push({ requests: counter.requests - before.requests, cpu: cpuMs() - before.cpu })
    }
    const steps = polls.map((poll) => poll.requests)
    console.log(
      `poll requests ${steps.join(', ')}; cpu ms ${polls.map((p) => p.cpu.toFixed(1)).join(', ')}`,
    )
    record('live_poll_requests_idle', Math.max(...steps), 'requests', '<= 4')
    record(`live_poll_cpu_ms_idle_${label}`, median(polls.map((poll) => poll.cpu)), 'ms', '<= 50')

    // The process between polls, a list open, over one minute of real time: after the work a
    // first sync leaves for idle time (compaction, the cell index, the deep check) is done.
    await core.router.dispatch('inspections.query', { limit: 50 })
    await wait(Number(process.env['BENCH_LIVE_SETTLE_MS'] ?? 15_000))
    const idleMs = Number(process.env['BENCH_LIVE_IDLE_MS'] ?? 60_000)
    const idleStart = { cpu: cpuMs(), at: performance.now() }
    await wait(idleMs)
    const idleCpu = cpuMs() - idleStart.cpu
    const idleWall = performance.now() - idleStart.at
    record(`live_idle_cpu_pct_${label}`, (idleCpu / idleWall) * 100, '%', '<= 1')

    // An hour of the default plan (2-minute polls, 15-minute and hourly steps, the rolling full
    // pass), nothing changing: the schedule's timers fired in turn on its clock.
    const hourStart = clock.now()
    const requestsBefore = counter.requests
    t = performance.now()
    for (;;) {
      const next = clock.next()
      if (next === null || next > hourStart + 3_600_000) break
      clock.moveTo(next)
      // Let the run start, then wait for it and for the passes it queued.
      await wait(0)
      await core.live.idle()
      await core.sync.idle()
    }
    console.log(`an hour of the plan ran in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    record(`live_requests_per_hour_idle_${label}`, counter.requests - requestsBefore, 'requests/h')
    await core.close()

    // New records: a 2 s interval on the real clock; the sandbox adds one, the list's answer holds it.
    const fresh = bootCore(sandbox, join(dir, 'data'), { requests: 0 }, { intervalMs: 2000 })
    await fresh.sync.idle()
    const latencies: number[] = []
    for (let k = 0; k < 7; k += 1) {
      let added: SandboxChange | undefined
      let at = 0
      for (let tries = 0; tries < 50 && !added; tries += 1) {
        const answer = await fetch(new URL('/__sandbox/advance?steps=1', sandbox.baseUrl), {
          method: 'POST',
        })
        at = performance.now()
        const { changes } = (await answer.json()) as { changes: SandboxChange[] }
        added = changes.find((c) => c.kind === 'new' && c.resource === 'inspection')
      }
      if (!added) throw new Error('The sandbox added no inspection.')
      for (;;) {
        const answer = await fresh.router.dispatch('inspections.query', { limit: 50 })
        if (
          answer.ok &&
          (answer.value as { rows: readonly { idx: number }[] }).rows.some(
            (row) => row.idx === added.idx,
          )
        )
          break
        if (performance.now() - at > 30_000) throw new Error('The new record never showed.')
        await wait(20)
      }
      latencies.push(performance.now() - at)
    }
    console.log(`new record visible after ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`)
    record('live_new_record_visible_ms', median(latencies), 'ms', '<= 4000')
    await fresh.close()
  } finally {
    sandbox.child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}
