import { z } from 'zod'
import { PAGED_RESOURCES } from '../../shared/resources'
import type { AssignmentEvent, ReviewEvent, WalletLinkEvent } from '../store/team-events'
import { REVIEW_MARKS } from '../../shared/lists'
import { REVIEW_NOTE_MAX_CHARS } from '../../shared/server-text'
import { serverTextSchema } from '../../shared/server-text-schema'
import { WALLET_FLOWS, WALLET_OUTCOMES } from '../../shared/wallet'

/**
 * The team events on the wire: the check a draft passes before it leaves the
 * machine and the shapes a pull reads from the server's rows. The events
 * themselves are declared where the store queues them (`store/team-events.ts`).
 */

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
    resource: z.enum(PAGED_RESOURCES),
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
    resource: z.enum(PAGED_RESOURCES),
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
    resource: z.enum(PAGED_RESOURCES),
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
    resource: z.enum(PAGED_RESOURCES),
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
