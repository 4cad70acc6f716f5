import type { PassKind, SyncProgress } from '../../shared/lists'
import type { SyncResourceName } from '../../shared/resources'
import type { GuaranteeQuery, InspectionQuery, ListPage, PartnerFilter } from '../../shared/domain'
import { AppError } from '../app-error'
import type { EventBus } from '../events'
import type { PartnerClient } from '../api/client'
import type {
  BrandRecord,
  GuaranteeRecord,
  InspectionRecord,
  PagedResource,
} from '../store/record-types'
import type { StoreClient } from '../owner/store-owner'
import { randomUUID } from 'node:crypto'
import type { SyncMark } from '../store/write/page-write'
import type { SyncStateRow } from '../store/sync-state'
import { parseHere, type PageParsing } from './page-thread/client'
import { idxFingerprint, type SourcePage } from './page-thread/protocol'

/** A slice of a list fetched with the service's own filters (before the full sync has finished). */
export type SliceFilter = PartnerFilter

/** How one resource's run ended. */
export interface RunOutcome {
  readonly resource: SyncResourceName
  readonly phase: 'done' | 'cancelled' | 'error'
  /** False when the pass stopped early or `total` moved under it: nothing was marked gone. */
  readonly complete: boolean
  readonly fetched: number
  readonly rejected: number
  /** Pages the run read (paged lists). */
  readonly pages?: number
  /** Longest single page write (parse excluded), in ms: how long one step blocked the thread. */
  readonly maxStepMs?: number
  readonly error?: AppError
}

/**
 * One paged pass of one list (full, incremental or a targeted slice): its
 * plan from the stored state, its pages fetched from its source (the
 * partner client, `clientSyncSource`) through the page walker
 * (`PageWalker`), both further down this file, and committed through the
 * database owner with their checkpoint. The sync engine (`sync-engine.ts`)
 * queues and starts passes; this file runs one.
 */

type PagedRecord = GuaranteeRecord | InspectionRecord

/** A page's records when its source parsed them off this thread (`SourcePage.encoded`). */
type Encoded = Pick<SourcePage<never>, 'encoded'>

/** What a pass needs of the engine: its options, resolved. */
export interface PassDeps {
  readonly store: StoreClient
  readonly source: SyncSource
  readonly events: EventBus
  readonly now: () => Date
  readonly timeZone: () => string
  readonly pageSize: number
  readonly concurrency?: number
  readonly windowDays: number
  readonly targetedPages: number
  readonly maxRowsPerTransaction: number
  readonly maxPendingWrites: number
  readonly afterPage?: (resource: PagedResource, page: number) => void
}

/** Where a paged run starts and what it asks the service for. */
export interface PagePlan {
  readonly resource: PagedResource
  readonly mode: PassKind
  /** The full pass the records are marked with (a resumed pass keeps its number). */
  readonly pass: number
  readonly startPage: number
  readonly pageSize: number
  /** Entries stored before `startPage` by the interrupted pass. */
  readonly seen: number
  readonly rejected: number
  readonly total: number | null
  readonly startedAt: string | null
  /**
   * This run of the pass, for the changes feed: a new id and its start time
   * (a resumed pass is a run of its own; what the interrupted one committed
   * is already stored, so nothing is logged twice).
   */
  readonly sync: SyncMark
  /** The mode stored in sync_state while it runs (a slice keeps the list's own). */
  readonly storedMode: 'full' | 'incremental' | null
  readonly query: Omit<PageQuery, 'page' | 'pageSize'>
}

/** Where a paged run starts, from the stored state: a resumed full pass continues at its checkpoint. */
export function planPass(
  deps: PassDeps,
  resource: PagedResource,
  mode: PassKind,
  state: SyncStateRow,
  filter: SliceFilter,
): PagePlan {
  const checkpoint = mode === 'full' && state.mode === 'full' ? state.checkpoint : null
  // A new full pass asks for the configured size again, so a service that raised its cap is
  // noticed; the other passes ask at once for what the service took last time.
  const pageSize =
    checkpoint?.pageSize ?? (mode === 'full' ? deps.pageSize : (state.pageSize ?? deps.pageSize))
  return {
    resource,
    mode,
    pass: mode === 'full' && !checkpoint ? state.pass + 1 : state.pass,
    startPage: checkpoint?.nextPage ?? 1,
    pageSize,
    seen: checkpoint?.fetched ?? 0,
    rejected: checkpoint ? state.rejected : 0,
    total: checkpoint?.total ?? null,
    startedAt: checkpoint ? state.startedAt : deps.now().toISOString(),
    sync: { id: randomUUID(), at: deps.now().toISOString(), zone: deps.timeZone() },
    storedMode: mode === 'targeted' ? state.mode : mode,
    query: {
      sort: 'latest',
      ...(mode === 'incremental' ? { from: filter.from ?? windowStart(deps) } : {}),
      ...(mode === 'targeted' ? withoutEmpty(filter) : {}),
    },
  }
}

