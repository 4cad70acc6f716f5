import type { SandboxChange } from '../../../src/sandbox/churn'
import type { ChangeEntry } from '../../../src/shared/changes'

/**
 * What a client that syncs now and then should find changed, worked out
 * from the sandbox's own change log: per record, its values at the last
 * sync against its values now (several steps between two syncs net out),
 * new records, and records gone or back. Compared with the store's feed.
 */

/** One expected entry, in the comparable shape of {@link feedKey}. */
export type Expected = string

const STATE_OF: Readonly<Record<string, string>> = {
  발급대기: 'ready',
  발급완료: 'complete',
  발급취소: 'cancel',
}

interface Known {
  /** In the service's lists now. */
  present: boolean
  /** Ever seen by a sync (a record that arrived and left between two syncs was not). */
  stored: boolean
  /** Present at the last sync (or never left). */
  presentAtSync: boolean
  /** The values the store holds, per field touched so far. */
  storedFields: Map<string, string | null>
  /** The service's values now, per field touched so far. */
  current: Map<string, string | null>
}

/** The API field a logged change names (an inspection's `modifiedAtAt` is its `modifiedAt`). */
function apiField(field: string): string {
  return field === 'modifiedAtAt' ? 'modifiedAt' : field
}

/**
 * The comparable forms of a feed entry, one per change it holds (its own
 * kind and each of `also`): kind, record and (for moves) before → after.
 */
export function feedKey(e: ChangeEntry): Expected[] {
  const at = (kind: string): string => `${e.resource}:${e.idx} ${kind}`
  return [e.detail, ...(e.detail.also ?? [])].map((d) => {
    if (d.kind === 'status' || d.kind === 'result' || d.kind === 'state')
      return `${at(d.kind)} ${d.before} -> ${d.after}`
    if (d.kind === 'fields') {
      return `${at(d.kind)} ${d.fields
        .map((f) => f.field)
        .sort()
        .join(',')}`
    }
    return at(d.kind)
  })
}

/** Records that have more than one entry of the same sync (the feed gives one entry a record and sync). */
export function repeatedRecords(entries: readonly ChangeEntry[]): string[] {
  const seen = new Set<string>()
  const repeated: string[] = []
  for (const e of entries) {
    if (e.idx === null) continue
    const key = `${e.syncId} ${e.resource}:${e.idx}`
    if (seen.has(key)) repeated.push(key)
    seen.add(key)
  }
  return repeated
}

/** The order in which a record's changes of one sync name its one entry (as the store picks it). */
const WEIGHT = ['result', 'state', 'status', 'back', 'fields']

/**
 * The entries a feed shows for expected changes (`res:idx kind …`, one per
 * kind): one per record, `res:idx kind` of its weightiest kind.
 */
export function entriesOf(expected: readonly Expected[]): string[] {
  const byRecord = new Map<string, string>()
  for (const key of expected) {
    const [record, kind] = key.split(' ') as [string, string]
    const held = byRecord.get(record)
    const weight = (k: string): number => (WEIGHT.includes(k) ? WEIGHT.indexOf(k) : -1)
    if (held === undefined || weight(kind) < weight(held)) byRecord.set(record, kind)
  }
  return [...byRecord].map(([record, kind]) => `${record} ${kind}`).sort()
}

export class FeedModel {
  readonly #known = new Map<string, Known>()
  #step = 0

  /**
   * The entries a sync now should add, given the log so far (`changes`, all
   * of it) and whether the sync is a complete full pass (only that finds `gone`).
   */
  sync(changes: readonly SandboxChange[], fullPass: boolean): Expected[] {
    const fresh = changes.filter((c) => c.step > this.#step)
    this.#step = changes.at(-1)?.step ?? this.#step
    const touched = new Set<string>()
    for (const c of fresh) {
      const key = `${c.resource}s:${c.idx}`
      touched.add(key)
      let known = this.#known.get(key)
      if (known === undefined) {
        const stored = c.kind !== 'new'
        known = {
          present: true,
          stored,
          presentAtSync: stored,
          storedFields: new Map(),
          current: new Map(),
        }
        this.#known.set(key, known)
      }
      if (c.kind === 'new') known.present = true
      else if (c.kind === 'gone') known.present = false
      else if (c.kind === 'back') known.present = true
      else {
        const field = apiField(c.field!)
        if (known.stored && !known.storedFields.has(field)) {
          known.storedFields.set(field, c.before ?? null)
        }
        known.current.set(field, c.after ?? null)
      }
    }
    const out: Expected[] = []
    for (const key of touched) {
      const k = this.#known.get(key)!
      const resource = key.split(':')[0]!
      if (!k.present) {
        if (k.stored && k.presentAtSync && fullPass) {
          out.push(`${key} gone`)
          k.presentAtSync = false
        }
        continue
      }
      if (!k.stored) {
        out.push(`${key} new`)
        k.stored = true
        k.presentAtSync = true
        k.storedFields = new Map(k.current)
        continue
      }
      if (!k.presentAtSync) out.push(`${key} back`)
      const others: string[] = []
      for (const [field, after] of k.current) {
        const old = k.storedFields.get(field) ?? null
        if (old === after) continue
        if (field === 'inspectionStatus') out.push(`${key} status ${old} -> ${after}`)
        else if (field === 'inspectionResult') out.push(`${key} result ${old} -> ${after}`)
        else if (field === 'status' && resource === 'guarantees') {
          out.push(
            `${key} state ${STATE_OF[old ?? ''] ?? old} -> ${STATE_OF[after ?? ''] ?? after}`,
          )
        } else others.push(field)
      }
      if (others.length > 0) out.push(`${key} fields ${others.sort().join(',')}`)
      k.storedFields = new Map(k.current)
      k.presentAtSync = true
    }
    return out.sort()
  }
}
