import { z } from 'zod'
import { errorDataSchema } from '../error-data-schema'

/**
 * The owner's answers to the main thread, checked with these schemas as
 * they arrive there (what the main thread sends is checked by hand in the
 * owner, `requests.ts`). This module imports no store operation (they load
 * `node:sqlite`); the owner checks a call's operation name itself.
 */

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
