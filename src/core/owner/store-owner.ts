import type { MessagePort, Worker } from 'node:worker_threads'
import { AppError } from '../app-error'
import { Checkpointer, CheckpointSchedule } from './checkpointer'
import type { StoreNotice } from '../store/schema/database'
import { rowsOf } from '../store/write/page-write'
import { movable } from '../threads/transfer'
import { readFromOwner, type OwnerData, type ToOwner } from './protocol'
import type { TeamLinkMessage } from './team-link'
import type { StoreArgs, StoreOp, StoreResult } from './store-ops'
import { spawnStoreThread, stopThread, type ThreadEntry } from '../threads/spawn'

/**
 * The entries of a profile's two data threads: the owner (`worker.ts`,
 * bundled as `out/main/owner-worker.js`) and its WAL checkpointer
 * (`checkpoint-worker.ts`, bundled as `out/main/checkpoint-worker.js`).
 */
export interface StoreThreads {
  readonly owner: ThreadEntry
  readonly checkpointer: ThreadEntry
}

/**
 * Where the page thread can send pages itself: a profile's database owner,
 * which takes one end of a link (`sync/page-thread/client.ts` makes it).
 */
export interface PageSink {
  /** Takes `port`, the owner's end of link `link`: page parcels arrive on it. */
  receivePages(link: number, port: MessagePort): void
}

/**
 * Where the team worker can send its store requests itself: a profile's
 * database owner, which takes one end of the team link (`team-link.ts`).
 */
export interface TeamLinkSink {
  /** Takes `port`, the owner's end of the team link: the team's requests arrive and are answered on it. */
  linkTeam(port: MessagePort): void
}

/** Options of {@link StoreOwner}. */
export interface StoreOwnerOptions {
  readonly file: string
  readonly threads: StoreThreads
  /** How long a write waits for another connection's lock before `store_busy` (default 5 s). */
  readonly busyTimeoutMs?: number
  readonly now?: () => Date
  /** Where a thread that failed says why (the app's log); the callers get `internal`. */
  readonly log?: (message: string) => void
}

/** The arguments of `call(op, …)`: none for operations that take none. */
export type CallArgs<K extends StoreOp> = StoreArgs<K> extends undefined ? [] : [StoreArgs<K>]

/** What the sync engine and the services need of a profile's database. */
export interface StoreClient {
  /** Runs one operation of `STORE_OPS` on the owner thread; failures are typed `AppError`s. */
  call<K extends StoreOp>(op: K, ...args: CallArgs<K>): Promise<StoreResult<K>>
  /** Lets page writes through again after one failed (a new sync run calls it). */
  resetWrites(): void
}

/**
 * The owner's young generation, in MB (V8 lets it grow to 3 × 16 MB). Its
 * objects die young (a page's records, a query's rows), so a small one
 * keeps the process's resident memory down without slowing a sync.
 */
const OWNER_YOUNG_GENERATION_MB = 8

interface Waiter {
  resolve(value: unknown): void
  reject(error: AppError): void
}

/**
 * The main thread's handle on a profile's database owner: a worker thread
 * that holds the only connection (besides the WAL checkpointer) and runs
 * every query and write. The main thread never runs SQL; it posts typed
 * requests and awaits typed answers. Requests may be sent at once: the
 * thread takes them, in order, once the file is open.
 */
export class StoreOwner implements StoreClient, PageSink, TeamLinkSink {
  readonly file: string
  /** Settles once the file is open and migrated (rejects with why it could not be). */
  readonly ready: Promise<void>
  readonly #worker: Worker
  readonly #pending = new Map<number, Waiter>()
  #notice: StoreNotice | null = null
  #damaged = false
  #checkpointer: Checkpointer | null = null
  readonly #checkpoints = new CheckpointSchedule(() => this.#checkpointer?.request())
  /** Why the thread can take no more requests (it failed to open, crashed or was closed). */
  #failure: AppError | null = null
  #nextId = 1
  #closing: Promise<void> | null = null
  #exited = false

