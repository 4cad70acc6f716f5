import type {
  GuaranteeState,
  ResourceSyncStatus,
  SyncProgress,
  SyncResourceName,
  SyncStatus,
} from '../../shared/cache'
import { AppError, isAppError } from '../app-error'
import type { EventBus } from '../events'
import type { ListPage } from '../../shared/domain'
import { PageWalker, type WalkedPage } from '../api/page-walker'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from '../store/record-types'
import type { StoreClient } from '../store/owner/store-owner'
import type { SyncStateRow } from '../store/sync-state'
import {
  idxFingerprint,
  type PageHints,
  type PageQuery,
  type SourcePage,
  type SyncSource,
} from './sync-source'

/** How a run fetches. */
export type SyncMode = 'full' | 'incremental' | 'targeted'

/** A slice of a list fetched with the service's own filters (before the full sync has finished). */
export interface SliceFilter {
  readonly refUserId?: string
  readonly status?: string
  readonly nftStatus?: GuaranteeState
  readonly from?: string
  readonly to?: string
}

/** Options of {@link SyncEngine}. */
export interface SyncEngineOptions {
  /** The active profile's database owner (every read and write runs on its thread). */
  readonly store: StoreClient
  readonly source: SyncSource
  readonly events: EventBus
  readonly now?: () => Date
  /**
   * Page size a full pass asks for first (default 500); the service's cap is
   * learned from its answer and remembered per list, and the other passes
   * ask for the remembered size at once.
   */
  readonly pageSize?: number
  /**
   * Requests in flight at once, fixed. By default the source's adaptive
   * limit (`source.inFlight`, 1 to 8), else 3.
   */
  readonly concurrency?: number
  /** Days an incremental sync re-reads to catch status changes (default 30). */
  readonly windowDays?: number
  /** Pages a targeted sync reads at most (default 5). */
  readonly targetedPages?: number
  /** Rows written per transaction; a larger page is split (default 1000). */
  readonly maxRowsPerTransaction?: number
  /**
   * Pages fetched but not yet committed, at most (default 8). While the
   * owner is busy, the pages queued behind it commit together in one
   * transaction: fewer, larger commits, each a cheaper FTS segment per
   * record. The queued pages are encoded bytes on the owner's side (about
   * 100 KB for 100 guarantees), not records on the main thread's heap. (At 3, in paired
   * runs of the bench's 100k sync: 4.55–4.95 × the bare loop against
   * 4.02–4.22 at 8.)
   */
  readonly maxPendingWrites?: number
  /** Runs after each page is committed (the app asks for a background checkpoint; tests kill). */
  readonly afterPage?: (resource: PagedResource, page: number) => void
}

/** How one resource's run ended. */
export interface RunOutcome {
  readonly resource: SyncResourceName
  readonly phase: 'done' | 'cancelled' | 'error'
  /** False when the pass stopped early or `total` moved under it: nothing was marked gone. */
  readonly complete: boolean
  readonly fetched: number
  readonly rejected: number
  /** Longest single page write (parse excluded), in ms: how long one step blocked the thread. */
  readonly maxStepMs?: number
  readonly error?: AppError
}

const PAGED: readonly PagedResource[] = ['inspections', 'guarantees']
const ALL_RESOURCES: readonly SyncResourceName[] = ['brands', ...PAGED]

/** What a caller asks a run to do; `auto` picks full or incremental from the stored state. */
export type RunMode = 'auto' | 'full' | 'incremental'

/** A run going now. */
interface ActiveRun {
  readonly mode: SyncMode
  readonly controller: AbortController
  /** Settles when the run has ended (its writes answered). */
  readonly done: Promise<void>
}

type PagedRecord = GuaranteeRecord | InspectionRecord

/** A page's records when its source parsed them off this thread (`SourcePage.encoded`). */
type Encoded = Pick<SourcePage<never>, 'encoded'>

/** Where a paged run starts and what it asks the service for. */
interface PagePlan {
  readonly resource: PagedResource
  readonly mode: SyncMode
  /** The full pass the records are marked with (a resumed pass keeps its number). */
  readonly pass: number
  readonly startPage: number
  readonly pageSize: number
  /** Entries stored before `startPage` by the interrupted pass. */
  readonly seen: number
  readonly rejected: number
  readonly total: number | null
  readonly startedAt: string | null
  /** The mode stored in sync_state while it runs (a slice keeps the list's own). */
  readonly storedMode: 'full' | 'incremental' | null
  readonly query: Omit<PageQuery, 'page' | 'pageSize'>
}

