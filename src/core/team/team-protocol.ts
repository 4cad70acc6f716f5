import { MessagePort } from 'node:worker_threads'
import { z } from 'zod'
import { PAGED_RESOURCES } from '../../shared/resources'
import { readErrorData } from '../plain-checks'

/**
 * The messages between the main thread and the team worker (`worker.ts`),
 * checked on arrival at either end, and those on the worker's link to the
 * profile's database owner. The worker runs the sync loop; its store
 * operations (`TEAM_STORE_OPS` in `owner/team-link.ts`) go straight to the
 * owner over that link, never through the main thread: the worker holds the
 * PostgreSQL connection, the owner the SQLite file, and the main thread
 * hears only the status, presence and what a pulled page changed.
 */

/** What the worker is started with (the password only in memory, never on disk). */
const teamWorkerDataSchema = z.object({
  /** The worker's end of its link to the profile's database owner (`StoreOwner.linkTeam`). */
  store: z.instanceof(MessagePort),
  config: z.object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    database: z.string().min(1),
    user: z.string().min(1),
    password: z.string(),
    tls: z.enum(['verify-full', 'plain']).optional(),
    caFile: z.string().optional(),
    connectTimeoutMs: z.number().int().positive().optional(),
  }),
  partnerId: z.string().min(1),
  timeZone: z.string().min(1),
  backoffMs: z.object({ base: z.number().positive(), max: z.number().positive() }).optional(),
  pollMs: z.number().int().positive().optional(),
  pushBatch: z.number().int().positive().optional(),
  /** Presence timing (team-sync.ts `PresenceTiming`); tests shorten it. */
  presence: z
    .object({
      heartbeatMs: z.number().int().positive(),
      maxAgeMs: z.number().int().positive(),
      readMs: z.number().int().positive(),
    })
    .partial()
    .optional(),
})

/** A record a member has open. */
const presenceAtSchema = z.object({
  resource: z.enum(PAGED_RESOURCES),
  idx: z.number().int().min(0),
})

/** What the worker is started with. */
export type TeamWorkerData = z.infer<typeof teamWorkerDataSchema>

/** Main thread → worker. */
const toTeamWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('nudge') }),
  z.object({ type: z.literal('retry') }),
  z.object({ type: z.literal('stop') }),
  /** This member opened a record (null: closed it). */
  z.object({ type: z.literal('presence'), at: presenceAtSchema.nullable() }),
])

/** Main thread → worker, checked. */
export type ToTeamWorker = z.infer<typeof toTeamWorkerSchema>

/** Worker → main thread. */
const fromTeamWorkerSchema = z.discriminatedUnion('type', [
  /** A pulled page was written (`PulledApplied`, store/team-side.ts): lists, Wallet history, mentions. */
  z.object({ type: z.literal('applied'), applied: z.record(z.string(), z.unknown()) }),
  /** A `TeamStatus` (team-sync.ts); the main thread keeps the latest for `team.status`. */
  z.object({ type: z.literal('status'), status: z.record(z.string(), z.unknown()) }),
  /** The other members present now, by login role. */
  z.object({
    type: z.literal('presence'),
    present: z.array(presenceAtSchema.extend({ role: z.string() })),
  }),
])

/** Worker → main thread, checked. */
export type FromTeamWorker = z.infer<typeof fromTeamWorkerSchema>

/** An error another thread sent, checked by the same reader the data threads use. */
const errorDataSchema = z.unknown().transform((value, ctx) => {
  const error = readErrorData(value)
  if (error === null) ctx.addIssue({ code: 'custom', message: 'not an error' })
  return error ?? z.NEVER
})

/** Owner → worker, on the link: the answer to one store operation (as the owner answers any call). */
const fromTeamLinkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('done'), id: z.number().int().positive(), value: z.unknown() }),
  z.object({ type: z.literal('error'), id: z.number().int().positive(), error: errorDataSchema }),
])

/** A reader of one direction's messages: the message, or null when `raw` is not one. */
function readerOf<T>(schema: z.ZodType<T>): (raw: unknown) => T | null {
  return (raw) => {
    const parsed = schema.safeParse(raw)
    return parsed.success ? parsed.data : null
  }
}

/** The worker's start data, as the worker reads it. */
export const readTeamWorkerData = readerOf(teamWorkerDataSchema)
/** Main thread → team worker, as the worker reads it. */
export const readToTeamWorker = readerOf(toTeamWorkerSchema)
/** Team worker → main thread, as the main thread reads it. */
export const readFromTeamWorker = readerOf(fromTeamWorkerSchema)
/** The owner's answers on the team link, as the worker reads them. */
export const readFromTeamLink = readerOf(fromTeamLinkSchema)