  /** Starts the owner thread; use {@link ready} (or {@link StoreOwner.open}) to wait for the file. */
  constructor(options: StoreOwnerOptions) {
    this.file = options.file
    const data: OwnerData = {
      file: options.file,
      openedAt: (options.now ?? (() => new Date()))().toISOString(),
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    }
    this.#worker = spawnStoreThread(options.threads.owner, {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: OWNER_YOUNG_GENERATION_MB },
    })
    this.#worker.unref()
    let opened: () => void = () => undefined
    let refused: (error: AppError) => void = () => undefined
    this.ready = new Promise<void>((resolve, reject) => {
      opened = resolve
      refused = reject
    })
    this.ready.catch(() => undefined)
    this.#worker.on('message', (raw: unknown) => {
      const message = readFromOwner(raw)
      if (message === null) {
        options.log?.('[store] the cache thread sent a malformed answer')
        this.#failAll(new AppError('internal', 'The cache thread sent a malformed answer.'))
        return
      }
      if (message.type === 'ready') {
        this.#notice = message.notice
        if (!this.#closing)
          this.#checkpointer = new Checkpointer(this.file, options.threads.checkpointer, () => {
            this.#damaged = true
          })
        opened()
      } else if (message.type === 'failed') {
        this.#failure = AppError.fromData(message.error)
        this.#failAll(this.#failure)
        refused(this.#failure)
      } else if (message.type === 'pagesDone') {
        for (const id of message.ids) {
          this.#pending.get(id)?.resolve(undefined)
          this.#pending.delete(id)
        }
      } else {
        const waiter = this.#pending.get(message.id)
        this.#pending.delete(message.id)
        if (message.type === 'done') waiter?.resolve(message.value)
        else waiter?.reject(AppError.fromData(message.error))
      }
    })
    this.#worker.on('error', (error) => {
      options.log?.(`[store] the cache thread stopped: ${String(error)}`)
      this.#failure ??= new AppError('internal', 'The cache thread stopped.', { cause: error })
      this.#failAll(this.#failure)
      refused(this.#failure)
    })
    this.#worker.on('exit', () => {
      this.#exited = true
      this.#failure ??= new AppError('cancelled', 'The profile was closed.')
      this.#failAll(this.#failure)
      refused(new AppError('internal', 'The cache thread exited before opening the file.'))
      void this.#checkpointer?.close()
    })
  }

  /**
   * True once the background deep check has found the file damaged: the
   * next open moves it aside and rebuilds it (with a notice).
   */
  get damaged(): boolean {
    return this.#damaged
  }

  /** True once the owner thread has exited (closed, or failed). */
  get exited(): boolean {
    return this.#exited
  }

  /** Starts the owner thread and resolves once the file is open and migrated. */
  static async open(options: StoreOwnerOptions): Promise<StoreOwner> {
    const owner = new StoreOwner(options)
    await owner.ready
    return owner
  }

  /** Set (once {@link ready}) when the file was unreadable, too new or failed its check, and was rebuilt. */
  get notice(): StoreNotice | null {
    return this.#notice
  }

  call<K extends StoreOp>(op: K, ...args: CallArgs<K>): Promise<StoreResult<K>> {
    if (this.#closing) {
      return Promise.reject(new AppError('cancelled', 'The profile was closed.'))
    }
    if (this.#failure) return Promise.reject(this.#failure)
    const id = this.#nextId
    this.#nextId += 1
    // Records a write adds, counted now: the waiter keeps a number, not the page (the
    // page's objects are garbage once posted, instead of surviving young collections).
    const written =
      op === 'writePage' ? rowsOf(args[0] as StoreArgs<'writePage'>) : op === 'writeBrands' ? 1 : 0
    return new Promise<StoreResult<K>>((resolve, reject) => {
      this.#pending.set(id, {
        // The owner ran STORE_OPS[op] itself, so the answer is that function's result.
        resolve: (value) => {
          if (written > 0) this.#checkpoints.wrote(written)
          resolve(value as StoreResult<K>)
        },
        reject,
      })
      // Encoded records move to the owner: this thread only passes them along.
      const request = args[0] as StoreArgs<'writePage'> | undefined
      const transfer =
        op === 'writePage' && request && 'encoded' in request && 'bytes' in request.encoded
          ? movable([request.encoded.bytes])
          : []
      this.#post({ type: 'call', id, op, args: args[0] }, transfer)
    })
  }

  #failAll(error: AppError): void {
    for (const waiter of this.#pending.values()) waiter.reject(error)
    this.#pending.clear()
  }

  /**
   * Hands the owner its end of a link from the page thread: the encoded
   * records of the pages parsed for it arrive there, and the sync's writes
   * name them. A closed or failed owner closes the port instead.
   */
  receivePages(link: number, port: MessagePort): void {
    if (this.#closing || this.#failure) {
      port.close()
      return
    }
    this.#worker.postMessage({ type: 'pages', link, port } satisfies ToOwner, [port])
  }

  /**
   * Hands the owner its end of the team link: the team worker's store
   * requests come and are answered on it, never through this thread. A
   * closed or failed owner closes the port instead, which the team worker
   * sees as the store gone.
   */
  linkTeam(port: MessagePort): void {
    if (this.#closing || this.#failure) {
      port.close()
      return
    }
    this.#worker.postMessage({ type: 'team', port } satisfies TeamLinkMessage, [port])
  }

  resetWrites(): void {
    if (!this.#closing) this.#post({ type: 'reset' })
  }

  /**
   * Answers every request already sent, then closes the connection and the
   * thread. Idempotent: every call gets the same promise, which always
   * resolves (a thread that hangs is terminated). The checkpointer's
   * connection closes first, so the owner's is the last one: SQLite then
   * copies the whole log into the file and deletes it (closed at the same
   * time, each could still see the other and neither did, leaving a file
   * that a `VACUUM` had compacted only in its log).
   */
  close(): Promise<void> {
    this.#checkpoints.stop()
    this.#closing ??= Promise.resolve(this.#checkpointer?.close())
      .then(() => stopThread(this.#worker, { type: 'close' } satisfies ToOwner))
      .then(() => undefined)
    return this.#closing
  }

  #post(message: ToOwner, transfer: readonly ArrayBuffer[] = []): void {
    this.#worker.postMessage(message, transfer)
  }
}
