import { MessageChannel, type Worker } from 'node:worker_threads'
import type { PageSink } from '../../owner/store-owner'
import type { EncodedRows, ParcelRows } from '../../store/write/page-write'
import { movable } from '../../threads/transfer'
import { OnDemandThread } from '../../threads/on-demand'
import { spawnStoreThread, type ThreadEntry } from '../../threads/spawn'
import {
  PAGE_THREAD_DATA,
  readFromPageThread,
  type PageBody,
  type PageThreadValue,
  type ParsedPage,
  type ToPageThread,
} from './protocol'

/** Where sync pages are parsed: in the page thread (the app), or on the caller's thread. */
export interface PageParsing {
  parse(input: PageBody): Promise<ParsedPage<EncodedRows | ParcelRows>>
  /** A page is on its way (its request was sent): get ready to parse it. */
  warm?(): void
}

/**
 * Parses on the calling thread (unit tests, tools): the same function the
 * page thread runs, loaded at the first page (the app's main thread, which
 * leaves parsing to the page thread, never loads it).
 */
export const parseHere: { parse(input: PageBody): Promise<ParsedPage> } = {
  parse: async (input) => (await import('./worker')).parsePageBody(input),
}

/** How long the page thread waits for the next page, once it has none, before it exits. */
const PAGE_THREAD_IDLE_MS = 10_000

/**
 * The main thread's handle on the page thread (`worker.ts`): it sends
 * each list answer's bytes there. Parsing {@link towards} an owner, the
 * thread sends the encoded records to that owner itself, over a link
 * (a `MessageChannel` made here when the thread first parses for that
 * owner, one port moved to each), and answers the envelope with the
 * chunks' names, which the sync's write names in turn: the main thread
 * never holds a page's records, nor passes them on. The thread runs
 * only while a sync sends pages: it starts when the first request of a page
 * goes out ({@link warm}), so it is ready when the answer arrives, and
 * exits `idleMs` after the last page it parsed. It is started again after a
 * crash (the pages it held fail as `internal`, and the run that sent them
 * stops like any failed page).

 */
export class PageThread implements PageParsing {
  readonly #thread: OnDemandThread<PageThreadValue>
  /** Each running thread's links, by owner: a new thread makes new ones. */
  readonly #links = new WeakMap<Worker, WeakMap<PageSink, number>>()
  /** Link and parcel ids, unique for the app's life (a restarted thread never reuses one). */
  #lastLink = 0
  #lastParcel = 0

  /** Starts nothing yet: an app that does not sync never starts the thread. */
  constructor(entry: ThreadEntry, options: { readonly idleMs?: number } = {}) {
    this.#thread = new OnDemandThread({
      // The data threads' young generation (4 MB, `DATA_THREAD_YOUNG_GENERATION_MB`): a page's
      // objects die as soon as it is encoded. At 8 MB a sync's peak memory was about 6 MB higher,
      // for no CPU time measurably saved.
      spawn: () => spawnStoreThread(entry, { workerData: PAGE_THREAD_DATA }),
      answers: readFromPageThread,
      name: 'The page thread',
      idleMs: options.idleMs ?? PAGE_THREAD_IDLE_MS,
    })
  }

  warm(): void {
    this.#thread.warm()
  }

  /** Parses a page; its records come back encoded. */
  parse(input: PageBody): Promise<ParsedPage> {
    // The answer's bytes move to the page thread: the caller is done with them.
    return this.#thread.call((worker, id) =>
      worker.postMessage({ id, input } satisfies ToPageThread, movable([input.body.bytes])),
    ) as Promise<ParsedPage>
  }

  /** Parsing whose records go from the page thread straight to `owner`. */
  towards(owner: PageSink): PageParsing {
    return {
      warm: () => this.warm(),
      parse: (input) =>
        this.#thread.call((worker, id) => {
          const link = this.#linkTo(worker, owner)
          this.#lastParcel += 1
          const deliver = { link, parcel: this.#lastParcel }
          worker.postMessage(
            { id, input, deliver } satisfies ToPageThread,
            movable([input.body.bytes]),
          )
        }),
    }
  }

  /** The link from `worker` to `owner`, made (a channel, one end to each) if there is none yet. */
  #linkTo(worker: Worker, owner: PageSink): number {
    let links = this.#links.get(worker)
    if (!links) {
      links = new WeakMap()
      this.#links.set(worker, links)
    }
    const known = links.get(owner)
    if (known !== undefined) return known
    this.#lastLink += 1
    const link = this.#lastLink
    const { port1, port2 } = new MessageChannel()
    worker.postMessage({ link, port: port1 } satisfies ToPageThread, [port1])
    owner.receivePages(link, port2)
    links.set(owner, link)
    return link
  }

  /** Stops the thread (and any it gave up on); pages still being parsed fail as cancelled. Idempotent. */
  close(): Promise<void> {
    return this.#thread.close()
  }
}
