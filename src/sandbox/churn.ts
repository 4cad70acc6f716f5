import { formatSecond, wallSecond, type SandboxResource } from './dataset'
import { timeKey, type FieldValue, type LiveDataset } from './live'
import { createRng, mix } from './seed'
import { lowerBound } from './selection'
import { GUARANTEE_STATE_LABELS } from '../shared/domain'
import { INSPECTION_LABELS } from './types'

/**
 * Time in the sandbox: each step is what happens at the service in a few
 * minutes. New inspections and guarantees arrive, inspections are approved
 * and delivered (and then get their result), waiting guarantees are issued
 * or cancelled, now and then a record disappears from the lists and a
 * missing one comes back. Which records change, and how, depends only on
 * the seed and the step number; each step writes what it changed to a log,
 * so a test knows exactly what a client should see.
 */

/** What one change did. */
type ChangeKind =
  /** A record arrived. */
  | 'new'
  /** The status moved: `inspectionStatus`, or a guarantee's `status` label. */
  | 'status'
  /** An inspection got its `inspectionResult`. */
  | 'result'
  /** Another field changed (`modifiedAt`, set with every move). */
  | 'field'
  /** The record is gone from the lists. */
  | 'gone'
  /** A gone record is back, as it was when it left. */
  | 'back'

/** One entry of the sandbox's change log. */
export interface SandboxChange {
  /** The step that made it, from 1. */
  readonly step: number
  /** The step's time at the service, wall clock `YYYY-MM-DD HH:MM:SS` as the service sends times. */
  readonly at: string
  readonly kind: ChangeKind
  readonly resource: SandboxResource
  readonly idx: number
  /**
   * The field that changed (`status`/`result`/`field`), named as the spec names it; an
   * inspection that spells its times `…AtAt` carries a changed `modifiedAt` as `modifiedAtAt`.
   */
  readonly field?: string
  /** The field's value before and after; null where the record had no such field. */
  readonly before?: string | null
  readonly after?: string | null
}

/** How the sandbox's clock moves. */
export interface ChurnClock {
  /**
   * Where the step times come from: `seeded` (the default) starts at the
   * dataset's "now" and moves a seeded few minutes per step, so a run is the
   * same every time; `wall` uses the real time in the service's zone.
   */
  readonly clock?: 'seeded' | 'wall'
  /** The real time, for `wall` (default `Date.now`). */
  readonly now?: () => number
}

/** The log keeps at most this many entries (the oldest go first). */
const MAX_LOGGED_CHANGES = 100_000
/** Records registered within this many seconds before a step are the ones that move. */
const RECENT_SECONDS = 30 * 86_400
/** ...but at least this many of the newest records are candidates. */
const MIN_RECENT = 30
/** Tries to find a record in the wanted state before a move is skipped. */
const PICK_TRIES = 24

const [RECEIVED, APPROVED, DELIVERED] = INSPECTION_LABELS

/** Steps the sandbox's data and logs what each step changed. */
export class Churn {
  readonly #live: LiveDataset
  readonly #seed: number
  readonly #clock: 'seeded' | 'wall'
  readonly #now: () => number
  #step = 0
  #second: number
  #log: SandboxChange[] = []

  constructor(live: LiveDataset, seed: number, clock: ChurnClock = {}) {
    this.#live = live
    this.#seed = seed
    this.#second = live.base.nowSecond
    this.#clock = clock.clock ?? 'seeded'
    this.#now = clock.now ?? Date.now
  }

  /** Steps taken so far. */
  get step(): number {
    return this.#step
  }

