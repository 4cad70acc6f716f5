import type { Worker } from 'node:worker_threads'
import { AppError } from '../app-error'
import { IdleTimer, PendingCalls } from '../store/thread-calls'
import { spawnStoreThread, type ThreadEntry } from '../store/threads'
import { fromImageIndexSchema, type ImageIndexCall } from './index-protocol'

/** How long the image-index thread waits for the next call, once it has none, before it exits. */
const IMAGE_INDEX_IDLE_MS = 30_000

/**
 * The main thread's handle on the image-index thread (`index-worker.ts`):
 * the image cache's SQL runs there, never on the main thread. The thread
 * starts with the first call (an app that shows no card image never starts
 * it), exits once it has had no call for `idleMs`, and starts again with
 * the next call or after a crash; the calls a crashed thread held fail as
 * `internal`.
 */
export class ImageIndex {
  readonly #entry: ThreadEntry
  readonly #dir: string
  readonly #idle: IdleTimer
  #worker: Worker | null = null
  readonly #calls = new PendingCalls<unknown>()
  #closed = false

  /** `entry` is the page thread's entry, started in the `image-index` role. */
  constructor(entry: ThreadEntry, dir: string, options: { readonly idleMs?: number } = {}) {
    this.#entry = entry
    this.#dir = dir
    this.#idle = new IdleTimer(options.idleMs ?? IMAGE_INDEX_IDLE_MS)
  }

  totalBytes(): Promise<number> {
    return this.#call({ op: 'totalBytes' }) as Promise<number>
  }

  /** The stored file's name `url` resolved to, or null. */
  nameOfUrl(url: string): Promise<string | null> {
    return this.#call({ op: 'nameOfUrl', url }) as Promise<string | null>
  }

  /** The size of the stored file `name`, marked used at `now`; null when the index does not know it. */
  use(name: string, now: number): Promise<number | null> {
    return this.#call({ op: 'use', name, now }) as Promise<number | null>
  }

  /** Records a stored file for `url`; answers the names evicted to keep the total under the cap. */
  store(call: Omit<Extract<ImageIndexCall, { op: 'store' }>, 'op'>): Promise<string[]> {
    return this.#call({ op: 'store', ...call }) as Promise<string[]>
  }

  /** Stops the thread; calls still waiting fail as cancelled. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    this.#idle.clear()
    const worker = this.#worker
    this.#worker = null
    this.#calls.failAll(new AppError('cancelled', 'The app is closing.'))
    if (worker) await worker.terminate()
  }

  #call(call: ImageIndexCall): Promise<unknown> {
    if (this.#closed) return Promise.reject(new AppError('cancelled', 'The app is closing.'))
    const worker = this.#start()
    this.#idle.clear()
    return this.#calls.open((id) => worker.postMessage({ id, call }))
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    const worker = spawnStoreThread(this.#entry, {
      workerData: { role: 'image-index', dir: this.#dir },
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    })
    worker.unref()
    worker.on('message', (raw: unknown) => {
      if (this.#calls.settleRaw(fromImageIndexSchema, raw)) {
        // Every call answered: the thread (its heap, its connection) goes if none comes.
        if (this.#calls.size === 0) {
          this.#idle.start(() => {
            if (this.#calls.size === 0 && this.#worker === worker) {
              this.#worker = null
              void worker.terminate()
            }
          })
        }
        return
      }
      this.#stopped(worker, new AppError('internal', 'The image index sent a malformed answer.'))
    })
    const gone = (cause?: unknown): void =>
      this.#stopped(worker, new AppError('internal', 'The image index stopped.', { cause }))
    worker.on('error', gone)
    worker.on('exit', () => gone())
    this.#worker = worker
    return worker
  }

  #stopped(worker: Worker, error: AppError): void {
    if (this.#worker !== worker) return
    this.#worker = null
    this.#idle.clear()
    this.#calls.failAll(error)
    void worker.terminate()
  }
}
