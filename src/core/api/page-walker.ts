import type { ListPage } from '../../shared/domain'
import { AppError } from '../app-error'

/** Asked for on the first page; the service's cap (not shown by the spec) is learned from the answer. */
const DEFAULT_ASK_PAGE_SIZE = 1000

/**
 * Fetches one page; the walker passes the page number and size to use.
 * Fields of `X` (what the caller's pages carry besides a list page) come
 * through to the pages it yields. A fetcher that parses the answer
 * elsewhere (the sync's page thread) calls `answered` once the service's
 * answer has arrived: the request then stops counting against the limit
 * of requests in flight, which is about the service, not about local work.
 * Otherwise it counts until the page is ready.
 */
export type PageFetcher<T, X extends object = object> = (
  page: number,
  pageSize: number,
  signal?: AbortSignal,
  answered?: () => void,
) => Promise<ListPage<T> & X & { readonly fingerprint: string }>

/** One page as the walker yields it. */
export interface WalkedPage<T> extends ListPage<T> {
  /** The page number asked for. */
  readonly pageNumber: number
  /** The page size asked for (after cap discovery). */
  readonly pageSize: number
  /** Entries received so far, this page included. */
  readonly seen: number
  /** True when `total` differs from the first page's: records were added or removed meanwhile. */
  readonly totalChanged: boolean
}

/** Why a walk ended. */
type WalkEnd =
  /** Entries seen reached `total`. */
  | 'complete'
  /** A page came back empty before `total` was reached (or `total` was 0). */
  | 'empty_page'
  /** More pages than `ceil(first total / pageSize) + 2` were needed: the walk stopped. */
  | 'max_pages'

/** What a finished walk found; read it after the `for await` loop. */
export interface WalkSummary {
  readonly end: WalkEnd
  readonly pages: number
  readonly seen: number
  /** `total` of the last page. */
  readonly total: number
  readonly totalChanged: boolean
  /** The page size used after discovery (the service's cap when it was lower than asked). */
  readonly pageSize: number
}

/** Options of a walk. */
export interface WalkOptions {
  /** Page size to ask for first (default {@link DEFAULT_ASK_PAGE_SIZE}). */
  readonly pageSize?: number
  readonly signal?: AbortSignal
  /** First page to fetch (a resumed walk; default 1). Its page size is then already known. */
  readonly startPage?: number
  /** Entries already seen before `startPage` (a resumed walk; default 0). */
  readonly seen?: number
  /** Pages fetched at most (a slice of the list). */
  readonly maxPages?: number
  /**
   * Pages in flight at once, once the first answered (default 1): a number,
   * or a limit read before each request (the client's adaptive one,
   * `in-flight.ts`). Pages are yielded in order; pages answered but not yet
   * taken by the caller are held, at most twice the limit ahead of it, so a
   * slow page does not stall the others and memory stays bounded.
   */
  readonly concurrency?: number | { readonly limit: number }
}

/**
 * The page size a service capped the first page at, if it did: the
 * `pageSize` it echoed when that is smaller than asked (some services say
 * so; the spec shows no such field), else the entries it returned when
 * fewer than asked while `total` says more remain.
 */
function capOf(page: ListPage<unknown>, asked: number): number | undefined {
  if (page.pageSize !== undefined && page.pageSize >= 1 && page.pageSize < asked) {
    return page.pageSize
  }
  return page.received < asked && page.received < page.total ? page.received : undefined
}

/**
 * Walks every page of a list. It asks for a big page first and, when the
 * service returns fewer entries than asked while `total` says more remain,
 * takes that count as the service's cap and asks for it from then on (page
 * numbers stay consistent because the first page covered exactly that many).
 * It stops at an empty page, when `total` is reached, or after
 * `ceil(first total / pageSize) + 2` pages, and throws `pagination_stuck` when a
 * page repeats one already seen (a service ignoring `page` would otherwise
 * loop forever). A resumed walk starts at `startPage` with what was seen
 * before it; with `concurrency` above 1 the next pages are asked for while
 * the caller handles the current one, and still yielded in order.
 */
export class PageWalker<T, X extends object = object> implements AsyncIterable<WalkedPage<T> & X> {
  readonly #fetch: PageFetcher<T, X>
  readonly #options: WalkOptions
  #summary: WalkSummary | null = null

  constructor(fetch: PageFetcher<T, X>, options: WalkOptions = {}) {
    this.#fetch = fetch
    this.#options = options
  }

