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

/**
 * How long {@link Checkpointer.close} waits for a checkpoint in flight on
 * the host: a host that hangs must not hang the profile's close (the same
 * grace as a thread of its own gets, see `stopThread`).
 */
const HOST_CLOSE_GRACE_MS = 5000

/**
 * A data thread that is up anyway and can run a checkpoint (the page
 * thread during a sync, `sync/page-thread/client.ts`): a sync then runs no
 * checkpointer thread, one isolate (12–16 MB) fewer.
 */
export interface CheckpointHost {
  /**
   * Runs one passive checkpoint of `file` on a connection opened for it
   * and closed before it answers, if the host's thread is running:
   * resolves with whether it succeeded, never rejects. Null when the
   * thread is not running (it is not started for a checkpoint).
   */
  checkpointIfRunning(file: string): Promise<boolean> | null
}

/** Options of {@link Checkpointer}. */
export interface CheckpointerOptions {
  /** How long the own thread waits for a request before it exits (default {@link CHECKPOINTER_IDLE_MS}). */
  readonly idleMs?: number
  /** Where checkpoints run while it is running, instead of the own thread. */
  readonly host?: CheckpointHost
}

/**
 * Keeps WAL checkpoints out of the owner's way. The owner's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls while it copies the log into the database file); another
 * connection runs `PRAGMA wal_checkpoint(PASSIVE)`, which never blocks the
 * owner. At most one checkpoint is in flight: requests meanwhile are
 * coalesced into one more after it.
 *
 * Where it runs: on the {@link CheckpointHost} (the page thread) whenever
 * that is running, as it is for a whole sync; otherwise on the
 * checkpointer's own thread (`checkpoint-worker.ts`). The own thread lives
 * only while there is work: it starts with the file's deep check and exits
 * after it unless a checkpoint was asked meanwhile; a later request that
 * the host does not take starts it again (without the check), and it exits
 * {@link CHECKPOINTER_IDLE_MS} after its last checkpoint, or at once when
 * the host takes a request while it idles. An app left open on a profile it
 * does not write to then holds no second connection and no second heap for
 * it, and a sync holds one thread for checkpoints, not two.
 */
export class Checkpointer {
  readonly #file: string
  readonly #entry: ThreadEntry
  readonly #onDamaged: () => void
  readonly #idle: IdleTimer
  readonly #host: CheckpointHost | null
  #worker: Worker | null = null
  /** {@link #worker} runs the deep check it was started with. */
  #checking = false
  /** A `run` was sent to {@link #worker} and not yet answered. */
  #running = false
  /** A checkpoint on the host, settled (never rejected) once it is over. */
  #hosted: Promise<void> | null = null
  #again = false
  /** Threads told to stop that have not exited yet: {@link close} waits for them too. */
  readonly #stopping = new Set<Promise<void>>()
  #closing: Promise<void> | null = null

  /**
   * Starts the own thread with the file's deep check (never on the host:
   * it reads every page, too long to hold up a sync's pages). `onDamaged`
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
    this.#host = options.host ?? null
    this.#start(true)
  }

  /** Asks for a checkpoint soon (ignored once closing). */
  request(): void {
    if (this.#closing) return
    if (this.#running || this.#hosted) {
      this.#again = true
      return
    }
    const hosted = this.#host?.checkpointIfRunning(this.#file) ?? null
    if (hosted) {
      this.#onHost(hosted)
      return
    }
    this.#idle.clear()
    this.#running = true
    this.#start(false).postMessage('run' satisfies ToCheckpointer)
  }

  /**
   * Stops the own thread and waits for a checkpoint in flight on the host
   * (its connection is closed once it answers), so no connection of the
   * checkpointer's outlives the close. Idempotent, and always resolves (a
   * thread that hangs is terminated; a host that hangs is waited for
   * {@link HOST_CLOSE_GRACE_MS} at most).
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#idle.clear()
      if (this.#worker) this.#stop(this.#worker)
      await Promise.all([...this.#stopping, this.#hosted && graced(this.#hosted)])
    })()
    return this.#closing
  }

  /** A checkpoint went to the host: the own thread, if it only idles, goes. */
  #onHost(outcome: Promise<boolean>): void {
    if (this.#worker && !this.#checking) {
      this.#idle.clear()
      this.#stop(this.#worker)
    }
    // A failed checkpoint only leaves the log longer until the next request.
    const hosted = outcome.then(
      () => undefined,
      () => undefined,
    )
    this.#hosted = hosted
    void hosted.then(() => {
      this.#hosted = null
      if (this.#again) {
        this.#again = false
        this.request()
      }
    })
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
        this.#checking = false
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
      this.#checking = false
      // The run it held is lost, and with it the one asked meanwhile (not one asked of the host).
      if (this.#running) this.#again = false
      this.#running = false
      this.#idle.clear()
    })
    this.#worker = worker
    this.#checking = deepCheck
    return worker
  }

  /** Lets `worker` go: the next request starts a new thread. */
  #stop(worker: Worker): void {
    if (worker === this.#worker) {
      this.#worker = null
      this.#checking = false
    }
    const stopped = stopThread(worker, 'close' satisfies ToCheckpointer)
    this.#stopping.add(stopped)
    void stopped.finally(() => this.#stopping.delete(stopped))
  }
}

/** `settled`, or a promise that resolves after {@link HOST_CLOSE_GRACE_MS}, whichever is first. */
function graced(settled: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, HOST_CLOSE_GRACE_MS)
    timer.unref()
  })
  return Promise.race([settled, grace]).finally(() => clearTimeout(timer))
}
