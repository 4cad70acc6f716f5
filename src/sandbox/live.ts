import { GUARANTEE_STATE_LABELS, type GuaranteeState } from '../shared/domain'
import {
  sliceOf,
  type CardFacts,
  type Dataset,
  type PageSlice,
  type SandboxListRequest,
  type SandboxResource,
} from './dataset'
import { adjustedSelection, lowerBound } from './selection'
import type { RawGuarantee, RawInspection } from './types'

/**
 * The records the service holds now: the generated {@link Dataset} as it
 * starts, plus what happened since (see `churn.ts`): records that arrived
 * after it, fields that moved, records gone from the service. The changes are
 * kept as a small overlay, so a list still costs O(pageSize) plus the
 * overlay's size, and with no change at all the dataset answers directly.
 */

/** A field value as the service sends it; null for an explicit `null`, undefined to leave the field out. */
export type FieldValue = string | null | undefined

/** What differs from the generated records of one list. */
interface Overlay {
  /** Registration second of each record that arrived later; record `base size + k` is the k-th. */
  readonly arrivals: number[]
  /** Fields that differ from the generated record, by record index. */
  readonly patches: Map<number, Readonly<Record<string, FieldValue>>>
  /** Indices of the records gone from the service, ascending. */
  readonly gone: number[]
}

type RawRecord = RawGuarantee | RawInspection

const STATE_BY_LABEL = new Map(
  Object.entries(GUARANTEE_STATE_LABELS).map(([state, label]) => [label, state as GuaranteeState]),
)