  /** How the walk ended; null until it has. */
  get summary(): WalkSummary | null {
    return this.#summary
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WalkedPage<T> & X> {
    const options = this.#options
    let pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_ASK_PAGE_SIZE))
    const start = Math.max(1, Math.floor(options.startPage ?? 1))
    const concurrency = options.concurrency ?? 1
    const limitNow = (): number =>
      Math.max(1, Math.floor(typeof concurrency === 'number' ? concurrency : concurrency.limit))
    const limit = options.maxPages === undefined ? Infinity : start + options.maxPages - 1
    const seenPages = new Set<string>()
    let seen = options.seen ?? 0
    let firstTotal: number | null = null
    let totalChanged = false
    let total = 0
    let pageNumber = start
    // The last page worth asking for ahead of time; nothing is asked ahead before the first answer.
    let lastUseful = start
    const finish = (end: WalkEnd): void => {
      this.#summary = { end, pages: pageNumber - start + 1, seen, total, totalChanged, pageSize }
    }
    // Pages asked ahead are dropped when the walk ends, whatever ends it.
    const controller = new AbortController()
    const stop = (): void => controller.abort(options.signal?.reason)
    if (options.signal?.aborted) stop()
    options.signal?.addEventListener('abort', stop, { once: true })
    // Pages asked for and not yet taken by the caller, answered or not.
    const inflight = new Map<number, ReturnType<PageFetcher<T, X>>>()
    // Requests not answered yet: what the limit bounds.
    let unanswered = 0
    const request = (page: number): void => {
      if (inflight.has(page)) return
      unanswered += 1
      let waiting = true
      // The slot is free once the service has answered (the fetcher says so, before parsing the
      // answer elsewhere), or else once the page is ready or failed; true the first time only.
      const release = (): boolean => {
        if (!waiting) return false
        waiting = false
        unanswered -= 1
        return true
      }
      // Each answer frees a slot and may have raised the limit: top up at once, not only when
      // the caller comes back.
      const answered = (): void => {
        if (release()) queueMicrotask(fill)
      }
      const pending = this.#fetch(page, pageSize, controller.signal, answered)
      inflight.set(page, pending)
      pending.then(answered, release)
    }
    // Asks for the pages after the current one while fewer than the limit are unanswered, at most
    // twice the limit ahead of the caller (a slow page must not stall the others, nor memory grow).
    function fill(): void {
      if (controller.signal.aborted) return
      const limit = limitNow()
      const last = Math.min(lastUseful, pageNumber + 2 * limit)
      for (let ahead = pageNumber + 1; ahead <= last && unanswered < limit; ahead += 1) {
        request(ahead)
      }
    }
    try {
      for (;;) {
        request(pageNumber)
        fill()
        const { fingerprint, ...page } = await inflight.get(pageNumber)!
        inflight.delete(pageNumber)
        total = page.total
        firstTotal ??= page.total
        if (page.total !== firstTotal) totalChanged = true
        if (page.received === 0) {
          // A resumed walk whose pages were all stored before it stopped ends complete.
          finish(seen > 0 && seen >= page.total ? 'complete' : 'empty_page')
          return
        }
        if (seenPages.has(fingerprint)) {
          throw new AppError(
            'pagination_stuck',
            `The service returned the same records again for page ${pageNumber}; stopped instead of looping.`,
          )
        }
        seenPages.add(fingerprint)
        const cap = pageNumber === 1 ? capOf(page, pageSize) : undefined
        if (cap !== undefined) {
          // The service capped the page size: from now on ask for what it gives.
          pageSize = cap
          inflight.clear()
        }
        // The bound uses the first total: a total that grows on every page must not extend it.
        const lastPage = Math.min(limit, Math.ceil(firstTotal / pageSize) + 2)
        lastUseful = Math.min(lastPage, Math.ceil(page.total / pageSize))
        seen += page.received
        // The next pages go out before the caller gets this one: it may take a while with it.
        fill()
        // The fetched page less its fingerprint: `X`'s fields are still there (TS cannot see it).
        yield { ...page, pageNumber, pageSize, seen, totalChanged } as WalkedPage<T> & X
        if (seen >= page.total) {
          finish('complete')
          return
        }
        if (pageNumber >= lastPage) {
          finish('max_pages')
          return
        }
        pageNumber += 1
      }
    } finally {
      options.signal?.removeEventListener('abort', stop)
      controller.abort(new AppError('cancelled', 'The walk ended.'))
    }
  }
}