/**
 * Runs one paged pass: the plan's pages come from the page walker (a few in
 * flight, yielded in order); each is committed in one transaction with its
 * checkpoint by the database owner, a few commits pipelined behind the
 * fetches (`writes`, which the caller awaits on failure). A complete,
 * consistent full pass then marks what the service no longer returned as
 * gone. Progress goes to `report`, `succeeded` runs once it is stored; a
 * failure throws.
 */
export async function runPagedPass(
  deps: PassDeps,
  plan: PagePlan,
  signal: AbortSignal,
  tally: Tally,
  writes: Promise<void>[],
  report: (phase: SyncProgress['phase']) => void,
  succeeded: () => void,
): Promise<RunOutcome> {
  const { resource, mode } = plan
  await deps.store.call('writeSyncState', {
    resource,
    patch: {
      status: 'syncing',
      mode: plan.storedMode,
      pass: plan.pass,
      ...(mode === 'full'
        ? {
            startedAt: plan.startedAt,
            checkpoint: {
              nextPage: plan.startPage,
              pageSize: plan.pageSize,
              total: plan.total,
              fetched: plan.seen,
            },
          }
        : {}),
    },
  })
  // A list's answer carries its freshness (`syncing`): the lists ask again.
  deps.events.emit('data.changed', { resource })
  report('running')
  const walker = new PageWalker<PagedRecord, Encoded>(
    (page, pageSize, pageSignal, answered) =>
      fetchPage(deps, plan, page, pageSize, pageSignal, answered),
    {
      pageSize: plan.pageSize,
      startPage: plan.startPage,
      seen: plan.seen,
      signal,
      concurrency: deps.concurrency ?? deps.source.inFlight ?? 3,
      ...(mode === 'targeted' ? { maxPages: deps.targetedPages } : {}),
    },
  )
  for await (const page of walker) {
    tally.pages += 1
    tally.seen = page.seen
    tally.fetchedNow += page.received
    tally.rejected += page.rejected
    tally.total = page.total
    tally.totalChanged = page.totalChanged
    await commit(deps, plan, page, tally, writes)
    report('running')
    // Pages that arrived together are handled one per turn of the event loop,
    // so the window's requests are answered between them, not after all of them.
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  for (const pending of writes.splice(0)) await pending

  const at = deps.now().toISOString()
  const consistent = walker.summary?.end === 'complete' && !tally.totalChanged
  const learned = learnedPageSize(plan, walker.summary?.pageSize, deps.pageSize)
  // Through the owner like every write: marking unseen records scans the whole list.
  await deps.store.call('writePage', {
    resource,
    items: [],
    pass: plan.pass,
    at,
    sync: plan.sync,
    markGone: mode === 'full' && consistent,
    state: {
      status: 'idle',
      lastError: null,
      ...(learned === undefined ? {} : { pageSize: learned }),
      ...(mode === 'targeted' ? {} : { lastSuccessAt: at }),
      ...(mode === 'full' ? { checkpoint: null, rejected: tally.rejected } : {}),
      ...(mode === 'full' && consistent ? { lastFullAt: at } : {}),
    },
  })
  succeeded()
  deps.events.emit('data.changed', { resource })
  report('done')
  return {
    resource,
    phase: 'done',
    complete: consistent,
    fetched: tally.fetchedNow,
    rejected: tally.rejected,
    pages: tally.pages,
    maxStepMs: tally.maxStepMs,
  }
}

/** Fetches one page of the plan for the walker, with the fingerprint that spots a repeated page. */
async function fetchPage(
  deps: PassDeps,
  plan: PagePlan,
  page: number,
  pageSize: number,
  signal: AbortSignal | undefined,
  answered: (() => void) | undefined,
): Promise<ListPage<PagedRecord> & Encoded & { readonly fingerprint: string }> {
  const query: PageQuery = { ...plan.query, page, pageSize }
  const aborted = signal ?? new AbortController().signal
  const hints: PageHints = {
    rowsPerChunk: deps.maxRowsPerTransaction,
    ...(answered === undefined ? {} : { answered }),
  }
  const result: SourcePage<PagedRecord> =
    plan.resource === 'guarantees'
      ? await deps.source.guarantees(query, aborted, hints)
      : await deps.source.inspections(query, aborted, hints)
  return {
    ...result,
    rejects: result.rejects ?? [],
    fingerprint: result.fingerprint ?? idxFingerprint(result.items),
  }
}

/**
 * Commits one page through the owner: one transaction with its checkpoint.
 * An oversized page (docs/faults.md F12) goes in chunks so no single transaction
 * holds the owner long; the checkpoint moves only with the last chunk, so
 * a crash re-reads the page, and the upserts make that harmless. A few
 * commits may wait behind the fetches, never the whole list.
 */
async function commit(
  deps: PassDeps,
  plan: PagePlan,
  page: WalkedPage<PagedRecord> & Encoded,
  tally: Tally,
  writes: Promise<void>[],
): Promise<void> {
  const at = deps.now().toISOString()
  // The answer's callback keeps the page number only: the page is garbage once posted.
  const pageNumber = page.pageNumber
  // Records parsed off this thread come encoded, already cut to size: passed along unread.
  const chunks = page.encoded
    ? page.encoded.map((encoded) => ({ encoded }))
    : chunk(page.items, deps.maxRowsPerTransaction).map((items) => ({ items }))
  for (const [n, rows] of chunks.entries()) {
    const last = n === chunks.length - 1
    const stepStart = performance.now()
    const pending = deps.store
      .call('writePage', {
        resource: plan.resource,
        ...rows,
        pass: plan.pass,
        at,
        sync: plan.sync,
        // Refused items are kept with the page's last chunk (rejected.ts).
        ...(last && page.rejects.length > 0
          ? { rejects: { page: page.pageNumber, items: page.rejects } }
          : {}),
        ...(plan.mode === 'full' && last
          ? {
              state: {
                checkpoint: {
                  nextPage: page.pageNumber + 1,
                  pageSize: page.pageSize,
                  total: page.total,
                  fetched: page.seen,
                },
                rejected: tally.rejected,
              },
            }
          : {}),
      })
      .then(() => {
        if (!last) return
        deps.afterPage?.(plan.resource, pageNumber)
        deps.events.emit('data.changed', { resource: plan.resource })
      })
    pending.catch(() => undefined)
    writes.push(pending)
    tally.maxStepMs = Math.max(tally.maxStepMs, performance.now() - stepStart)
    while (writes.length > deps.maxPendingWrites) await writes.shift()
  }
}

/**
 * Progress as the renderer shows it: never more fetched than the total,
 * and `totalChanged` when the service's total moved during the run.
 */
export function progressOf(
  resource: SyncResourceName,
  mode: PassKind,
  phase: SyncProgress['phase'],
  tally: Tally,
  error?: AppError,
): SyncProgress {
  const seconds = (performance.now() - tally.started) / 1000
  const rate = seconds > 0 && phase === 'running' ? tally.fetchedNow / seconds : 0
  const fetched = tally.total === null ? tally.seen : Math.min(tally.seen, tally.total)
  return {
    resource,
    mode,
    phase,
    fetched,
    total: tally.total,
    pages: tally.pages,
    rate: Math.round(rate),
    etaSeconds:
      tally.total !== null && rate > 0
        ? Math.max(0, Math.round((tally.total - fetched) / rate))
        : null,
    rejected: tally.rejected,
    ...(tally.totalChanged ? { totalChanged: true } : {}),
    ...(error ? { error: error.toData() } : {}),
  }
}

/** First day of the incremental window, `YYYY-MM-DD` (one extra day covers time-zone skew). */
function windowStart(deps: PassDeps): string {
  const start = new Date(deps.now().getTime() - (deps.windowDays + 1) * 86_400_000)
  return start.toISOString().slice(0, 10)
}

/**
 * What a finished walk teaches about the list's page size: the cap the
 * service applied to the first page; null (forget any) when a walk from
 * page 1 asked for the configured size and got it; undefined (keep what is
 * stored) otherwise.
 */
function learnedPageSize(
  plan: PagePlan,
  used: number | undefined,
  configured: number,
): number | null | undefined {
  if (plan.startPage !== 1 || used === undefined) return undefined
  if (used < plan.pageSize) return used
  return plan.pageSize === configured ? null : undefined
}

function chunk<T>(items: readonly T[], size: number): (readonly T[])[] {
  if (items.length <= size) return [items]
  const out: (readonly T[])[] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

function withoutEmpty(filter: SliceFilter): SliceFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== ''),
  ) as SliceFilter
}

