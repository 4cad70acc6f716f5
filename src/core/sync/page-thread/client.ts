import type { Worker } from 'node:worker_threads'
import { AppError } from '../../app-error'
import { movable } from '../../store/encoded-rows'
import { IdleTimer, PendingCalls } from '../../store/thread-calls'
import { spawnStoreThread, type ThreadEntry } from '../../store/threads'
import type { PageBody, ParsedPage } from './parse-page'
import { fromPageThreadSchema, type ToPageThread } from './protocol'

/** Where sync pages are parsed: in the page thread (the app), or on the caller's thread. */
export interface PageParsing {
  parse(input: PageBody): Promise<ParsedPage>
  /** A page is on its way (its request was sent): get ready to parse it. */
  warm?(): void
}

/**
 * Parses on the calling thread (unit tests, tools): the same function the
 * page thread runs, loaded at the first page (the app's main thread, which
 * leaves parsing to the page thread, never loads it).
 */
export const parseHere: PageParsing = {
  parse: async (input) => (await import('./parse-page')).parsePageBody(input),
}

/** The page thread's young generation, in MB (see `OWNER_YOUNG_GENERATION_MB` in `store/owner/store-owner.ts`). */
const PAGE_YOUNG_GENERATION_MB = 8

/** How long the page thread waits for the next page, once it has none, before it exits. */
const PAGE_THREAD_IDLE_MS = 10_000

/**
 * The main thread's handle on the page thread (`worker.ts`): it sends
 * each list answer's bytes there and gets back the envelope with the records
 * encoded, which it hands to the database owner unread. The thread runs
 * only while a sync sends pages: it starts when the first request of a page
 * goes out ({@link warm}), so it is ready when the answer arrives, and
 * exits `idleMs` after the last page it parsed. It is started again after a
 * crash (the pages it held fail as `internal`, and the run that sent them
 * stops like any failed page).
 */
export class PageThread implements PageParsing {
  readonly #entry: ThreadEntry
  readonly #idle: IdleTimer
  #worker: Worker | null = null
  readonly #calls = new PendingCalls<ParsedPage>()
  #closed = false
  /** Threads given up on (crashed, babbling or idle) until they have exited. */
  readonly #ending = new Set<Promise<number>>()

  /** Starts nothing yet: an app that does not sync never starts the thread. */
  constructor(entry: ThreadEntry, options: { readonly idleMs?: number } = {}) {
    this.#entry = entry
    this.#idle = new IdleTimer(options.idleMs ?? PAGE_THREAD_IDLE_MS)
  }

  warm(): void {
    if (this.#closed) return
    this.#start()
    // Unless its page comes within `idleMs`, the thread exits; the page's parse starts another.
    if (this.#calls.size === 0) this.#idleLater()
  }

  parse(input: PageBody): Promise<ParsedPage> {
    if (this.#closed) return Promise.reject(new AppError('cancelled', 'The app is closing.'))
    const worker = this.#start()
    this.#idle.clear()
    // The answer's bytes move to the page thread: the caller is done with them.
    return this.#calls.open((id) =>
      worker.postMessage({ id, input } satisfies ToPageThread, movable([input.body.bytes])),
    )
  }

  /** Stops the thread (and any it gave up on); pages still being parsed fail as cancelled. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    this.#idle.clear()
    const worker = this.#worker
    this.#worker = null
    this.#calls.failAll(new AppError('cancelled', 'The app is closing.'))
    if (worker) this.#ending.add(worker.terminate())
    await Promise.all(this.#ending)
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    const worker = spawnStoreThread(this.#entry, {
      // A page's objects die as soon as it is encoded; a small young generation keeps RSS down.
      resourceLimits: { maxYoungGenerationSizeMb: PAGE_YOUNG_GENERATION_MB },
    })
    worker.unref()
    worker.on('message', (raw: unknown) => {
      if (this.#calls.settleRaw(fromPageThreadSchema, raw)) {
        if (this.#calls.size === 0) this.#idleLater()
        return
      }
      this.#stopped(worker, new AppError('internal', 'The page thread sent a malformed answer.'))
    })
    worker.on('error', (error) => {
      this.#stopped(worker, new AppError('internal', 'The page thread stopped.', { cause: error }))
    })
    worker.on('exit', () => {
      this.#stopped(worker, new AppError('internal', 'The page thread stopped.'))
    })
    this.#worker = worker
    return worker
  }

  /** Stops the thread once no page has come for `idleMs` (a new page or request cancels it). */
  #idleLater(): void {
    const worker = this.#worker
    if (!worker) return
    this.#idle.start(() => {
      if (this.#calls.size === 0 && this.#worker === worker) this.#retire(worker)
    })
  }

  /** The thread is gone or unusable: what it held fails, and the next page starts a new one. */
  #stopped(worker: Worker, error: AppError): void {
    if (this.#worker !== worker) return
    this.#calls.failAll(error)
    this.#retire(worker)
  }

  /** Ends `worker` (it holds no page): the next page starts a new thread. */
  #retire(worker: Worker): void {
    this.#worker = null
    this.#idle.clear()
    const ending = worker.terminate()
    this.#ending.add(ending)
    void ending.finally(() => this.#ending.delete(ending))
  }
}
