import {
  type PassKind,
  type ResourceSyncStatus,
  type RunMode,
  type SyncProgress,
  type SyncStatus,
} from '../../shared/lists'
import { SYNC_RESOURCES, type SyncResourceName } from '../../shared/resources'
import { AppError, isAppError } from '../app-error'
import { DEFAULT_TIME_ZONE } from '../../shared/profiles'
import { seconds } from '../api/http'
import type { EventBus } from '../events'
import type { PagedResource } from '../store/record-types'
import type { StoreClient } from '../owner/store-owner'
import type { SyncStateRow } from '../store/sync-state'
import {
  newTally,
  planPass,
  progressOf,
  runPagedPass,
  type RunOutcome,
  type SliceFilter,
  type SyncSource,
  type Tally,
} from './paged-pass'

/** Options of {@link SyncEngine}. */
export interface SyncEngineOptions {
  /** The active profile's database owner (every read and write runs on its thread). */
  readonly store: StoreClient
  readonly source: SyncSource
  readonly events: EventBus
  readonly now?: () => Date
  /** The service's time zone (the profile's; default `DEFAULT_TIME_ZONE`): its times carry no offset. */
  readonly timeZone?: () => string
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
   * record. The queued pages are encoded bytes on the owner's side, not records on the main thread's heap.
   */
  readonly maxPendingWrites?: number
  /** Runs after each page is committed (the app asks for a background checkpoint; tests kill). */
  readonly afterPage?: (resource: PagedResource, page: number) => void
  /**
   * Overall deadline of one run of any resource, from its start, in ms
   * (default {@link DEFAULT_RUN_DEADLINE_MS}). When it passes the run is
   * aborted and ends with `timeout`, whatever the service does; a full pass
   * resumes from its checkpoint on the next run.
   */
  readonly runDeadlineMs?: number
  /**
   * Starts the deadline's timer: calls `fire` after `ms` unless cancelled.
   * Real `setTimeout` by default; tests fire it themselves.
   */
  readonly deadlineTimer?: DeadlineTimer
}

/**
 * A pass the live schedule asks for (`src/core/live/`): queued like any
 * other, with its own deadline; a background one gives way to a sync staff
 * ask for (it is cancelled, and a full pass resumes from its checkpoint).
 */
export interface ScheduledPass {
  readonly mode: 'full' | 'incremental'
  /** First registration day an incremental pass re-reads, `YYYY-MM-DD` (default: the window). */
  readonly from?: string
  /** Deadline of this run in ms (default the engine's `runDeadlineMs`). */
  readonly deadlineMs?: number
  /** Cancelled when a sync is asked for by staff, or when this signal aborts. */
  readonly background?: boolean
  readonly signal?: AbortSignal
}

/**
 * A one-shot timer: calls `fire` after `ms`; the answer cancels it.
 * @internal
 */
export type DeadlineTimer = (ms: number, fire: () => void) => () => void

/** Default overall deadline of one run: long enough for a full pass of a large list on a slow line. */
const DEFAULT_RUN_DEADLINE_MS = 15 * 60_000

/**
 * After its deadline has aborted a run, how long the queue waits for the run
 * to wind down (its pending writes answered) before it reports the timeout
 * and moves on without it.
 * @internal
 */
export const RUN_WIND_DOWN_MS = 2000

const realTimer: DeadlineTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

/**
 * Pages fetched but not yet committed, at most, unless the options say
 * otherwise: enough pages of 100 records that the owner commits a batch of
 * `WRITE_BATCH_RECORDS` (`owner/worker.ts`) while the next are sent.
 * @internal
 */
export const DEFAULT_MAX_PENDING_WRITES = 12

/** A run going now. */
interface ActiveRun {
  readonly mode: PassKind
  readonly controller: AbortController
  /** Settles when the run has ended (its writes answered). */
  readonly done: Promise<void>
}

