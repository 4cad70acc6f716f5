import type { Worker } from 'node:worker_threads'
import { spawnStoreThread, stopThread, type ThreadEntry } from '../threads'
import type { CheckpointerData, FromCheckpointer, ToCheckpointer } from './protocol'

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

/**
 * Keeps WAL checkpoints out of the owner's way. The owner's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls while it copies the log into the database file); the checkpointer
 * thread (`checkpoint-worker.ts`), with its own connection, runs
 * `PRAGMA wal_checkpoint(PASSIVE)`, which never blocks the owner. Requests
 * while one runs are coalesced.
 */
export class Checkpointer {
  readonly #worker: Worker
  #running = false
  #again = false
  #closing: Promise<void> | null = null

  /** `onDamaged` runs when the background deep check finds the file damaged (see `checkpoint-worker.ts`). */
  constructor(file: string, entry: ThreadEntry, onDamaged: () => void = () => undefined) {
    this.#worker = spawnStoreThread(entry, { workerData: { file } satisfies CheckpointerData })
    this.#worker.unref()
    this.#worker.on('message', (message: FromCheckpointer) => {
      if (message === 'damaged') {
        onDamaged()
        return
      }
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
    this.#worker.postMessage('run' satisfies ToCheckpointer)
  }

  /** Stops the worker; idempotent, and always resolves (the worker is terminated if it hangs). */
  close(): Promise<void> {
    this.#closing ??= stopThread(this.#worker, 'close' satisfies ToCheckpointer)
    return this.#closing
  }
}
