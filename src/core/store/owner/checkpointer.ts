import type { Worker } from 'node:worker_threads'
import { DATA_THREAD_NICE_STEPS, NICE_MAX, spawnStoreThread, stopThread } from '../threads'

/**
 * Keeps WAL checkpoints out of the owner's way. The owner's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls while it copies the log into the database file); this worker, with
 * its own connection, runs `PRAGMA wal_checkpoint(PASSIVE)`, which never
 * blocks the owner. Requests while one runs are coalesced. The worker is
 * plain JavaScript evaluated from a string, so it needs no bundling in
 * either host. The only other connection to a profile's file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
// Below the main thread, as the owner and the page thread (yieldToMainThread in threads.ts):
// Linux sets priority per thread; elsewhere /proc/thread-self is missing and nothing changes.
try {
  const os = require('node:os')
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  os.setPriority(tid, Math.min(workerData.niceMax, os.getPriority(tid) + workerData.niceSteps))
} catch {}
const db = new DatabaseSync(workerData.file, { timeout: 1000 })
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    process.exit(0)
  }
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    parentPort.postMessage('done')
  } catch (error) {
    parentPort.postMessage('failed')
  }
})
`

/** When to checkpoint: after this many written records, or this long after the last write. */
export interface CheckpointTiming {
  /** Records written since the last checkpoint that call for one now (default 5,000, a few MB of log). */
  readonly everyRecords?: number
  /** Quiet time after a write that calls for one (default 1,000 ms). */
  readonly idleMs?: number
}

/**
 * Decides when a checkpoint is worth running. Checkpointing after every
 * page copied the same index pages into the file again and again, on a
 * second thread competing for the two cores a sync uses; once every few
 * thousand records (and once a sync goes quiet) copies each page about
 * once. Pure apart from the timer it is given.
 */
export class CheckpointSchedule {
  readonly #every: number
  readonly #idleMs: number
  readonly #run: () => void
  readonly #timers: { set: (fn: () => void, ms: number) => unknown; clear: (id: unknown) => void }
  #written = 0
  #timer: unknown = null

  constructor(
    run: () => void,
    timing: CheckpointTiming = {},
    timers = {
      set: (fn: () => void, ms: number): unknown => setTimeout(fn, ms).unref(),
      clear: (id: unknown): void => clearTimeout(id as ReturnType<typeof setTimeout>),
    },
  ) {
    this.#run = run
    this.#every = Math.max(1, timing.everyRecords ?? 5000)
    this.#idleMs = Math.max(0, timing.idleMs ?? 1000)
    this.#timers = timers
  }

  /** A write of `records` records (or 1 for a small write) was committed. */
  wrote(records: number): void {
    this.#written += Math.max(1, records)
    if (this.#timer !== null) this.#timers.clear(this.#timer)
    this.#timer = null
    if (this.#written >= this.#every) {
      this.#fire()
      return
    }
    this.#timer = this.#timers.set(() => {
      this.#timer = null
      this.#fire()
    }, this.#idleMs)
  }

  /** Drops a pending idle checkpoint (the file is closing). */
  stop(): void {
    if (this.#timer !== null) this.#timers.clear(this.#timer)
    this.#timer = null
  }

  #fire(): void {
    this.#written = 0
    this.#run()
  }
}

/** A background checkpointer for one database file. */
export class Checkpointer {
  readonly #worker: Worker
  #running = false
  #again = false
  #closing: Promise<void> | null = null

  constructor(file: string) {
    this.#worker = spawnStoreThread(WORKER_SOURCE, {
      eval: true,
      workerData: { file, niceSteps: DATA_THREAD_NICE_STEPS, niceMax: NICE_MAX },
    })
    this.#worker.unref()
    this.#worker.on('message', () => {
      this.#running = false
      if (this.#again) {
        this.#again = false
        this.request()
      }
    })
    // A failed checkpoint only means the WAL stays longer; the next one retries.
    this.#worker.on('error', () => {
      this.#running = false
    })
  }

  /** Asks for a checkpoint soon (ignored once closing). */
  request(): void {
    if (this.#closing) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = true
    this.#worker.postMessage('run')
  }

  /** Stops the worker; idempotent, and always resolves (the worker is terminated if it hangs). */
  close(): Promise<void> {
    this.#closing ??= stopThread(this.#worker, 'close')
    return this.#closing
  }
}
