import type { REVIEW_MARKS } from '../../shared/lists'
import type { PagedResourceName } from '../../shared/resources'
import type { WALLET_FLOWS, WALLET_OUTCOMES } from '../../shared/wallet'

/**
 * The events a team shares, as the store keeps them: what the local side
 * puts in its outbox (a draft: no author, no server number) and what a pull
 * hands back (with the author the server forced, its sequence number and its
 * time). The store declares them because it queues and applies them; the
 * team client (`team/`) checks them on the wire (`team/events.ts`). The
 * server tables are `review_events`, `assignment_events` and `wallet_link_events`
 * (team-server/migrations).
 */

/** A review mark or note set on one record. */
export interface ReviewEventDraft {
  readonly kind: 'review'
  /** Made by the client (UUID); pushing the same id twice stores it once. */
  readonly id: string
  readonly resource: PagedResourceName
  readonly recordIdx: number
  readonly mark: (typeof REVIEW_MARKS)[number]
  readonly note: string
  /** ISO time on the client when the mark was set. */
  readonly clientTime: string
  /** The server sequence number of the mark this one replaced, as the client knew it; null when none. */
  readonly basedOnSeq: number | null
  /**
   * An undo: the event whose state (mark, note, author) this one brings back;
   * absent or null for a mark set anew.
   */
  readonly restoresId?: string | null
}

/** Who a record is assigned to: a member of the team (login role), or nobody. */
export interface AssignmentEventDraft {
  readonly kind: 'assignment'
  readonly id: string
  readonly resource: PagedResourceName
  readonly recordIdx: number
  /** The member's login role; null: assigned to nobody. */
  readonly assignee: string | null
  readonly clientTime: string
  /** The server number of the assignment this one replaced, as the client knew it; null when none. */
  readonly basedOnSeq: number | null
  /** An undo: the assignment event whose state this one brings back. */
  readonly restoresId?: string | null
}

/** The outcome of one wallet-link flow (never a key, a URL, a token or the redirect's parameters). */
export interface WalletLinkEventDraft {
  readonly kind: 'wallet_link'
  readonly id: string
  readonly flow: (typeof WALLET_FLOWS)[number]
  readonly refUserId: string
  readonly guaranteeIdx: number | null
  readonly outcome: (typeof WALLET_OUTCOMES)[number]
  /** `blocked`: the refused origin; `failed`/`cancelled`: a plain reason; else null. */
  readonly reason: string | null
  readonly startedAt: string
  readonly endedAt: string
}

/** What the local side queues for the server. */
export type TeamEventDraft = ReviewEventDraft | AssignmentEventDraft | WalletLinkEventDraft

/** What the server adds to every event. */
interface ServerFields {
  readonly partnerId: string
  /** The login role that pushed it (the server sets it; nobody can set another). */
  readonly author: string
  /** The server's sequence number: the current mark of a record is its event with the highest. */
  readonly seq: number
  /** ISO time the server stored it. */
  readonly serverTime: string
}

/** A pulled review event. */
export type ReviewEvent = ReviewEventDraft & ServerFields
/** A pulled assignment event. */
export type AssignmentEvent = AssignmentEventDraft & ServerFields
/** A pulled wallet-link event. */
export type WalletLinkEvent = WalletLinkEventDraft & ServerFields
/** A pulled event. */
export type TeamEvent = ReviewEvent | AssignmentEvent | WalletLinkEvent

/** How many events wait, and how many were set aside for a person. */
export interface OutboxCounts {
  readonly unsent: number
  readonly setAside: number
}

/** An event taken out of the push because it was refused for its content. */
export interface SetAsideEntry {
  readonly id: string
  /** Why, in the words of the server (or of the client's own check). */
  readonly reason: string
  /** The server's SQLSTATE; null when the client's own check refused it. */
  readonly sqlState: string | null
}
