import { AppError, isAppError } from '../app-error'
import type { PartnerClient } from '../api/client'
import type { StoreClient } from '../owner/store-owner'
import type { PagedResource } from '../store/record-types'
import type { RunOutcome } from '../sync/paged-pass'
import type { SyncEngine } from '../sync/sync-engine'
import { PAGED_RESOURCES } from '../../shared/resources'
import type { LiveStep } from '../../shared/live'
import type { ProbeRow } from './store-probe'
import type { LiveSteps, StepResult } from './schedule'

/**
 * The live schedule's steps over the real service and store (docs/live.md):
 *
 * - `poll`: one request a list, its newest records (`sort=latest`, a small
 *   page), compared read-only with the stored rows; only when some are new
 *   or changed does a pass re-read from their registration day and write.
 * - `moving`: re-reads each list from the registration day of its oldest
 *   record within the window that can still move (an inspection received or
 *   in delivery, a guarantee waiting to be issued).
 * - `window`: re-reads the window (`windowDays`) and the brand list.
 * - `full`: a slice of the rolling full pass, at low priority (it gives way
 *   to any sync staff ask for and resumes at its checkpoint).
 */

/** Records a poll reads of each list. */
const POLL_PAGE_SIZE = 20
/** The poll's budget: its requests give up after it, whatever the service does. */
const POLL_BUDGET_MS = 60_000
/** The budget of one re-reading pass. */
const PASS_BUDGET_MS = 10 * 60_000
/** How long one slice of the rolling full pass reads before it gives way until the next poll. */
const FULL_SLICE_MS = 20_000
/** A new full pass starts once the last one is older than a minute per page of the list, within these bounds. */
const FULL_PERIOD_MS = { min: 60 * 60_000, max: 7 * 86_400_000 } as const
/** Page size assumed for a list whose cap was never learned. */
const ASSUMED_PAGE_SIZE = 100

/** What the steps need. */
export interface EngineStepsDeps {
  readonly engine: SyncEngine
  readonly store: StoreClient
  readonly client: Pick<PartnerClient, 'listInspections' | 'listGuarantees'>
  readonly now: () => Date
  /** Days the hourly step re-reads. */
  readonly windowDays: () => number
  /** Length of a full pass's slice (default {@link FULL_SLICE_MS}). */
  readonly fullSliceMs?: number
  /** Budgets of a poll and of a re-reading pass in ms (defaults 60 s and 10 min; tests shorten them). */
  readonly budgetMs?: { readonly poll?: number; readonly pass?: number }
  /**
   * A list never read whole is due for a full pass at once (a background account, which
   * has no sync at start); otherwise only the sync at start reads it whole the first time.
   */
  readonly fullWhenNever?: boolean
}

/** The steps the app runs. */
export function engineSteps(deps: EngineStepsDeps): LiveSteps {
  return {
    async run(step: LiveStep, signal: AbortSignal): Promise<StepResult> {
      let total: StepResult = { requests: 0, changed: 0 }
      if (step === 'window') {
        const brands = await deps.engine.runScheduled('brands', {
          mode: 'full',
          deadlineMs: deps.budgetMs?.pass ?? PASS_BUDGET_MS,
          signal,
        })
        total = add(total, fromOutcome(brands))
        if (total.error) return total
      }
      for (const resource of PAGED_RESOURCES) {
        const result = await runStep(deps, step, resource, signal)
        total = add(total, result)
        if (total.error) return total
      }
      return total
    },
  }
}

async function runStep(
  deps: EngineStepsDeps,
  step: LiveStep,
  resource: PagedResource,
  signal: AbortSignal,
): Promise<StepResult> {
  switch (step) {
    case 'poll':
      return poll(deps, resource, signal)
    case 'moving': {
      const oldest = await deps.store.call('liveOldestMoving', {
        resource,
        from: windowStart(deps),
      })
      if (oldest === null) return { requests: 0, changed: 0 }
      return reread(deps, resource, dayOf(oldest), signal)
    }
    case 'window':
      return reread(deps, resource, windowStart(deps), signal)
    case 'full':
      return fullSlice(deps, resource, signal)
  }
}