/** A run waiting in (or taken from) the queue, with the outcome its callers await. */
interface QueuedRun {
  readonly resource: SyncResourceName
  readonly mode: RunMode
  readonly outcome: Promise<RunOutcome>
  readonly settle: (outcome: RunOutcome) => void
}

/**
 * The sync engine: API pages into the store. Each page is upserted in one
 * transaction together with the checkpoint, so a crash or kill resumes
 * where it stopped and a failure leaves what was stored intact. A full pass
 * that completes consistently marks records the service no longer returned
 * as gone (never deletes them). Progress goes out as `sync.progress` events.
 */
export class SyncEngine {
  readonly #o: Required<Omit<SyncEngineOptions, 'afterPage' | 'concurrency'>> &
    Pick<SyncEngineOptions, 'afterPage' | 'concurrency'>
  /** Every run going now, queued or a slice: what `status`, `cancel` and `idle` consult. */
  readonly #active = new Map<SyncResourceName, ActiveRun>()
  readonly #slices = new Set<string>()
  #job: Promise<void> | null = null
  /** The queued resource being run now. */
  #current: QueuedRun | null = null
  /** When each resource's last attempt failed, this session (ISO); cleared by a success. */
  readonly #failedAt = new Map<SyncResourceName, string>()
  /** Resources waiting for the running job, in order, each with its mode. */
  #queue: QueuedRun[] = []