/** A run waiting in (or taken from) the queue, with the outcome its callers await. */
interface QueuedRun {
  readonly resource: SyncResourceName
  readonly mode: RunMode
  /** Set for the live schedule's passes. */
  readonly pass?: ScheduledPass
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
  readonly #options: Required<Omit<SyncEngineOptions, 'afterPage' | 'concurrency'>> &
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
    this.#options = {
      now: () => new Date(),
      timeZone: () => DEFAULT_TIME_ZONE,
      pageSize: 500,
      windowDays: 30,
      targetedPages: 5,
      maxRowsPerTransaction: 1000,
      maxPendingWrites: DEFAULT_MAX_PENDING_WRITES,
      runDeadlineMs: DEFAULT_RUN_DEADLINE_MS,
      deadlineTimer: realTimer,
      ...options,
    }
  }

  /**
   * Starts syncing in the background and answers the status. `auto`
   * resumes an interrupted full pass, runs a full pass when none has
   * finished yet, and an incremental one otherwise.
   */
  start(
    resources: readonly SyncResourceName[] = SYNC_RESOURCES,
    mode: RunMode = 'auto',
  ): Promise<SyncStatus> {
    this.enqueue(resources, mode)
    return this.status()
  }

  /** Queues the resources like {@link start}, without answering the status. */
  enqueue(resources: readonly SyncResourceName[] = SYNC_RESOURCES, mode: RunMode = 'auto'): void {
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

  /**
   * Queues one pass of the live schedule. A resource already queued or
   * running shares that run's outcome; a background pass waits behind every
   * other run and is cancelled by a sync staff ask for.
   */
  runScheduled(resource: SyncResourceName, pass: ScheduledPass): Promise<RunOutcome> {
    return this.#enqueue(resource, pass.mode, pass)
  }

  /** True while a run is queued or going. */
  get busy(): boolean {
    return this.#current !== null || this.#queue.length > 0 || this.#active.size > 0
  }

  /** The one place runs start: a queue worked through one resource at a time. */
  #enqueue(resource: SyncResourceName, mode: RunMode, pass?: ScheduledPass): Promise<RunOutcome> {
    if (!pass) this.#yieldBackground()
    // A resource asked for while another runs is queued behind it, never dropped.
    const known =
      this.#current?.resource === resource
        ? this.#current
        : this.#queue.find((entry) => entry.resource === resource)
    if (known) return known.outcome
    let settle: (outcome: RunOutcome) => void = () => undefined
    const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve))
    const entry: QueuedRun = { resource, mode, outcome, settle, ...(pass ? { pass } : {}) }
    // What staff ask for goes before the schedule's background passes.
    const behind = pass?.background
      ? -1
      : this.#queue.findIndex((queued) => queued.pass?.background)
    if (behind < 0) this.#queue.push(entry)
    else this.#queue.splice(behind, 0, entry)
    this.#startDrain()
    return outcome
  }

  /**
   * Starts working through the queue unless that is going. A run queued
   * after the loop found the queue empty, but before the loop's job ended (a
   * caller that queues again as soon as its outcome arrives), starts a new
   * loop, never waits for one that is over.
   */
  #startDrain(): void {
    if (this.#job) return
    this.#job = this.#drain().finally(() => {
      this.#job = null
      if (this.#queue.length > 0) this.#startDrain()
    })
  }

  /** A sync staff ask for goes first: the schedule's background passes are cancelled (a full pass resumes later). */
  #yieldBackground(): void {
    const superseded = new AppError('cancelled', 'A sync asked for by staff goes first.')
    const current = this.#current
    if (current?.pass?.background) {
      this.#current = null
      this.#active.get(current.resource)?.controller.abort(superseded)
    }
    const kept: QueuedRun[] = []
    for (const entry of this.#queue) {
      if (!entry.pass?.background) kept.push(entry)
      else entry.settle(cancelledOutcome(entry.resource, superseded))
    }
    this.#queue = kept
  }

  /** Runs queued resources one after another until the queue is empty. */
  async #drain(): Promise<void> {
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      this.#current = next
      try {
        const run = this.#runOne(next.resource, next.mode, next.pass)
        next.settle(await this.#withDeadline(next.resource, run, next.pass?.deadlineMs))
      } catch (error) {
        next.settle(this.#unexpected(next.resource, error))
      } finally {
        if (this.#current === next) this.#current = null
      }
    }
  }

  async #runOne(
    resource: SyncResourceName,
    mode: RunMode,
    pass?: ScheduledPass,
  ): Promise<RunOutcome> {
    // A slice fetched for a filter gives way to the real sync of its list.
    const slice = this.#active.get(resource)
    if (slice?.mode === 'targeted') {
      slice.controller.abort(new AppError('cancelled', 'Superseded by a full sync.'))
      await slice.done
    }
    if (resource === 'brands') return this.#syncBrands(pass?.signal)
    const state = await this.#options.store.call('readSyncState', resource)
    const chosen =
      mode !== 'auto' ? mode : state.checkpoint || !state.lastFullAt ? 'full' : 'incremental'
    const from = pass?.from === undefined ? {} : { from: pass.from }
    return this.#syncPaged(resource, chosen, state, from, pass?.signal)
  }

  /**
   * One run under the overall deadline: when it passes, the run's
   * controller is aborted with `timeout`, so the run ends through its own
   * error handling (state written, progress reported). A run that does not
   * end within {@link RUN_WIND_DOWN_MS} after that (a source that ignores
   * its signal) is reported as timed out all the same and left behind: it is
   * no longer shown as syncing, and nothing waits for it.
   */
  async #withDeadline(
    resource: SyncResourceName,
    run: Promise<RunOutcome>,
    ms = this.#options.runDeadlineMs,
  ): Promise<RunOutcome> {
    const timeout = new AppError(
      'timeout',
      `The ${resource} sync did not finish within its ${seconds(ms)} s deadline.`,
    )
    let cancelWindDown: () => void = () => undefined
    const given = new Promise<RunOutcome>((resolve) => {
      const cancel = this.#options.deadlineTimer(ms, () => {
        this.#active.get(resource)?.controller.abort(timeout)
        cancelWindDown = this.#options.deadlineTimer(RUN_WIND_DOWN_MS, () => {
          this.#abandon(resource)
          resolve({
            resource,
            phase: 'error',
            complete: false,
            fetched: 0,
            rejected: 0,
            error: timeout,
          })
        })
      })
      void run.finally(cancel).catch(() => undefined)
    })
    try {
      return await Promise.race([run, given])
    } finally {
      cancelWindDown()
    }
  }

  /** Forgets a run that ignored its deadline: its state says why; it no longer counts as active. */
  #abandon(resource: SyncResourceName): void {
    const run = this.#active.get(resource)
    if (!run) return
    this.#active.delete(resource)
    this.#failedAt.set(resource, this.#options.now().toISOString())
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
      entry.settle(cancelledOutcome(entry.resource, cancelled))
    }
    for (const { controller } of this.#active.values()) controller.abort(cancelled)
  }

  /** Status of every resource. A pass left `syncing` by a crash shows as resumable. */
  async status(): Promise<SyncStatus> {
    const { states, counts } = await this.#options.store.call('syncSnapshot')
    const resources: ResourceSyncStatus[] = SYNC_RESOURCES.map((resource) => {
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
    const state = await this.#options.store.call('readSyncState', resource)
    if (state.lastFullAt) return
    const key = `${resource}:${JSON.stringify(filter)}`
    const busy =
      this.#active.has(resource) ||
      this.#current?.resource === resource ||
      this.#queue.some((entry) => entry.resource === resource)
    if (this.#slices.has(key) || busy) return
    this.#slices.add(key)
    const run = this.#syncPaged(resource, 'targeted', state, filter)
    void this.#withDeadline(resource, run).then((outcome) => {
      if (outcome.phase !== 'done') this.#slices.delete(key)
    })
  }

  /** One paged pass (`paged-pass.ts`), registered as active while it runs. */
  async #syncPaged(
    resource: PagedResource,
    mode: PassKind,
    state: SyncStateRow,
    filter: SliceFilter = {},
    signal?: AbortSignal,
  ): Promise<RunOutcome> {
    const run = this.#begin(resource, mode, signal)
    const plan = planPass(this.#options, resource, mode, state, filter)
    const tally = newTally(plan.total, plan.seen, plan.rejected)
    const writes: Promise<void>[] = []
    this.#options.store.resetWrites()
    try {
      return await runPagedPass(
        this.#options,
        plan,
        run.controller.signal,
        tally,
        writes,
        (phase) => this.#report(resource, mode, phase, tally),
        () => {
          if (mode !== 'targeted') this.#failedAt.delete(resource)
        },
      )
    } catch (error) {
      await Promise.allSettled(writes)
      return await this.#fail(resource, mode, run.controller, error, tally)
    } finally {
      run.end()
    }
  }

  async #syncBrands(signal?: AbortSignal): Promise<RunOutcome> {
    const run = this.#begin('brands', 'full', signal)
    const tally = newTally(null)
    try {
      const { items, rejected } = await this.#options.source.brands(run.controller.signal)
      const at = this.#options.now().toISOString()
      await this.#options.store.call('writeBrands', { items, rejected, at })
      this.#failedAt.delete('brands')
      Object.assign(tally, {
        seen: items.length,
        fetchedNow: items.length,
        total: items.length,
        pages: 1,
        rejected,
      })
      this.#report('brands', 'full', 'done', tally)
      this.#options.events.emit('data.changed', { resource: 'brands' })
      return { resource: 'brands', phase: 'done', complete: true, fetched: items.length, rejected }
    } catch (error) {
      return await this.#fail('brands', 'full', run.controller, error, tally)
    } finally {
      run.end()
    }
  }

  /** Registers a run as active (the one map `status`, `cancel` and slices consult). */
  #begin(
    resource: SyncResourceName,
    mode: PassKind,
    signal?: AbortSignal,
  ): { controller: AbortController; end(): void } {
    const controller = new AbortController()
    // The schedule's own signal (a slice of the rolling full pass ends) cancels the run.
    const follow = (): void => controller.abort(signal?.reason)
    if (signal?.aborted) follow()
    else signal?.addEventListener('abort', follow, { once: true })
    let end: () => void = () => undefined
    const done = new Promise<void>((resolve) => (end = resolve))
    const run = { mode, controller, done }
    this.#active.set(resource, run)
    return {
      controller,
      end: () => {
        // A run abandoned at its deadline may end after a newer run of its resource began.
        if (this.#active.get(resource) === run) this.#active.delete(resource)
        signal?.removeEventListener('abort', follow)
        end()
      },
    }
  }

  #report(
    resource: SyncResourceName,
    mode: PassKind,
    phase: SyncProgress['phase'],
    tally: Tally,
    error?: AppError,
  ): void {
    this.#options.events.emit('sync.progress', progressOf(resource, mode, phase, tally, error))
  }

  async #fail(
    resource: SyncResourceName,
    mode: PassKind,
    controller: AbortController,
    error: unknown,
    tally: Tally,
  ): Promise<RunOutcome> {
    // A cancel or the run's deadline aborts the fetch; the error that comes out of it is that reason.
    const reason: unknown = controller.signal.reason
    const cause = isAppError(reason, 'cancelled') || isAppError(reason, 'timeout') ? reason : error
    const typed = isAppError(cause)
      ? cause
      : new AppError('internal', 'Sync failed unexpectedly.', { cause })
    const cancelled = typed.code === 'cancelled'
    const offline = typed.code === 'network' || typed.code === 'timeout'
    if (!cancelled) this.#failedAt.set(resource, this.#options.now().toISOString())
    try {
      await this.#options.store.call('writeSyncState', {
        resource,
        patch: {
          status: cancelled ? 'idle' : offline ? 'offline' : 'error',
          ...(cancelled ? {} : { lastError: typed.toData() }),
        },
      })
      // The lists' answers carry the freshness just written (`staleBecause`, `syncing`).
      this.#options.events.emit('data.changed', { resource })
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
}

function cancelledOutcome(resource: SyncResourceName, error: AppError): RunOutcome {
  return { resource, phase: 'cancelled', complete: false, fetched: 0, rejected: 0, error }
}
