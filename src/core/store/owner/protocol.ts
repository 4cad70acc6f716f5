import { z } from 'zod'
import { errorDataSchema } from '../../error-data-schema'

/**
 * The messages between the main thread and a profile's database owner
 * (`worker.ts`), checked with these schemas on arrival at either end. The
 * main thread loads this module: it imports no store operation (they load
 * `node:sqlite`); the owner checks a call's operation name itself.
 */

/** What the owner is started with. */
export const ownerDataSchema = z.object({
  file: z.string().min(1),
  busyTimeoutMs: z.number().int().positive().optional(),
  /** When the open started (stamps a rebuilt file's moved-aside copy). */
  openedAt: z.iso.datetime(),
})

/** What the owner is started with. */
export type OwnerData = z.infer<typeof ownerDataSchema>

/** Main thread → owner. `call` carries one {@link StoreRequest}; `reset` clears a failed page write. */
export const toOwnerSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('call'),
    id: z.number().int().positive(),
    op: z.string(),
    args: z.unknown().optional(),
  }),
  z.object({ type: z.literal('reset') }),
  z.object({ type: z.literal('close') }),
])

/** Owner → main thread. */
export const fromOwnerSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    notice: z
      .object({
        code: z.literal('store_corrupt'),
        message: z.string(),
        movedTo: z.string(),
        at: z.string(),
      })
      .nullable(),
  }),
  z.object({ type: z.literal('failed'), error: errorDataSchema }),
  z.object({ type: z.literal('done'), id: z.number().int().positive(), value: z.unknown() }),
  /** Every page write of one committed batch, answered in one message (they answer nothing). */
  z.object({
    type: z.literal('pagesDone'),
    ids: z.array(z.number().int().positive()).min(1),
  }),
  z.object({ type: z.literal('error'), id: z.number().int().positive(), error: errorDataSchema }),
])

/** Owner → main thread, checked. */
export type FromOwner = z.infer<typeof fromOwnerSchema>
/** Main thread → owner, checked. */
export type ToOwner = z.infer<typeof toOwnerSchema>