/** One request for the newest records; a write only when some are new or changed. */
async function poll(
  deps: EngineStepsDeps,
  resource: PagedResource,
  signal: AbortSignal,
): Promise<StepResult> {
  const budget = AbortSignal.timeout(deps.budgetMs?.poll ?? POLL_BUDGET_MS)
  const both = AbortSignal.any([signal, budget])
  const query = { page: 1, pageSize: POLL_PAGE_SIZE, sort: 'latest' as const }
  let rows: (ProbeRow & { registeredAt: string | null })[]
  try {
    const page =
      resource === 'inspections'
        ? await deps.client.listInspections(query, both)
        : await deps.client.listGuarantees(query, both)
    rows = page.items.map((item) => ({
      idx: item.idx,
      status: 'inspectionStatus' in item ? (item.inspectionStatus ?? null) : item.status,
      result: 'inspectionResult' in item ? (item.inspectionResult ?? null) : null,
      modifiedAt: item.modifiedAt ?? null,
      registeredAt: item.registeredAt ?? null,
    }))
  } catch (error) {
    if (budget.aborted && !signal.aborted) {
      return {
        requests: 1,
        changed: 0,
        error: new AppError('timeout', `The ${resource} poll did not finish within its budget.`),
      }
    }
    return { requests: 1, changed: 0, error: asAppError(error) }
  }
  const probe = await deps.store.call('liveCompare', {
    resource,
    rows: rows.map(({ idx, status, result, modifiedAt }) => ({ idx, status, result, modifiedAt })),
  })
  const moved = new Set([...probe.unknown, ...probe.changed])
  if (moved.size === 0) return { requests: 1, changed: 0 }
  // Every record of the page is new: more may be behind it, back to the newest one stored.
  const allNew = probe.unknown.length === rows.length && probe.newestRegisteredAt !== null
  const days = rows
    .filter((row) => moved.has(row.idx) && row.registeredAt !== null)
    .map((row) => dayOf(row.registeredAt ?? ''))
  const from = allNew ? dayOf(probe.newestRegisteredAt ?? '') : days.sort()[0]
  const pass = await reread(deps, resource, from ?? windowStart(deps), signal)
  return { ...pass, requests: pass.requests + 1 }
}

/** Re-reads a list from a registration day (newest first) and writes what changed. */
async function reread(
  deps: EngineStepsDeps,
  resource: PagedResource,
  from: string,
  signal: AbortSignal,
): Promise<StepResult> {
  const outcome = await deps.engine.runScheduled(resource, {
    mode: 'incremental',
    from,
    deadlineMs: deps.budgetMs?.pass ?? PASS_BUDGET_MS,
    signal,
  })
  return fromOutcome(outcome)
}

/** A slice of the rolling full pass, when one is going or due. */
async function fullSlice(
  deps: EngineStepsDeps,
  resource: PagedResource,
  signal: AbortSignal,
): Promise<StepResult> {
  const { states, counts } = await deps.store.call('syncSnapshot')
  const state = states[resource]
  const going = state.mode === 'full' && state.checkpoint !== null
  const pages = Math.ceil(counts[resource] / (state.pageSize ?? ASSUMED_PAGE_SIZE))
  const period = Math.min(FULL_PERIOD_MS.max, Math.max(FULL_PERIOD_MS.min, pages * 60_000))
  const last = state.lastFullAt === null ? null : Date.parse(state.lastFullAt)
  const due = last === null ? deps.fullWhenNever === true : deps.now().getTime() - last >= period
  if (!going && !due) return { requests: 0, changed: 0 }
  const slice = new AbortController()
  const end = setTimeout(
    () => slice.abort(new AppError('cancelled', 'This slice of the full pass is over.')),
    deps.fullSliceMs ?? FULL_SLICE_MS,
  )
  try {
    const outcome = await deps.engine.runScheduled(resource, {
      mode: 'full',
      background: true,
      signal: AbortSignal.any([signal, slice.signal]),
    })
    // A slice that used its time is no failure: the pass resumes at its checkpoint next time.
    if (outcome.phase === 'cancelled' && slice.signal.aborted && !signal.aborted) {
      return { requests: outcome.pages ?? 0, changed: 0 }
    }
    return fromOutcome(outcome)
  } finally {
    clearTimeout(end)
  }
}

function fromOutcome(outcome: RunOutcome): StepResult {
  const requests = outcome.pages ?? (outcome.resource === 'brands' ? 1 : 0)
  if (outcome.phase === 'done') return { requests, changed: outcome.fetched > 0 ? 1 : 0 }
  return {
    requests,
    changed: 0,
    error: outcome.error ?? new AppError('cancelled', 'The sync was cancelled.'),
  }
}

function add(a: StepResult, b: StepResult): StepResult {
  const error = a.error ?? b.error
  return {
    requests: a.requests + b.requests,
    changed: a.changed + b.changed,
    ...(error ? { error } : {}),
  }
}

/** `YYYY-MM-DD` of a service time (`YYYY-MM-DD HH:MM:SS`, the service's wall clock). */
function dayOf(time: string): string {
  return time.slice(0, 10)
}

/** First day of the window, one extra day for time-zone skew (as the incremental sync). */
function windowStart(deps: EngineStepsDeps): string {
  const start = new Date(deps.now().getTime() - (deps.windowDays() + 1) * 86_400_000)
  return start.toISOString().slice(0, 10)
}

function asAppError(error: unknown): AppError {
  return isAppError(error)
    ? error
    : new AppError('internal', 'A background sync failed unexpectedly.', { cause: error })
}
