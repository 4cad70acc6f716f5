import { z } from 'zod'
import { REVIEW_MARKS } from '../../shared/cache'
import { REVIEW_NOTE_MAX_CHARS } from '../../shared/server-text'
import { serverTextSchema } from '../../shared/server-text-schema'
import { WALLET_FLOWS, WALLET_OUTCOMES } from '../../shared/wallet'

/**
 * The events a team shares, as the client sees them: what the local side puts
 * in its outbox (a draft: no author, no server number) and what a pull hands
 * back (with the author the server forced, its sequence number and its time).
 * The server tables are `review_events` and `wallet_link_events`
 * (team-server/migrations).
 */

/** A review mark or note set on one record. */
export interface ReviewEventDraft {
  readonly kind: 'review'
  /** Made by the client (UUID); pushing the same id twice stores it once. */
  readonly id: string
  readonly resource: 'inspections' | 'guarantees'
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
  readonly resource: 'inspections' | 'guarantees'
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

const uuid = z.uuid()
const isoTime = z.iso.datetime({ offset: true })
const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)

/**
 * Checks a draft before it leaves the machine (the server checks again), its
 * texts as PostgreSQL takes them (`shared/server-text.ts`).
 */
export const teamEventDraftSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('review'),
    id: uuid,
    resource: z.enum(['inspections', 'guarantees']),
    recordIdx: seq,
    mark: z.enum(REVIEW_MARKS),
    note: serverTextSchema(REVIEW_NOTE_MAX_CHARS),
    clientTime: isoTime,
    basedOnSeq: seq.nullable(),
    restoresId: uuid.nullable().optional(),
  }),
  z.strictObject({
    kind: z.literal('assignment'),
    id: uuid,
    resource: z.enum(['inspections', 'guarantees']),
    recordIdx: seq,
    assignee: z.string().min(1).pipe(serverTextSchema(63)).nullable(),
    clientTime: isoTime,
    basedOnSeq: seq.nullable(),
    restoresId: uuid.nullable().optional(),
  }),
  z.strictObject({
    kind: z.literal('wallet_link'),
    id: uuid,
    flow: z.enum(WALLET_FLOWS),
    refUserId: z.string().min(1).pipe(serverTextSchema(200)),
    guaranteeIdx: seq.nullable(),
    outcome: z.enum(WALLET_OUTCOMES),
    reason: serverTextSchema(500).nullable(),
    startedAt: isoTime,
    endedAt: isoTime,
  }),
])

/** `pg` answers bigint as text and timestamptz as Date: both become the client's types here. */
const bigintText = z
  .union([z.string().regex(/^\d+$/), z.number().int()])
  .transform(Number)
  .pipe(seq)
const dbTime = z.date().transform((date) => date.toISOString())

const serverFields = {
  id: uuid,
  partner_id: z.string(),
  author: z.string(),
  seq: bigintText,
  server_time: dbTime,
}

/** A row of `review_events` as pulled. */
export const reviewRowSchema = z
  .object({
    ...serverFields,
    resource: z.enum(['inspections', 'guarantees']),
    record_idx: bigintText,
    mark: z.enum(REVIEW_MARKS),
    note: z.string(),
    client_time: dbTime,
    based_on_seq: bigintText.nullable(),
    restores: uuid.nullable(),
  })
  .transform((row): ReviewEvent => ({
    kind: 'review',
    id: row.id,
    partnerId: row.partner_id,
    author: row.author,
    seq: row.seq,
    serverTime: row.server_time,
    resource: row.resource,
    recordIdx: row.record_idx,
    mark: row.mark,
    note: row.note,
    clientTime: row.client_time,
    basedOnSeq: row.based_on_seq,
    restoresId: row.restores,
  }))

/** A row of `assignment_events` as pulled. */
export const assignmentRowSchema = z
  .object({
    ...serverFields,
    resource: z.enum(['inspections', 'guarantees']),
    record_idx: bigintText,
    assignee: z.string().nullable(),
    client_time: dbTime,
    based_on_seq: bigintText.nullable(),
    restores: uuid.nullable(),
  })
  .transform((row): AssignmentEvent => ({
    kind: 'assignment',
    id: row.id,
    partnerId: row.partner_id,
    author: row.author,
    seq: row.seq,
    serverTime: row.server_time,
    resource: row.resource,
    recordIdx: row.record_idx,
    assignee: row.assignee,
    clientTime: row.client_time,
    basedOnSeq: row.based_on_seq,
    restoresId: row.restores,
  }))

/** A row of `wallet_link_events` as pulled. */
export const walletLinkRowSchema = z
  .object({
    ...serverFields,
    flow: z.enum(WALLET_FLOWS),
    ref_user_id: z.string(),
    guarantee_idx: bigintText.nullable(),
    outcome: z.enum(WALLET_OUTCOMES),
    reason: z.string().nullable(),
    started_at: dbTime,
    ended_at: dbTime,
  })
  .transform((row): WalletLinkEvent => ({
    kind: 'wallet_link',
    id: row.id,
    partnerId: row.partner_id,
    author: row.author,
    seq: row.seq,
    serverTime: row.server_time,
    flow: row.flow,
    refUserId: row.ref_user_id,
    guaranteeIdx: row.guarantee_idx,
    outcome: row.outcome,
    reason: row.reason,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  }))
