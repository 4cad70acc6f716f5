import type { OutboxCounts, SetAsideEntry, TeamEvent, TeamEventDraft } from '../store/team-events'

/**
 * What the team client needs from the local store, and nothing more: the
 * store implements it (outbox and cursor in the profile's database), tests
 * implement it in memory. Every method may be called again after a crash at
 * any point, so each must be atomic on its own.
 */
export interface TeamLocalSide {
  /** The oldest unsent events, at most `limit`, oldest first (never one set aside). */
  readOutbox(limit: number): Promise<readonly TeamEventDraft[]>
  /** How many events wait in the outbox, and how many of its events are set aside. */
  countOutbox(): Promise<OutboxCounts>
  /**
   * Takes events out of the push, kept with their reason until a person
   * discards them. Ids not in the outbox are ignored.
   */
  setAside(entries: readonly SetAsideEntry[]): Promise<void>
  /** Drops events the server now holds. Ids not in the outbox are ignored. */
  ackOutbox(ids: readonly string[]): Promise<void>
  /** The highest server sequence number applied so far; 0 when none. */
  lastSeq(): Promise<number>
  /**
   * Applies a page of pulled events (in sequence order; they may include this
   * machine's own, and events already applied) and records `upToSeq` as the
   * last sequence number, in one transaction. `mentions`: who this member is
   * on the server (the display name a mention names) and whether the pull
   * started from nothing (this machine's first), when old mentions notify nobody.
   */
  applyPulled(
    events: readonly TeamEvent[],
    upToSeq: number,
    mentions?: PulledMentions,
  ): Promise<void>
}

/** What a pulled page's mentions are read against (see `applyPulled`). */
export interface PulledMentions {
  readonly catchingUp: boolean
  readonly displayName: string
}