  /** The service's time as of the last step (the dataset's "now" before the first). */
  get time(): string {
    return formatSecond(this.#second)
  }

  /** Takes `steps` steps; returns what they changed, in order. */
  advance(steps = 1): SandboxChange[] {
    const out: SandboxChange[] = []
    for (let k = 0; k < steps; k += 1) out.push(...this.#takeStep())
    this.#log.push(...out)
    if (this.#log.length > MAX_LOGGED_CHANGES) {
      this.#log = this.#log.slice(this.#log.length - MAX_LOGGED_CHANGES)
    }
    return out
  }

  /** The logged changes of the steps after `afterStep`, oldest first. */
  changes(afterStep = 0): SandboxChange[] {
    const at = lowerBound(this.#log.length, (k) => (this.#log[k]?.step ?? 0) > afterStep)
    return this.#log.slice(at)
  }

  #takeStep(): SandboxChange[] {
    this.#step += 1
    const step = this.#step
    const rng = createRng(mix(this.#seed, 0xc4a1, step))
    this.#second =
      this.#clock === 'wall'
        ? Math.max(this.#second + 1, wallSecond(this.#now()))
        : this.#second + 180 + Math.floor(rng() * 540)
    const second = this.#second
    const at = formatSecond(second)
    const live = this.#live
    const changes: SandboxChange[] = []
    const touched = new Set<string>()
    const log = (change: Omit<SandboxChange, 'step' | 'at'>): void => {
      changes.push({ step, at, ...change })
      touched.add(`${change.resource}:${change.idx}`)
    }
    /** Sets fields of record `i` and logs each that changed, with `modifiedAt` after them. */
    const move = (
      resource: SandboxResource,
      i: number,
      kinds: Readonly<Record<string, ChangeKind>>,
      fields: Record<string, FieldValue>,
    ): void => {
      const before = live.record(resource, i) as unknown as Record<string, unknown>
      live.patch(resource, i, { ...fields, modifiedAt: at })
      for (const [field, after] of [...Object.entries(fields), ['modifiedAt', at] as const]) {
        const key = timeKey(before, field)
        log({
          kind: kinds[field] ?? 'field',
          resource,
          idx: i + 1,
          field: key,
          before: (before[key] as string | null | undefined) ?? null,
          after: after ?? null,
        })
      }
    }
    /** A recent record of `resource` in the lists, not yet changed this step, that `wanted` accepts. */
    const pick = (
      resource: SandboxResource,
      wanted: (record: Record<string, unknown>) => boolean,
    ): number | undefined => {
      const count = live.count(resource)
      const recent = lowerBound(
        count,
        (i) => live.registeredSecond(resource, i) >= second - RECENT_SECONDS,
      )
      const lo = Math.max(0, Math.min(count - MIN_RECENT, recent))
      for (let t = 0; t < PICK_TRIES && lo < count; t += 1) {
        const i = lo + Math.floor(rng() * (count - lo))
        if (touched.has(`${resource}:${i + 1}`) || !live.exists(resource, i)) continue
        if (wanted(live.record(resource, i) as unknown as Record<string, unknown>)) return i
      }
      return undefined
    }

    // Arrivals: registered at the step's time, waiting at the start of their flow.
    for (let n = draw(rng, [0.4, 0.45, 0.15]); n > 0; n -= 1) {
      const i = live.add('inspection', second, {
        inspectionStatus: RECEIVED,
        inspectionResult: undefined,
      })
      log({ kind: 'new', resource: 'inspection', idx: i + 1 })
    }
    for (let n = draw(rng, [0.4, 0.45, 0.15]); n > 0; n -= 1) {
      const i = live.add('guarantee', second, { status: GUARANTEE_STATE_LABELS.ready })
      log({ kind: 'new', resource: 'guarantee', idx: i + 1 })
    }
    // Inspections move on: received → approved (shipping) → delivered, most with a result.
    for (let n = draw(rng, [0.5, 0.4, 0.1]); n > 0; n -= 1) {
      const i = pick('inspection', (r) => r.inspectionStatus === RECEIVED)
      if (i !== undefined)
        move('inspection', i, { inspectionStatus: 'status' }, { inspectionStatus: APPROVED })
    }
    for (let n = draw(rng, [0.45, 0.4, 0.15]); n > 0; n -= 1) {
      const i = pick('inspection', (r) => r.inspectionStatus === APPROVED)
      if (i === undefined) continue
      const authentic = rng() < 0.7
      move(
        'inspection',
        i,
        { inspectionStatus: 'status', inspectionResult: 'result' },
        authentic
          ? { inspectionStatus: DELIVERED, inspectionResult: '정품' }
          : { inspectionStatus: DELIVERED },
      )
    }
    // Waiting guarantees are issued, or now and then cancelled.
    for (let n = draw(rng, [0.45, 0.45, 0.1]); n > 0; n -= 1) {
      const i = pick('guarantee', (r) => r.status === GUARANTEE_STATE_LABELS.ready)
      if (i === undefined) continue
      const state = rng() < 0.8 ? 'complete' : 'cancel'
      move('guarantee', i, { status: 'status' }, { status: GUARANTEE_STATE_LABELS[state] })
    }
    // Now and then a record leaves the lists, and a missing one comes back.
    if (rng() < 0.15) {
      const resource: SandboxResource = rng() < 0.5 ? 'guarantee' : 'inspection'
      const i = pick(resource, () => true)
      if (i !== undefined) {
        live.setGone(resource, i, true)
        log({ kind: 'gone', resource, idx: i + 1 })
      }
    }
    if (rng() < 0.25) {
      const resource: SandboxResource = rng() < 0.5 ? 'guarantee' : 'inspection'
      const gone = live.goneIndices(resource).filter((i) => !touched.has(`${resource}:${i + 1}`))
      const i = gone[Math.floor(rng() * gone.length)]
      if (i !== undefined) {
        live.setGone(resource, i, false)
        log({ kind: 'back', resource, idx: i + 1 })
      }
    }
    return changes
  }
}

/** A count drawn with the given probabilities of 0, 1, 2, … */
function draw(rng: () => number, weights: readonly number[]): number {
  let roll = rng()
  for (let n = 0; n < weights.length; n += 1) {
    roll -= weights[n] ?? 0
    if (roll < 0) return n
  }
  return weights.length - 1
}
