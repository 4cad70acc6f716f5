import { movable } from '../../threads/transfer'
import { OnDemandThread } from '../../threads/on-demand'
import { spawnStoreThread, type ThreadEntry } from '../../threads/spawn'
import type { PageBody, ParsedPage } from './parse-page'
import { fromPageThreadSchema, type PageThreadValue } from './protocol'
import type { ToPageThread } from './request'

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
  readonly #thread: OnDemandThread<PageThreadValue>

  /** Starts nothing yet: an app that does not sync never starts the thread. */
  constructor(entry: ThreadEntry, options: { readonly idleMs?: number } = {}) {
    this.#thread = new OnDemandThread({
      // The data threads' young generation (4 MB, `DATA_THREAD_YOUNG_GENERATION_MB`): a page's
      // objects die as soon as it is encoded. At 8 MB a sync's peak memory was about 6 MB higher,
      // for no CPU time measurably saved.
      spawn: () => spawnStoreThread(entry),
      answers: fromPageThreadSchema,
      name: 'The page thread',
      idleMs: options.idleMs ?? PAGE_THREAD_IDLE_MS,
    })
  }

  warm(): void {
    this.#thread.warm()
  }

  parse(input: PageBody): Promise<ParsedPage> {
    // The answer's bytes move to the page thread: the caller is done with them.
    return this.#thread.call((worker, id) =>
      worker.postMessage({ id, input } satisfies ToPageThread, movable([input.body.bytes])),
    )
  }

  /** Stops the thread (and any it gave up on); pages still being parsed fail as cancelled. Idempotent. */
  close(): Promise<void> {
    return this.#thread.close()
  }
}