  constructor(options: SyncEngineOptions) {
    this.#o = {
      now: () => new Date(),
      pageSize: 500,
      windowDays: 30,
      targetedPages: 5,
      maxRowsPerTransaction: 1000,
      maxPendingWrites: 8,
      ...options,
    }
  }

  /**
   * Starts syncing in the background and answers the status. `auto`
   * resumes an interrupted full pass, runs a full pass when none has
   * finished yet, and an incremental one otherwise.
   */
  start(
    resources: readonly SyncResourceName[] = ALL_RESOURCES,
    mode: RunMode = 'auto',
  ): Promise<SyncStatus> {
    this.enqueue(resources, mode)
    return this.status()
  }

  /** Queues the resources like {@link start}, without answering the status. */
  enqueue(resources: readonly SyncResourceName[] = ALL_RESOURCES, mode: RunMode = 'auto'): void {
    for (const resource of resources) void this.#enqueue(resource, mode)
  }

  /**
   * Queues the resources like {@link start} and resolves with how each run
   * ended. A resource already queued or running is not run twice: its
   * caller shares that run's outcome.
   */
  run(resources: readonly SyncResourceName[], mode: RunMode = 'auto'): Promise<RunOutcome[]> {
    return Promise.all(resources.map((resource) => this.#enqueue(resource, mode)))
  }

  /** The one place runs start: a queue worked through one resource at a time. */
  #enqueue(resource: SyncResourceName, mode: RunMode): Promise<RunOutcome> {
    // A resource asked for while another runs is queued behind it, never dropped.
    const known =
      this.#current?.resource === resource
        ? this.#current
        : this.#queue.find((entry) => entry.resource === resource)
    if (known) return known.outcome
    let settle: (outcome: RunOutcome) => void = () => undefined
    const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve))
    this.#queue.push({ resource, mode, outcome, settle })
    if (!this.#job) {
      this.#job = this.#drain().finally(() => {
        this.#job = null
      })
    }
    return outcome
  }

  /** Runs queued resources one after another until the queue is empty. */
  async #drain(): Promise<void> {
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      this.#current = next
      try {
        next.settle(await this.#runOne(next.resource, next.mode))
      } catch (error) {
        next.settle(this.#unexpected(next.resource, error))
      } finally {
        this.#current = null
      }
    }
  }

  async #runOne(resource: SyncResourceName, mode: RunMode): Promise<RunOutcome> {
    // A slice fetched for a filter gives way to the real sync of its list.
    const slice = this.#active.get(resource)
    if (slice?.mode === 'targeted') {
      slice.controller.abort(new AppError('cancelled', 'Superseded by a full sync.'))
      await slice.done
    }
    if (resource === 'brands') return this.#syncBrands()
    const state = await this.#o.store.call('readSyncState', resource)
    const chosen =
      mode !== 'auto' ? mode : state.checkpoint || !state.lastFullAt ? 'full' : 'incremental'
    return this.#syncPaged(resource, chosen, state)
  }

  /** A run that failed outside its own error handling (the store went away): reported, never thrown. */
  #unexpected(resource: SyncResourceName, error: unknown): RunOutcome {
    const typed = isAppError(error)
      ? error
      : new AppError('internal', 'Sync failed unexpectedly.', { cause: error })
    return { resource, phase: 'error', complete: false, fetched: 0, rejected: 0, error: typed }
  }

  /** Resolves when the queue is empty and no run is going (tests and shutdown await it). */
  async idle(): Promise<void> {
    while (this.#job || this.#active.size > 0) {
      await this.#job
      await Promise.all([...this.#active.values()].map((run) => run.done))
    }
  }

  /** Cancels running syncs; stored pages stay and a full pass resumes from its checkpoint. */
  cancel(): Promise<SyncStatus> {
    this.stop()
    return this.status()
  }

  /** Cancels like {@link cancel} without answering the status (shutdown). */
  stop(): void {
    const cancelled = new AppError('cancelled', 'Sync cancelled.')
    for (const entry of this.#queue.splice(0)) {
      entry.settle({
        resource: entry.resource,
        phase: 'cancelled',
        complete: false,
        fetched: 0,
        rejected: 0,
        error: cancelled,
      })
    }
    for (const { controller } of this.#active.values()) controller.abort(cancelled)
  }

  /** Status of every resource. A pass left `syncing` by a crash shows as resumable. */
  async status(): Promise<SyncStatus> {
    const { states, counts } = await this.#o.store.call('syncSnapshot')
    const resources: ResourceSyncStatus[] = (['brands', ...PAGED] as const).map((resource) => {
      const state = states[resource]
      const active = this.#active.get(resource)
      const running = active && active.mode !== 'targeted' ? active.mode : null
      const stored = state.status === 'syncing' ? 'idle' : state.status
      return {
        resource,
        status: active || this.#current?.resource === resource ? 'syncing' : stored,
        queued: this.#queue.some((entry) => entry.resource === resource),
        mode: running ?? state.mode,
        lastSyncAt: state.lastSuccessAt,
        lastAttemptAt: this.#failedAt.get(resource) ?? state.lastSuccessAt,
        lastFullSyncAt: state.lastFullAt,
        resumable: state.checkpoint !== null,
        rejected: state.rejected,
        ...(state.lastError && !running ? { error: state.lastError } : {}),
        recordCount: counts[resource],
      }
    })
    return { resources }
  }

  /**
   * Before the first full pass has finished, a filtered view fetches its
   * slice with the service's own filters first (once per filter and
   * session). Runs in the background; views reload on `data.changed`.
   */
  ensureSlice(resource: PagedResource, filter: SliceFilter): void {
    void this.#ensureSlice(resource, filter).catch(() => undefined)
  }

  async #ensureSlice(resource: PagedResource, filter: SliceFilter): Promise<void> {
    if (!Object.values(filter).some((value) => value !== undefined && value !== '')) return
    const state = await this.#o.store.call('readSyncState', resource)
    if (state.lastFullAt) return
    const key = `${resource}:${JSON.stringify(filter)}`
    const busy =
      this.#active.has(resource) ||
      this.#current?.resource === resource ||
      this.#queue.some((entry) => entry.resource === resource)
    if (this.#slices.has(key) || busy) return
    this.#slices.add(key)
    void this.#syncPaged(resource, 'targeted', state, filter).then((outcome) => {
      if (outcome.phase !== 'done') this.#slices.delete(key)
    })
  }

  async #syncBrands(): Promise<RunOutcome> {
    const run = this.#begin('brands', 'full')
    const tally = newTally(null)
    try {
      const { items, rejected } = await this.#o.source.brands(run.controller.signal)
      const at = this.#o.now().toISOString()
      await this.#o.store.call('writeBrands', { items, rejected, at })
      this.#failedAt.delete('brands')
      Object.assign(tally, {
        seen: items.length,
        fetchedNow: items.length,
        total: items.length,
        pages: 1,
        rejected,
      })
      this.#report('brands', 'full', 'done', tally)
      this.#o.events.emit('data.changed', { resource: 'brands' })
      return { resource: 'brands', phase: 'done', complete: true, fetched: items.length, rejected }
    } catch (error) {
      return await this.#fail('brands', 'full', run.controller, error, tally)
    } finally {
      run.end()
    }
  }

  /** Registers a run as active (the one map `status`, `cancel` and slices consult). */
  #begin(resource: SyncResourceName, mode: SyncMode): { controller: AbortController; end(): void } {
    const controller = new AbortController()
    let end: () => void = () => undefined
    const done = new Promise<void>((resolve) => (end = resolve))
    this.#active.set(resource, { mode, controller, done })
    return {
      controller,
      end: () => {
        this.#active.delete(resource)
        end()
      },
    }
  }

  /** Where a paged run starts, from the stored state: a resumed full pass continues at its checkpoint. */
  #plan(
    resource: PagedResource,
    mode: SyncMode,
    state: SyncStateRow,
    filter: SliceFilter,
  ): PagePlan {
    const checkpoint = mode === 'full' && state.mode === 'full' ? state.checkpoint : null
    // A new full pass asks for the configured size again, so a service that raised its cap is
    // noticed; the other passes ask at once for what the service took last time.
    const pageSize =
      checkpoint?.pageSize ??
      (mode === 'full' ? this.#o.pageSize : (state.pageSize ?? this.#o.pageSize))
    return {
      resource,
      mode,
      pass: mode === 'full' && !checkpoint ? state.pass + 1 : state.pass,
      startPage: checkpoint?.nextPage ?? 1,
      pageSize,
      seen: checkpoint?.fetched ?? 0,
      rejected: checkpoint ? state.rejected : 0,
      total: checkpoint?.total ?? null,
      startedAt: checkpoint ? state.startedAt : this.#o.now().toISOString(),
      storedMode: mode === 'targeted' ? state.mode : mode,
      query: {
        sort: 'latest',
        ...(mode === 'incremental' ? { from: this.#windowStart() } : {}),
        ...(mode === 'targeted' ? withoutEmpty(filter) : {}),
      },
    }
  }

  /**
   * One paged run: the plan's pages come from the page walker (a few in
   * flight, yielded in order); each is committed in one transaction with
   * its checkpoint by the database owner, a few commits pipelined behind
   * the fetches. A complete, consistent full pass then marks what the
   * service no longer returned as gone.
   */
  async #syncPaged(
    resource: PagedResource,
    mode: SyncMode,
    state: SyncStateRow,
    filter: SliceFilter = {},
  ): Promise<RunOutcome> {
    const run = this.#begin(resource, mode)
    const plan = this.#plan(resource, mode, state, filter)
    const tally = newTally(plan.total, plan.seen, plan.rejected)
    const writes: Promise<void>[] = []
    this.#o.store.resetWrites()
    try {
      await this.#o.store.call('writeSyncState', {
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
      this.#report(resource, mode, 'running', tally)
      const walker = new PageWalker<PagedRecord, Encoded>(
        (page, pageSize, signal, answered) =>
          this.#fetchPage(plan, page, pageSize, signal, answered),
        {
          pageSize: plan.pageSize,
          startPage: plan.startPage,
          seen: plan.seen,
          signal: run.controller.signal,
          concurrency: this.#o.concurrency ?? this.#o.source.inFlight ?? 3,
          ...(mode === 'targeted' ? { maxPages: this.#o.targetedPages } : {}),
        },
      )
      for await (const page of walker) {
        tally.pages += 1
        tally.seen = page.seen
        tally.fetchedNow += page.received
        tally.rejected += page.rejected
        tally.total = page.total
        tally.totalChanged = page.totalChanged
        await this.#commit(plan, page, tally, writes)
        this.#report(resource, mode, 'running', tally)
        // Pages that arrived together are handled one per turn of the event loop,
        // so the window's requests are answered between them, not after all of them.
        await new Promise<void>((resolve) => setImmediate(resolve))
      }
      for (const pending of writes.splice(0)) await pending

      const at = this.#o.now().toISOString()
      const consistent = walker.summary?.end === 'complete' && !tally.totalChanged
      const learned = learnedPageSize(plan, walker.summary?.pageSize, this.#o.pageSize)
      // Through the owner like every write: marking unseen records scans the whole list.
      await this.#o.store.call('writePage', {
        resource,
        items: [],
        pass: plan.pass,
        at,
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
      if (mode !== 'targeted') this.#failedAt.delete(resource)
      this.#o.events.emit('data.changed', { resource })
      this.#report(resource, mode, 'done', tally)
      return {
        resource,
        phase: 'done',
        complete: consistent,
        fetched: tally.fetchedNow,
        rejected: tally.rejected,
        maxStepMs: tally.maxStepMs,
      }
    } catch (error) {
      await Promise.allSettled(writes)
      return await this.#fail(resource, mode, run.controller, error, tally)
    } finally {
      run.end()
    }
  }

  /** Fetches one page of the plan for the walker, with the fingerprint that spots a repeated page. */
  async #fetchPage(
    plan: PagePlan,
    page: number,
    pageSize: number,
    signal: AbortSignal | undefined,
    answered: (() => void) | undefined,
  ): Promise<ListPage<PagedRecord> & Encoded & { readonly fingerprint: string }> {
    const query: PageQuery = { ...plan.query, page, pageSize }
    const aborted = signal ?? new AbortController().signal
    const hints: PageHints = {
      rowsPerChunk: this.#o.maxRowsPerTransaction,
      ...(answered === undefined ? {} : { answered }),
    }
    const result: SourcePage<PagedRecord> =
      plan.resource === 'guarantees'
        ? await this.#o.source.guarantees(query, aborted, hints)
        : await this.#o.source.inspections(query, aborted, hints)
    return {
      ...result,
      rejects: result.rejects ?? [],
      fingerprint: result.fingerprint ?? idxFingerprint(result.items),
    }
  }

  /**
   * Commits one page through the owner: one transaction with its checkpoint.
   * An oversized page (FAULTS 12) goes in chunks so no single transaction
   * holds the owner long; the checkpoint moves only with the last chunk, so
   * a crash re-reads the page, and the upserts make that harmless. A few
   * commits may wait behind the fetches, never the whole list.
   */
  async #commit(
    plan: PagePlan,
    page: WalkedPage<PagedRecord> & Encoded,
    tally: Tally,
    writes: Promise<void>[],
  ): Promise<void> {
    const at = this.#o.now().toISOString()
    // The answer's callback keeps the page number only: the page is garbage once posted.
    const pageNumber = page.pageNumber
    // Records parsed off this thread come encoded, already cut to size: passed along unread.
    const chunks = page.encoded
      ? page.encoded.map((encoded) => ({ encoded }))
      : chunk(page.items, this.#o.maxRowsPerTransaction).map((items) => ({ items }))
    for (const [n, rows] of chunks.entries()) {
      const last = n === chunks.length - 1
      const stepStart = performance.now()
      const pending = this.#o.store
        .call('writePage', {
          resource: plan.resource,
          ...rows,
          pass: plan.pass,
          at,
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
          this.#o.afterPage?.(plan.resource, pageNumber)
          this.#o.events.emit('data.changed', { resource: plan.resource })
        })
      pending.catch(() => undefined)
      writes.push(pending)
      tally.maxStepMs = Math.max(tally.maxStepMs, performance.now() - stepStart)
      while (writes.length > this.#o.maxPendingWrites) await writes.shift()
    }
  }

  /**
   * Progress as the renderer shows it: never more fetched than the total,
   * and `totalChanged` when the service's total moved during the run.
   */
  #report(
    resource: SyncResourceName,
    mode: SyncMode,
    phase: SyncProgress['phase'],
    tally: Tally,
    error?: AppError,
  ): void {
    const seconds = (performance.now() - tally.started) / 1000
    const rate = seconds > 0 && phase === 'running' ? tally.fetchedNow / seconds : 0
    const fetched = tally.total === null ? tally.seen : Math.min(tally.seen, tally.total)
    this.#emit({
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
    })
  }

  async #fail(
    resource: SyncResourceName,
    mode: SyncMode,
    controller: AbortController,
    error: unknown,
    tally: Tally,
  ): Promise<RunOutcome> {
    // A cancel aborts the fetch; the error that comes out of it is the cancel.
    const reason: unknown = controller.signal.reason
    const cause = isAppError(reason, 'cancelled') ? reason : error
    const typed = isAppError(cause)
      ? cause
      : new AppError('internal', 'Sync failed unexpectedly.', { cause })
    const cancelled = typed.code === 'cancelled'
    const offline = typed.code === 'network' || typed.code === 'timeout'
    if (!cancelled) this.#failedAt.set(resource, this.#o.now().toISOString())
    try {
      await this.#o.store.call('writeSyncState', {
        resource,
        patch: {
          status: cancelled ? 'idle' : offline ? 'offline' : 'error',
          ...(cancelled ? {} : { lastError: typed.toData() }),
        },
      })
    } catch {
      // The store itself failed (disk full): the error below already says so.
    }
    this.#report(
      resource,
      mode,
      cancelled ? 'cancelled' : 'error',
      tally,
      cancelled ? undefined : typed,
    )
    return {
      resource,
      phase: cancelled ? 'cancelled' : 'error',
      complete: false,
      fetched: tally.fetchedNow,
      rejected: tally.rejected,
      error: typed,
    }
  }

  #emit(progress: SyncProgress): void {
    this.#o.events.emit('sync.progress', progress)
  }

  /** First day of the incremental window, `YYYY-MM-DD` (one extra day covers time-zone skew). */
  #windowStart(): string {
    const start = new Date(this.#o.now().getTime() - (this.#o.windowDays + 1) * 86_400_000)
    return start.toISOString().slice(0, 10)
  }
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
interface Tally {
  seen: number
  fetchedNow: number
  rejected: number
  total: number | null
  totalChanged: boolean
  pages: number
  maxStepMs: number
  readonly started: number
}

function newTally(total: number | null, seen = 0, rejected = 0): Tally {
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