/** What a paged run counts as it goes (progress, outcome and the checkpoint read it). */
export interface Tally {
  seen: number
  fetchedNow: number
  rejected: number
  total: number | null
  totalChanged: boolean
  pages: number
  maxStepMs: number
  readonly started: number
}

export function newTally(total: number | null, seen = 0, rejected = 0): Tally {
  return {
    seen,
    fetchedNow: 0,
    rejected,
    total,
    totalChanged: false,
    pages: 0,
    maxStepMs: 0,
    started: performance.now(),
  }
}

// The pass's source: where its pages come from (the partner client in the app).

/** One list request of the sync engine: the API's paging and sort, and the service's own filters. */
type PageQuery = PartnerFilter & {
  readonly page: number
  readonly pageSize: number
  readonly sort: 'latest' | 'oldest'
}

/** How the engine wants a page handed over. */
interface PageHints {
  /** Records per transaction: a source that encodes cuts its chunks at this size. */
  readonly rowsPerChunk: number
  /** Call once the service's answer has arrived, before parsing it (see `PageFetcher`). */
  readonly answered?: () => void
}

/**
 * What the sync engine reads from: the partner client in the app (with its
 * retry policy, timeouts and cancellation), a small fake in a few unit tests.
 */
export interface SyncSource {
  guarantees(
    query: PageQuery,
    signal: AbortSignal,
    hints?: PageHints,
  ): Promise<SourcePage<GuaranteeRecord>>
  inspections(
    query: PageQuery,
    signal: AbortSignal,
    hints?: PageHints,
  ): Promise<SourcePage<InspectionRecord>>
  brands(signal: AbortSignal): Promise<{ items: readonly BrandRecord[]; rejected: number }>
  /** Requests the service takes at once, adapted to its answers; absent for a fixed count. */
  readonly inFlight?: { readonly limit: number }
}

