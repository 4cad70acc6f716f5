import type { StoreConnection } from '../store/connection'
import { runStoreOp, type StoreArgs, type StoreResult } from '../owner/store-ops'
import type { OutboxCounts, SetAsideEntry, TeamEvent, TeamEventDraft } from '../store/team-events'
import type { PulledMentions, TeamLocalSide } from './local-side'
import type { TeamStoreOp } from '../owner/team-link'

/** Runs one of the store's team operations, wherever the store is. */
export type TeamStoreCall = <K extends TeamStoreOp>(
  op: K,
  args: StoreArgs<K>,
) => Promise<StoreResult<K>>

/**
 * The profile's store as the team client's local side: every method is one
 * store operation in its own transaction (`store/team-side.ts`). The team
 * worker passes a `call` that goes straight to the owner over its link
 * (`owner/team-link.ts`).
 */
export class StoreTeamSide implements TeamLocalSide {
  readonly #call: TeamStoreCall
  readonly #timeZone: string

  constructor(call: TeamStoreCall, timeZone: string) {
    this.#call = call
    this.#timeZone = timeZone
  }

  readOutbox(limit: number): Promise<readonly TeamEventDraft[]> {
    return this.#call('teamReadOutbox', limit)
  }

  countOutbox(): Promise<OutboxCounts> {
    return this.#call('teamCountOutbox', undefined)
  }

  async setAside(entries: readonly SetAsideEntry[]): Promise<void> {
    await this.#call('teamSetAside', { entries, at: new Date().toISOString() })
  }

  async ackOutbox(ids: readonly string[]): Promise<void> {
    await this.#call('teamAckOutbox', ids)
  }

  lastSeq(): Promise<number> {
    return this.#call('teamLastSeq', undefined)
  }

  async applyPulled(
    events: readonly TeamEvent[],
    upToSeq: number,
    mentions?: PulledMentions,
  ): Promise<void> {
    await this.#call('teamApplyPulled', {
      events,
      upToSeq,
      timeZone: this.#timeZone,
      ...(mentions ? { mentions } : {}),
    })
  }
}

/**
 * A {@link TeamStoreCall} on a connection of this thread (tools and tests that open the file themselves).
 * @internal
 */
export function directTeamCall(db: StoreConnection): TeamStoreCall {
  return (op, args) => Promise.resolve(runStoreOp(db, op, args))
}
