import type {
  GuaranteeState,
  ResourceSyncStatus,
  SyncProgress,
  SyncResourceName,
  SyncStatus,
} from '../../shared/cache'
import { AppError, isAppError } from '../app-error'
import type { EventBus } from '../events'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from '../store/records'
import type { StoreClient } from '../store/store-owner'
import type { SyncStateRow } from '../store/sync-state'
import type { PageQuery, SourcePage, SyncSource } from './source'

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
  /** Page size asked for first; the service's cap is learned from its answer (default 500). */
  readonly pageSize?: number
  /** Requests in flight at once (default 3). */
  readonly concurrency?: number
  /** Days an incremental sync re-reads to catch status changes (default 30). */
  readonly windowDays?: number
  /** Pages a targeted sync reads at most (default 5). */
  readonly targetedPages?: number
  /** Rows written per transaction; a larger page is split (default 1000). */
  readonly maxRowsPerTransaction?: number
  /** Pages fetched but not yet committed, at most (default 3). */
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
  readonly #o: Required<Omit<SyncEngineOptions, 'afterPage'>> & Pick<SyncEngineOptions, 'afterPage'>
  readonly #running = new Map<
    SyncResourceName,
    { mode: 'full' | 'incremental'; controller: AbortController }
  >()
  readonly #slices = new Set<string>()
  readonly #targeted = new Map<
    PagedResource,
    { controller: AbortController; done: Promise<unknown> }
  >()
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
      concurrency: 3,
      windowDays: 30,
      targetedPages: 5,
      maxRowsPerTransaction: 1000,
      maxPendingWrites: 3,
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
    const slice = resource === 'brands' ? undefined : this.#targeted.get(resource)
    if (slice) {
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
    while (this.#job || this.#targeted.size > 0) {
      await this.#job
      await Promise.all([...this.#targeted.values()].map((slice) => slice.done))
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
    for (const { controller } of [...this.#running.values(), ...this.#targeted.values()]) {
      controller.abort(cancelled)
    }
  }

  /** Status of every resource. A pass left `syncing` by a crash shows as resumable. */
  async status(): Promise<SyncStatus> {
    const { states, counts } = await this.#o.store.call('syncSnapshot')
    const resources: ResourceSyncStatus[] = (['brands', ...PAGED] as const).map((resource) => {
      const state = states[resource]
      const running = this.#running.get(resource)
      const stored = state.status === 'syncing' ? 'idle' : state.status
      return {
        resource,
        status: running || this.#targeted.has(resource as PagedResource) ? 'syncing' : stored,
        queued: this.#queue.some((entry) => entry.resource === resource),
        mode: running ? running.mode : state.mode,
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
    if (this.#slices.has(key) || this.#running.has(resource) || this.#targeted.has(resource)) return
    this.#slices.add(key)
    void this.#syncPaged(resource, 'targeted', state, filter).then((outcome) => {
      if (outcome.phase !== 'done') this.#slices.delete(key)
    })
  }

  async #syncBrands(): Promise<RunOutcome> {
    const controller = new AbortController()
    this.#running.set('brands', { mode: 'full', controller })
    const base = {
      resource: 'brands' as const,
      mode: 'full' as const,
      pages: 1,
      rate: 0,
      etaSeconds: null,
    }
    try {
      const { items, rejected } = await this.#o.source.brands(controller.signal)
      const at = this.#o.now().toISOString()
      await this.#o.store.call('writeBrands', { items, rejected, at })
      this.#failedAt.delete('brands')
      this.#emit({ ...base, phase: 'done', fetched: items.length, total: items.length, rejected })
      this.#o.events.emit('data.changed', { resource: 'brands' })
      return { resource: 'brands', phase: 'done', complete: true, fetched: items.length, rejected }
    } catch (error) {
      const reason: unknown = controller.signal.reason
      return await this.#fail(
        'brands',
        'full',
        isAppError(reason, 'cancelled') ? reason : error,
        0,
        0,
        null,
      )
    } finally {
      this.#running.delete('brands')
    }
  }

  async #syncPaged(
    resource: PagedResource,
    mode: SyncMode,
    state: SyncStateRow,
    filter: SliceFilter = {},
  ): Promise<RunOutcome> {
    const controller = new AbortController()
    let finished: () => void = () => undefined
    if (mode === 'targeted') {
      this.#targeted.set(resource, {
        controller,
        done: new Promise<void>((resolve) => (finished = resolve)),
      })
    } else {
      this.#running.set(resource, { mode, controller })
    }
    const resume = mode === 'full' && state.checkpoint !== null && state.mode === 'full'
    const pass = mode === 'full' ? (resume ? state.pass : state.pass + 1) : state.pass
    let pageSize = resume && state.checkpoint ? state.checkpoint.pageSize : this.#o.pageSize
    const startPage = resume && state.checkpoint ? state.checkpoint.nextPage : 1
    let seen = resume && state.checkpoint ? state.checkpoint.fetched : 0
    let rejected = resume ? state.rejected : 0
    let total: number | null = resume && state.checkpoint ? state.checkpoint.total : null
    let fetchedNow = 0
    let pages = 0
    let maxStepMs = 0
    const writes: Promise<void>[] = []
    this.#o.store.resetWrites()
    const started = performance.now()
    const startedAt = this.#o.now().toISOString()

    const query = (page: number): PageQuery => ({
      page,
      pageSize,
      sort: 'latest',
      ...(mode === 'incremental' ? { from: this.#windowStart() } : {}),
      ...(mode === 'targeted' ? withoutEmpty(filter) : {}),
    })
    const fetchPage = (page: number): Promise<SourcePage<GuaranteeRecord | InspectionRecord>> =>
      resource === 'guarantees'
        ? this.#o.source.guarantees(query(page), controller.signal)
        : this.#o.source.inspections(query(page), controller.signal)
    const progress = (phase: SyncProgress['phase'], error?: AppError): void => {
      const seconds = (performance.now() - started) / 1000
      const rate = seconds > 0 ? fetchedNow / seconds : 0
      this.#emit({
        resource,
        mode,
        phase,
        fetched: seen,
        total,
        pages,
        rate: Math.round(rate),
        etaSeconds:
          total !== null && rate > 0 && phase === 'running'
            ? Math.max(0, Math.round((total - seen) / rate))
            : null,
        rejected,
        ...(error ? { error: error.toData() } : {}),
      })
    }

    try {
      await this.#o.store.call('writeSyncState', {
        resource,
        patch: {
          status: 'syncing',
          mode: mode === 'targeted' ? state.mode : mode,
          pass,
          ...(mode === 'full'
            ? {
                startedAt: resume ? state.startedAt : startedAt,
                checkpoint: { nextPage: startPage, pageSize, total, fetched: seen },
              }
            : {}),
        },
      })
      progress('running')

      const fingerprints = new Set<string>()
      const inflight = new Map<number, Promise<SourcePage<GuaranteeRecord | InspectionRecord>>>()
      let firstTotal: number | null = null
      let totalChanged = false
      let complete = false
      const maxPage = (): number =>
        mode === 'targeted'
          ? startPage + this.#o.targetedPages - 1
          : total === null
            ? startPage
            : Math.ceil(total / pageSize) + 2
      const request = (page: number): void => {
        if (inflight.has(page)) return
        const pending = fetchPage(page)
        pending.catch(() => undefined)
        inflight.set(page, pending)
      }

      for (let page = startPage; ; page += 1) {
        if (page > maxPage()) break
        request(page)
        // Bounded look-ahead: a few pages in flight, committed strictly in order.
        if (total !== null) {
          const lastUseful = Math.min(maxPage(), Math.ceil(total / pageSize))
          for (
            let ahead = page + 1;
            ahead <= lastUseful && inflight.size < this.#o.concurrency;
            ahead += 1
          ) {
            request(ahead)
          }
        }
        const result = await inflight.get(page)!
        inflight.delete(page)
        pages += 1
        firstTotal ??= result.total
        if (result.total !== firstTotal) totalChanged = true
        total = result.total
        if (result.received === 0) break
        const fingerprint = result.items.map((item) => item.idx).join(',')
        if (fingerprints.has(fingerprint)) {
          throw new AppError(
            'pagination_stuck',
            `The service returned the same records again for page ${page}; sync stopped instead of looping.`,
          )
        }
        fingerprints.add(fingerprint)
        if (page === 1 && result.received < pageSize && result.received < result.total) {
          // The service capped the page size: later page numbers count in its size.
          pageSize = result.received
          for (const [ahead, pending] of inflight) {
            inflight.delete(ahead)
            void pending
          }
        }
        seen += result.received
        fetchedNow += result.received
        rejected += result.rejected
        const at = this.#o.now().toISOString()
        // A normal page is one transaction. An oversized one (FAULTS 12) is
        // written in chunks, yielding in between so the app stays responsive;
        // the checkpoint moves only with the last chunk, so a crash re-reads
        // the page, and the upserts make that harmless.
        const chunks = chunk(result.items, this.#o.maxRowsPerTransaction)
        for (const [n, rows] of chunks.entries()) {
          if (n > 0) await new Promise((resolve) => setImmediate(resolve))
          const last = n === chunks.length - 1
          const stepStart = performance.now()
          const pending = this.#o.store
            .call('writePage', {
              resource,
              items: rows,
              pass,
              at,
              // Refused items are kept with the page's last chunk (rejected.ts).
              ...(last && result.rejects?.length
                ? { rejects: { page, items: result.rejects } }
                : {}),
              ...(mode === 'full' && last
                ? {
                    state: {
                      checkpoint: { nextPage: page + 1, pageSize, total, fetched: seen },
                      rejected,
                    },
                  }
                : {}),
            })
            .then(() => {
              if (!last) return
              this.#o.afterPage?.(resource, page)
              this.#o.events.emit('data.changed', { resource })
            })
          pending.catch(() => undefined)
          writes.push(pending)
          maxStepMs = Math.max(maxStepMs, performance.now() - stepStart)
          // Bounded: a few pages may wait for the writer, never the whole list.
          while (writes.length > this.#o.maxPendingWrites) await writes.shift()
        }
        progress('running')
        if (total !== null && seen >= total) {
          complete = true
          break
        }
      }
      controller.abort()
      for (const pending of writes.splice(0)) await pending

      const at = this.#o.now().toISOString()
      const consistent = complete && !totalChanged
      // Through the writer too: marking unseen records scans the whole list.
      await this.#o.store.call('writePage', {
        resource,
        items: [],
        pass,
        at,
        markGone: mode === 'full' && consistent,
        state: {
          status: 'idle',
          lastError: null,
          ...(mode === 'targeted' ? {} : { lastSuccessAt: at }),
          ...(mode === 'full' ? { checkpoint: null, rejected } : {}),
          ...(mode === 'full' && consistent ? { lastFullAt: at } : {}),
        },
      })
      if (mode !== 'targeted') this.#failedAt.delete(resource)
      this.#o.events.emit('data.changed', { resource })
      progress('done')
      return {
        resource,
        phase: 'done',
        complete: consistent,
        fetched: fetchedNow,
        rejected,
        maxStepMs,
      }
    } catch (error) {
      const reason: unknown = controller.signal.reason
      controller.abort()
      await Promise.allSettled(writes)
      const cause = isAppError(reason, 'cancelled') ? reason : error
      return await this.#fail(resource, mode, cause, fetchedNow, rejected, {
        total,
        pages,
        seen,
        started,
      })
    } finally {
      if (mode === 'targeted') {
        this.#targeted.delete(resource)
        finished()
      } else {
        this.#running.delete(resource)
      }
    }
  }

  async #fail(
    resource: SyncResourceName,
    mode: SyncMode,
    error: unknown,
    fetched: number,
    rejected: number,
    counts: { total: number | null; pages: number; seen: number; started: number } | null,
  ): Promise<RunOutcome> {
    const typed = isAppError(error)
      ? error
      : new AppError('internal', 'Sync failed unexpectedly.', { cause: error })
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
    this.#emit({
      resource,
      mode,
      phase: cancelled ? 'cancelled' : 'error',
      fetched: counts?.seen ?? fetched,
      total: counts?.total ?? null,
      pages: counts?.pages ?? 0,
      rate: 0,
      etaSeconds: null,
      rejected,
      ...(cancelled ? {} : { error: typed.toData() }),
    })
    return {
      resource,
      phase: cancelled ? 'cancelled' : 'error',
      complete: false,
      fetched,
      rejected,
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
