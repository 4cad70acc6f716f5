import type { Worker } from 'node:worker_threads'
import { AppError } from '../../app-error'
import { movable } from '../../store/encoded-rows'
import { PendingCalls } from '../../store/thread-calls'
import { spawnStoreThread, type ThreadEntry } from '../../store/threads'
import { parsePageBody, type PageBody, type ParsedPage } from './parse-page'
import { fromPageThreadSchema, type ToPageThread } from './protocol'

/** Where sync pages are parsed: in the page thread (the app), or on the caller's thread. */
export interface PageParsing {
  parse(input: PageBody): Promise<ParsedPage>
}

/** Parses on the calling thread (unit tests, tools): the same function the page thread runs. */
export const parseHere: PageParsing = {
  parse: (input) => Promise.resolve().then(() => parsePageBody(input)),
}

/** The page thread's young generation, in MB (see `OWNER_YOUNG_GENERATION_MB` in `store/owner/store-owner.ts`). */
const PAGE_YOUNG_GENERATION_MB = 8

/**
 * The main thread's handle on the page thread (`worker.ts`): it sends
 * each list answer's bytes there and gets back the envelope with the records
 * encoded, which it hands to the database owner unread. The thread is
 * started again after a crash (the pages it held fail as `internal`, and the
 * run that sent them stops like any failed page).
 */
export class PageThread implements PageParsing {
  readonly #entry: ThreadEntry
  #worker: Worker | null = null
  readonly #calls = new PendingCalls<ParsedPage>()
  #closed = false
  /** Threads given up on (crashed or babbling) until they have exited. */
  readonly #ending = new Set<Promise<number>>()

  /** Starts the thread at once, so the first sync does not wait for it. */
  constructor(entry: ThreadEntry) {
    this.#entry = entry
    this.#start()
  }

  parse(input: PageBody): Promise<ParsedPage> {
    if (this.#closed) return Promise.reject(new AppError('cancelled', 'The app is closing.'))
    const worker = this.#start()
    // The answer's bytes move to the page thread: the caller is done with them.
    return this.#calls.open((id) =>
      worker.postMessage({ id, input } satisfies ToPageThread, movable([input.body.bytes])),
    )
  }

  /** Stops the thread (and any it gave up on); pages still being parsed fail as cancelled. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
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
      if (this.#calls.settleRaw(fromPageThreadSchema, raw)) return
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

  /** The thread is gone or unusable: what it held fails, and the next page starts a new one. */
  #stopped(worker: Worker, error: AppError): void {
    if (this.#worker !== worker) return
    this.#worker = null
    this.#calls.failAll(error)
    const ending = worker.terminate()
    this.#ending.add(ending)
    void ending.finally(() => this.#ending.delete(ending))
  }
}
