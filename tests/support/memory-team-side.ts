import type {
  OutboxCounts,
  SetAsideEntry,
  TeamEvent,
  TeamEventDraft,
} from '../../src/core/store/team-events'
import type { TeamLocalSide } from '../../src/core/team/local-side'

/**
 * The local side of the team client in memory: an outbox, the applied events
 * by id, and the cursor. It stands in for the store, which implements the same
 * interface in the profile's database; tests wait on {@link changed} rather
 * than on time.
 */
export class MemoryTeamSide implements TeamLocalSide {
  readonly outbox: TeamEventDraft[] = []
  /** Every pulled event once, by id. */
  readonly applied = new Map<string, TeamEvent>()
  seq = 0
  /** Events set aside, with why, in the order they were set aside. */
  readonly setAsideEntries: (SetAsideEntry & { readonly draft: TeamEventDraft })[] = []
  #waiters: (() => void)[] = []

  /** Queues drafts as the store would when a mark is set. */
  enqueue(...drafts: TeamEventDraft[]): void {
    this.outbox.push(...drafts)
    this.#changed()
  }

  /** The current review mark of a record: its event with the highest sequence number. */
  currentMark(resource: string, recordIdx: number): TeamEvent | undefined {
    let current: TeamEvent | undefined
    for (const event of this.applied.values()) {
      if (event.kind !== 'review' || event.resource !== resource || event.recordIdx !== recordIdx)
        continue
      if (!current || event.seq > current.seq) current = event
    }
    return current
  }

  /** Wakes {@link until} waiters for a change outside the side (a status, say). */
  touch(): void {
    this.#changed()
  }

  /** Resolves once `condition` holds (checked now and after every change). */
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise<void>((resolve) => this.#waiters.push(resolve))
  }

  async readOutbox(limit: number): Promise<readonly TeamEventDraft[]> {
    return this.outbox.slice(0, limit)
  }

  async countOutbox(): Promise<OutboxCounts> {
    return { unsent: this.outbox.length, setAside: this.setAsideEntries.length }
  }

  async setAside(entries: readonly SetAsideEntry[]): Promise<void> {
    const byId = new Map(entries.map((entry) => [entry.id, entry]))
    const kept: TeamEventDraft[] = []
    for (const draft of this.outbox) {
      const entry = byId.get(draft.id)
      if (entry) this.setAsideEntries.push({ ...entry, draft })
      else kept.push(draft)
    }
    this.outbox.splice(0, this.outbox.length, ...kept)
    this.#changed()
  }

  async ackOutbox(ids: readonly string[]): Promise<void> {
    const sent = new Set(ids)
    for (let i = this.outbox.length - 1; i >= 0; i -= 1) {
      if (sent.has(this.outbox[i]!.id)) this.outbox.splice(i, 1)
    }
    this.#changed()
  }

  async lastSeq(): Promise<number> {
    return this.seq
  }

  async applyPulled(events: readonly TeamEvent[], upToSeq: number): Promise<void> {
    for (const event of events) this.applied.set(event.id, event)
    this.seq = upToSeq
    this.#changed()
  }

  #changed(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }
}
