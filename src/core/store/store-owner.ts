import type { Worker } from 'node:worker_threads'
import { AppError } from '../app-error'
import { Checkpointer } from './checkpointer'
import type { StoreNotice } from './database'
import { fromOwnerSchema, type OwnerData, type ToOwner } from './owner-protocol'
import type { StoreArgs, StoreOp, StoreResult } from './store-ops'
import { spawnStoreThread, stopThread } from './threads'

/**
 * The owner thread's entry. The built app passes the bundled file
 * (`out/main/owner-worker.js`); tests and the web host pass the TypeScript
 * source with `execArgv: ['--import', 'tsx']`.
 */
export interface StoreWorkerEntry {
  readonly url: URL
  readonly execArgv?: readonly string[]
}

/** Options of {@link StoreOwner.open}. */
export interface StoreOwnerOptions {
  readonly file: string
  readonly worker: StoreWorkerEntry
  /** How long a write waits for another connection's lock before `store_busy` (default 5 s). */
  readonly busyTimeoutMs?: number
  readonly now?: () => Date
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

interface Waiter {
  resolve(value: unknown): void
  reject(error: AppError): void
}

/**
 * The main thread's handle on a profile's database owner: a worker thread
 * that holds the only connection (besides the WAL checkpointer) and runs
 * every query and write. The main thread never runs SQL; it posts typed
 * requests and awaits typed answers.
 */
export class StoreOwner implements StoreClient {
  readonly file: string
  /** Set when the file was unreadable, too new or failed its check, and was rebuilt. */
  readonly notice: StoreNotice | null
  readonly #worker: Worker
  readonly #pending: Map<number, Waiter>
  readonly #checkpointer: Checkpointer
  #nextId = 1
  #closing: Promise<void> | null = null

  private constructor(
    file: string,
    worker: Worker,
    notice: StoreNotice | null,
    pending: Map<number, Waiter>,
  ) {
    this.file = file
    this.#worker = worker
    this.notice = notice
    this.#pending = pending
    this.#checkpointer = new Checkpointer(file)
  }

  /** Starts the owner thread and resolves once the file is open and migrated. */
  static open(options: StoreOwnerOptions): Promise<StoreOwner> {
    const data: OwnerData = {
      file: options.file,
      openedAt: (options.now ?? (() => new Date()))().toISOString(),
      ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    }
    const worker = spawnStoreThread(options.worker.url, {
      workerData: data,
      execArgv: [...(options.worker.execArgv ?? [])],
    })
    worker.unref()
    const pending = new Map<number, Waiter>()
    return new Promise<StoreOwner>((resolve, reject) => {
      let owner: StoreOwner | null = null
      const failAll = (error: AppError): void => {
        for (const waiter of pending.values()) waiter.reject(error)
        pending.clear()
      }
      worker.on('message', (raw: unknown) => {
        const parsed = fromOwnerSchema.safeParse(raw)
        if (!parsed.success) {
          failAll(new AppError('internal', 'The cache thread sent a malformed answer.'))
          return
        }
        const message = parsed.data
        if (message.type === 'ready') {
          owner = new StoreOwner(options.file, worker, message.notice, pending)
          resolve(owner)
        } else if (message.type === 'failed') {
          reject(toAppError(message.error))
        } else {
          const waiter = pending.get(message.id)
          pending.delete(message.id)
          if (message.type === 'done') waiter?.resolve(message.value)
          else waiter?.reject(toAppError(message.error))
        }
      })
      worker.on('error', (error) => {
        const typed = new AppError('internal', 'The cache thread stopped.', { cause: error })
        failAll(typed)
        reject(typed)
      })
      worker.on('exit', () => {
        failAll(new AppError('cancelled', 'The profile was closed.'))
        reject(new AppError('internal', 'The cache thread exited before opening the file.'))
        void owner?.close()
      })
    })
  }

  call<K extends StoreOp>(op: K, ...args: CallArgs<K>): Promise<StoreResult<K>> {
    if (this.#closing) {
      return Promise.reject(new AppError('cancelled', 'The profile was closed.'))
    }
    const id = this.#nextId
    this.#nextId += 1
    return new Promise<StoreResult<K>>((resolve, reject) => {
      this.#pending.set(id, {
        // The owner ran STORE_OPS[op] itself, so the answer is that function's result.
        resolve: (value) => {
          if (op === 'writePage' || op === 'writeBrands') this.#checkpointer.request()
          resolve(value as StoreResult<K>)
        },
        reject,
      })
      this.#post({ type: 'call', id, op, args: args[0] })
    })
  }

  resetWrites(): void {
    if (!this.#closing) this.#post({ type: 'reset' })
  }

  /**
   * Answers every request already sent, then closes the connection and the
   * thread. Idempotent: every call gets the same promise, which always
   * resolves (a thread that hangs is terminated).
   */
  close(): Promise<void> {
    this.#closing ??= Promise.all([
      stopThread(this.#worker, { type: 'close' } satisfies ToOwner),
      this.#checkpointer.close(),
    ]).then(() => undefined)
    return this.#closing
  }

  #post(message: ToOwner): void {
    this.#worker.postMessage(message)
  }
}

function toAppError(data: {
  code: AppError['code']
  message: string
  status?: number | undefined
  retryAt?: string | undefined
}): AppError {
  return new AppError(data.code, data.message, {
    ...(data.status === undefined ? {} : { status: data.status }),
    ...(data.retryAt === undefined ? {} : { retryAt: data.retryAt }),
  })
}
