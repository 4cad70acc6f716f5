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

/** The comparable form of a feed entry: kind, record and (for moves) before → after. */
export function feedKey(e: ChangeEntry): Expected {
  const d = e.detail
  const at = `${e.resource}:${e.idx} ${e.kind}`
  if (d.kind === 'status' || d.kind === 'result') return `${at} ${d.before} -> ${d.after}`
  if (d.kind === 'state') return `${at} ${d.before} -> ${d.after}`
  if (d.kind === 'fields') {
    return `${at} ${d.fields
      .map((f) => f.field)
      .sort()
      .join(',')}`
  }
  return at
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