/** Records per transaction when the engine gives no hint (its own default). */
const ROWS_PER_CHUNK = 1000

/**
 * The partner client as the sync engine's source (its retries, timeouts and
 * cancel apply). List answers are fetched here and parsed by `parsing`: in
 * the app the page thread, so their records never reach the main thread's
 * heap; they come back encoded for the owner.
 */
export function clientSyncSource(
  client: PartnerClient,
  parsing: PageParsing = parseHere,
): SyncSource {
  const page = async (
    resource: PagedResource,
    query: PageQuery,
    signal: AbortSignal,
    hints: PageHints | undefined,
  ): Promise<SourcePage<never>> => {
    const list = resource === 'guarantees' ? 'guarantee' : 'inspection'
    // The page thread starts while the service answers, not after.
    parsing.warm?.()
    const body = await client.listBody(list, paramsOf(resource, query), signal)
    // Answered: parsing below is the page thread's work, not a request in flight.
    hints?.answered?.()
    signal.throwIfAborted()
    const parsed = await parsing.parse({
      resource,
      body,
      page: query.page,
      rowsPerChunk: hints?.rowsPerChunk ?? ROWS_PER_CHUNK,
    })
    return { ...parsed, items: [] }
  }
  return {
    inFlight: client.inFlight,
    guarantees: (query, signal, hints) => page('guarantees', query, signal, hints),
    inspections: (query, signal, hints) => page('inspections', query, signal, hints),
    async brands(signal) {
      const { items, rejected } = await client.listBrands(signal)
      return { items: items.map((brand) => ({ ...brand, raw: {} })), rejected }
    },
  }
}

/** The service's parameters of a page query: the filters of `resource`'s list only. */
function paramsOf(resource: PagedResource, query: PageQuery): GuaranteeQuery | InspectionQuery {
  const { status, nftStatus, ...shared } = query
  if (resource === 'guarantees') return nftStatus ? { ...shared, nftStatus } : shared
  return status ? { ...shared, status } : shared
}

// The pass's walker: the pages of one list, a few in flight, yielded in order.

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
 * @internal
 */
export type PageFetcher<T, X extends object = object> = (
  page: number,
  pageSize: number,
  signal?: AbortSignal,
  answered?: () => void,
) => Promise<ListPage<T> & X & { readonly fingerprint: string }>

/** One page as the walker yields it. */
interface WalkedPage<T> extends ListPage<T> {
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
interface WalkSummary {
  readonly end: WalkEnd
  readonly pages: number
  readonly seen: number
  /** `total` of the last page. */
  readonly total: number
  readonly totalChanged: boolean
  /** The page size used after discovery (the service's cap when it was lower than asked). */
  readonly pageSize: number
}

/**
 * Options of a walk.
 * @internal
 */
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
 * the caller handles the current one, and still yielded in order. The
 * pass above walks with it; the walker's tests drive it directly.
 * @internal
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
