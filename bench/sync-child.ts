import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { EventBus } from '../src/core/events'
import { holdMainYoungGeneration } from '../src/core/heap-sizing'
import { storeFileFor } from '../src/core/store/paths'
import { StoreOwner } from '../src/core/owner/store-owner'
import { clientSyncSource } from '../src/core/sync/paged-pass'
import { PageThread } from '../src/core/sync/page-thread/client'
import { SyncEngine } from '../src/core/sync/sync-engine'
import { bundledThreads } from './bundled-threads'
import { meterRelays } from './relay-meter'
import { mainLoopDelays, mainThreadStretches, type LoopDelays } from './loop-probes'
import { clientOf, type SandboxAccess } from './sandbox-client'
import type { WriteStats } from '../src/core/store/write/write-stats'

/**
 * The 100,000-guarantee sync in a process of its own, run as the app runs
 * it: bundled code (`bench/bundle.ts`), the store opened beforehand (the app
 * opens a profile's store when the profile opens), the page thread started
 * by the sync's first page, the heap sized as the app's core sizes it
 * (`core/heap-sizing.ts`), nothing warmed up. What it reports is the app's
 * process alone: its CPU time (every thread), its peak RSS (the kernel's
 * high-water mark, reset once the store is open), its main thread's loop,
 * the owner's account of its writes and the store file's size once closed.
 * Prints one line `SYNC={json}`.
 */
interface SyncChildArgs extends SandboxAccess {
  readonly dir: string
}

/** What the child prints after `SYNC=` (`bench/run.ts` reads it). */
export interface SyncChildReport {
  readonly ms: number
  readonly cpuMicros: number
  /** CPU time of each thread that ran, ms, by name and id, most first. */
  readonly perThread: readonly (readonly [string, number])[]
  /** Bytes each thread wrote to files and sockets (`wchar`), MB, and its write calls, most first. */
  readonly writesByThread: readonly (readonly [string, number, number])[]
  readonly rssBefore: number
  readonly peak: number
  readonly loop: LoopDelays
  readonly cpuMaxMs: number
  readonly gaps: string
  readonly maxStepMs: number
  readonly complete: boolean
  readonly inFlight: number
  readonly writes: WriteStats
  readonly bytes: number
  /** Bytes the main thread relayed between data threads during the sync (`relay-meter.ts`). */
  readonly relayBytes: number
}
const args = JSON.parse(process.argv[2] ?? '{}') as SyncChildArgs
const threads = bundledThreads(import.meta.url)

/** What one thread has used since it started: CPU time (ms), and MB and calls written (files and sockets). */
interface ThreadUse {
  readonly ms: number
  readonly mb: number
  readonly calls: number
}

/**
 * What each of this process's threads has used, by name and id: where the
 * sync's CPU time went, and its writes (the owner's log and temporary
 * files, the checkpointer's copy).
 */
function threadUse(): Map<string, ThreadUse> {
  const use = new Map<string, ThreadUse>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      const io = readFileSync(`/proc/self/task/${tid}/io`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      use.set(`${name}#${tid}`, {
        // utime and stime, in clock ticks (100 a second here).
        ms: (Number(fields[11]) + Number(fields[12])) * 10,
        mb: Number(/^wchar: (\d+)$/m.exec(io)?.[1] ?? 0) / 2 ** 20,
        calls: Number(/^syscw: (\d+)$/m.exec(io)?.[1] ?? 0),
      })
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return use
}

/** The kernel's peak RSS of this process, bytes (`VmHWM`). */
function peakRss(): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
  return Number(line?.[1] ?? Number.NaN) * 1024
}

// As the app does when its core starts (`createCore`), before any data thread.
holdMainYoungGeneration()
const client = clientOf(args)
const pages = new PageThread(threads.pageWorker)
const store = await StoreOwner.open({
  file: storeFileFor(args.dir, 'bench'),
  threads: threads.storeWorker,
})
const engine = new SyncEngine({
  store,
  source: clientSyncSource(client, pages.towards(store)),
  events: new EventBus(),
})

const rssBefore = process.memoryUsage.rss()
// Resets the high-water mark to the RSS now (Linux's clear_refs "5").
writeFileSync('/proc/self/clear_refs', '5')
const stretches = mainThreadStretches()
const delays = mainLoopDelays()
const threadsBefore = threadUse()
const relays = meterRelays()
const cpuBefore = process.cpuUsage()
const t = performance.now()
const [outcome] = await engine.run(['guarantees'], 'full')
const ms = performance.now() - t
const cpu = process.cpuUsage(cpuBefore)
relays.stop()
const during = [...threadUse()].map(([name, after]) => {
  const before = threadsBefore.get(name) ?? { ms: 0, mb: 0, calls: 0 }
  return {
    name,
    ms: after.ms - before.ms,
    mb: after.mb - before.mb,
    calls: after.calls - before.calls,
  }
})
const writesByThread = during
  .filter(({ mb }) => mb >= 1)
  .sort((a, b) => b.mb - a.mb)
  .map(({ name, mb, calls }) => [name, Math.round(mb * 10) / 10, calls] as const)
const perThread = during
  .map(({ name, ms }) => [name, ms] as const)
  .filter(([, ms]) => ms > 0)
  .sort((a, b) => b[1] - a[1])
const loop = delays.stop()
const cpuMaxMs = stretches.stop()
const peak = peakRss()
if (outcome?.phase !== 'done') throw new Error(`sync failed: ${outcome?.error?.message}`)
// Asked now, it is answered once the owner has compacted the first full pass.
const writes = await store.call('writeStats')
// Closing the last connection checkpoints the WAL into the file.
await store.close()
await pages.close()
process.stdout.write(
  `SYNC=${JSON.stringify({
    ms,
    cpuMicros: cpu.user + cpu.system,
    perThread,
    writesByThread,
    rssBefore,
    peak,
    loop,
    cpuMaxMs,
    gaps: stretches.gaps(),
    maxStepMs: outcome.maxStepMs ?? Number.NaN,
    complete: outcome.complete,
    inFlight: client.inFlight.limit,
    writes,
    bytes: statSync(storeFileFor(args.dir, 'bench')).size,
    relayBytes: relays.bytes,
  } satisfies SyncChildReport)}\n`,
)