/** The current records of both lists. */
export class LiveDataset {
  readonly base: Dataset
  readonly #overlays: Readonly<Record<SandboxResource, Overlay>> = {
    guarantee: { arrivals: [], patches: new Map(), gone: [] },
    inspection: { arrivals: [], patches: new Map(), gone: [] },
  }

  constructor(base: Dataset) {
    this.base = base
  }

  /** How many records of a list exist or existed: `idx` runs from 1 to this. */
  count(resource: SandboxResource): number {
    return this.base.size + this.#overlays[resource].arrivals.length
  }

  /** Registration second of record `i`. */
  registeredSecond(resource: SandboxResource, i: number): number {
    const arrival = this.#overlays[resource].arrivals[i - this.base.size]
    return i < this.base.size || arrival === undefined
      ? this.base.registeredSecond(resource, i)
      : arrival
  }

  /** True when record `i` is in the service's lists now. */
  exists(resource: SandboxResource, i: number): boolean {
    return Number.isInteger(i) && i >= 0 && i < this.count(resource) && !this.isGone(resource, i)
  }

  /** True when record `i` has gone from the service. */
  isGone(resource: SandboxResource, i: number): boolean {
    const gone = this.#overlays[resource].gone
    const at = lowerBound(gone.length, (k) => (gone[k] ?? 0) >= i)
    return gone[at] === i
  }

  /** Guarantee record `i` as the service sends it now (gone or not). */
  guarantee(i: number): RawGuarantee {
    return this.#current('guarantee', i, this.#arrival('guarantee', i)) as RawGuarantee
  }

  /** Inspection record `i` as the service sends it now (gone or not). */
  inspection(i: number): RawInspection {
    return this.#current('inspection', i, this.#arrival('inspection', i)) as RawInspection
  }

  /** Record `i` of either list. */
  record(resource: SandboxResource, i: number): RawRecord {
    return resource === 'guarantee' ? this.guarantee(i) : this.inspection(i)
  }

  /** What the card of guarantee `idx` shows now, or null when there is no such guarantee. */
  cardFacts(idx: number): CardFacts | null {
    if (!this.exists('guarantee', idx - 1)) return null
    const state = STATE_BY_LABEL.get(this.guarantee(idx - 1).status) ?? 'complete'
    return this.base.cardFactsOf(idx - 1, state)
  }

  /** The records matching `query` (and below `visible`): the total and the requested page. */
  query(
    resource: SandboxResource,
    query: SandboxListRequest,
    visible = this.count(resource),
  ): PageSlice {
    const overlay = this.#overlays[resource]
    const base =
      resource === 'guarantee'
        ? this.base.selectGuarantees(query, visible)
        : this.base.selectInspections(query, visible)
    if (overlay.arrivals.length === 0 && overlay.patches.size === 0 && overlay.gone.length === 0) {
      return sliceOf(base, query)
    }
    const removed = new Set<number>()
    const added: number[] = []
    const generated = (i: number): RawRecord =>
      resource === 'guarantee' ? this.base.guarantee(i) : this.base.inspection(i)
    const inBase = (i: number): boolean =>
      i < this.base.size && i < visible && matches(resource, generated(i), query)
    for (const i of overlay.gone) if (inBase(i)) removed.add(i)
    // Only a status filter can change with a patch (member and registration time never move).
    if (query.status !== undefined) {
      for (const i of overlay.patches.keys()) {
        if (i >= this.base.size || this.isGone(resource, i)) continue
        const was = inBase(i)
        const now = i < visible && matches(resource, this.record(resource, i), query)
        if (was && !now) removed.add(i)
        if (!was && now) added.push(i)
      }
    }
    overlay.arrivals.forEach((_, k) => {
      const i = this.base.size + k
      if (
        i < visible &&
        !this.isGone(resource, i) &&
        matches(resource, this.record(resource, i), query)
      )
        added.push(i)
    })
    const selection = adjustedSelection(
      base,
      [...removed].sort((a, b) => a - b),
      added.sort((a, b) => a - b),
      this.count(resource),
    )
    return sliceOf(selection, query)
  }

  /** Adds a record registered at `second` with `fields` set; returns its index. */
  add(resource: SandboxResource, second: number, fields: Record<string, FieldValue>): number {
    const overlay = this.#overlays[resource]
    const i = this.count(resource)
    overlay.arrivals.push(second)
    overlay.patches.set(i, fields)
    return i
  }

  /** Sets `fields` of record `i` (a field named `modifiedAt` goes where the record keeps its time). */
  patch(resource: SandboxResource, i: number, fields: Record<string, FieldValue>): void {
    const overlay = this.#overlays[resource]
    overlay.patches.set(i, { ...overlay.patches.get(i), ...fields })
  }

  /** Takes record `i` out of the lists, or (`gone` false) brings it back. */
  setGone(resource: SandboxResource, i: number, gone: boolean): void {
    const list = this.#overlays[resource].gone
    const at = lowerBound(list.length, (k) => (list[k] ?? 0) >= i)
    const present = list[at] === i
    if (gone && !present) list.splice(at, 0, i)
    if (!gone && present) list.splice(at, 1)
  }

  /** Indices of the records gone now, ascending. */
  goneIndices(resource: SandboxResource): readonly number[] {
    return this.#overlays[resource].gone
  }

  #arrival(resource: SandboxResource, i: number): number | undefined {
    return i >= this.base.size ? this.#overlays[resource].arrivals[i - this.base.size] : undefined
  }

  #current(resource: SandboxResource, i: number, arrivedAt: number | undefined): RawRecord {
    const record: RawRecord =
      resource === 'guarantee'
        ? this.base.guarantee(i, arrivedAt)
        : this.base.inspection(i, arrivedAt)
    const patch = this.#overlays[resource].patches.get(i)
    if (patch === undefined) return record
    const out: Record<string, unknown> = { ...record }
    for (const [field, value] of Object.entries(patch)) {
      const key = timeKey(record, field)
      if (value === undefined) delete out[key]
      else out[key] = value
    }
    return out as unknown as RawRecord
  }
}

/**
 * The key a record keeps field `field` under: an inspection that spells its
 * times `registeredAtAt`/`modifiedAtAt` keeps a changed `modifiedAt` there too.
 */
export function timeKey(record: object, field: string): string {
  return field === 'modifiedAt' && 'registeredAtAt' in record ? 'modifiedAtAt' : field
}

/** The registration day (`YYYY-MM-DD`) of a record, whichever spelling it uses. */
function registeredDay(record: RawRecord): string {
  const at = 'registeredAtAt' in record ? record.registeredAtAt : record.registeredAt
  return (at ?? '').slice(0, 10)
}

/**
 * True when `record` matches the filters of `query`.
 * @internal
 */
export function matches(
  resource: SandboxResource,
  record: RawRecord,
  query: SandboxListRequest,
): boolean {
  if (query.refUserId !== undefined && record.refUserId !== query.refUserId) return false
  const day = registeredDay(record)
  if (query.from !== undefined && day < query.from) return false
  if (query.to !== undefined && day > query.to) return false
  if (query.status === undefined) return true
  return resource === 'guarantee'
    ? (record as RawGuarantee).status === GUARANTEE_STATE_LABELS[query.status as GuaranteeState]
    : (record as RawInspection).inspectionStatus === query.status
}
