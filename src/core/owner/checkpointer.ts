import type { Worker } from 'node:worker_threads'
import { IdleTimer } from '../threads/on-demand'
import { spawnStoreThread, stopThread, type ThreadEntry } from '../threads/spawn'
import type { CheckpointerData, FromCheckpointer, ToCheckpointer } from './checkpoint-protocol'

/** When to checkpoint: after this many written records, or this long after the last write. */
export interface CheckpointTiming {
  /**
   * Records written since the last checkpoint that call for one now (default
   * {@link CHECKPOINT_EVERY_RECORDS}).
   */
  readonly everyRecords?: number
  /** Quiet time after a write that calls for one (default 1,000 ms). */
  readonly idleMs?: number
}

/**
 * Records written between two checkpoints of a sync: about 25 MB of log. A
 * checkpoint copies the newest version of every database page changed since
 * the last one; the pages a sync changes in every commit (the ends of its
 * indexes, the small tables keyed by member) are copied once per
 * checkpoint, so at 20,000 instead of 5,000 a 100,000-record sync copied
 * them a quarter as often, for about 0.5–0.9 µs/record less CPU.
 */
const CHECKPOINT_EVERY_RECORDS = 20_000

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
    this.#every = Math.max(1, timing.everyRecords ?? CHECKPOINT_EVERY_RECORDS)
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
 * How long the checkpointer thread waits for the next request after a
 * checkpoint before it exits. A sync asks every few thousand records (see
 * {@link CheckpointSchedule}), so the thread lives as long as the sync.
 */
const CHECKPOINTER_IDLE_MS = 10_000

/** Options of {@link Checkpointer}. */
export interface CheckpointerOptions {
  /** How long the thread waits for a request before it exits (default {@link CHECKPOINTER_IDLE_MS}). */
  readonly idleMs?: number
}

/**
 * Keeps WAL checkpoints out of the owner's way. The owner's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls while it copies the log into the database file); another
 * connection runs `PRAGMA wal_checkpoint(PASSIVE)`, which never blocks the
 * owner. At most one checkpoint is in flight: requests meanwhile are
 * coalesced into one more after it.
 *
 * It runs on a thread of its own (`checkpoint-worker.ts`), which lives only
 * while there is work: it starts with the file's deep check and exits after
 * it unless a checkpoint was asked meanwhile; a later request starts it
 * again (without the check), and it exits {@link CHECKPOINTER_IDLE_MS} after
 * its last checkpoint. An app left open on a profile it does not write to
 * then holds no second connection and no second heap for it.
 */
export class Checkpointer {
  readonly #file: string
  readonly #entry: ThreadEntry
  readonly #onDamaged: () => void
  readonly #idle: IdleTimer
  #worker: Worker | null = null
  /** A `run` was sent to {@link #worker} and not yet answered. */
  #running = false
  #again = false
  /** Threads told to stop that have not exited yet: {@link close} waits for them too. */
  readonly #stopping = new Set<Promise<void>>()
  #closing: Promise<void> | null = null

  /**
   * Starts the thread with the file's deep check. `onDamaged`
   * runs when the check finds the file damaged (see `checkpoint-worker.ts`).
   */
  constructor(
    file: string,
    entry: ThreadEntry,
    onDamaged: () => void = () => undefined,
    options: CheckpointerOptions = {},
  ) {
    this.#file = file
    this.#entry = entry
    this.#onDamaged = onDamaged
    this.#idle = new IdleTimer(options.idleMs ?? CHECKPOINTER_IDLE_MS)
    this.#start(true)
  }

  /** Asks for a checkpoint soon (ignored once closing). */
  request(): void {
    if (this.#closing) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#idle.clear()
    this.#running = true
    this.#start(false).postMessage('run' satisfies ToCheckpointer)
  }

  /**
   * Stops the thread, so no connection of the checkpointer's outlives the
   * close. Idempotent, and always resolves (a thread that hangs is
   * terminated).
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#idle.clear()
      if (this.#worker) this.#stop(this.#worker)
      await Promise.all(this.#stopping)
    })()
    return this.#closing
  }

  #start(deepCheck: boolean): Worker {
    if (this.#worker) return this.#worker
    const worker = spawnStoreThread(this.#entry, {
      workerData: { file: this.#file, deepCheck } satisfies CheckpointerData,
    })
    worker.unref()
    worker.on('message', (message: FromCheckpointer) => {
      if (message === 'damaged') {
        this.#onDamaged()
        return
      }
      if (worker !== this.#worker) return
      if (message === 'checked') {
        // The check was this thread's only work unless a checkpoint was asked of it meanwhile.
        if (!this.#running) this.#stop(worker)
        return
      }
      this.#running = false
      if (this.#again) {
        this.#again = false
        this.request()
        return
      }
      this.#idle.start(() => this.#stop(worker))
    })
    // A thread that fails exits: a checkpoint lost so only means the WAL stays longer, and the
    // next request starts a new thread.
    worker.on('error', () => undefined)
    worker.on('exit', () => {
      if (worker !== this.#worker) return
      this.#worker = null
      // The run it held is lost, and with it the one asked meanwhile.
      if (this.#running) this.#again = false
      this.#running = false
      this.#idle.clear()
    })
    this.#worker = worker
    return worker
  }

  /** Lets `worker` go: the next request starts a new thread. */
  #stop(worker: Worker): void {
    if (worker === this.#worker) this.#worker = null
    const stopped = stopThread(worker, 'close' satisfies ToCheckpointer)
    this.#stopping.add(stopped)
    void stopped.finally(() => this.#stopping.delete(stopped))
  }
}
