import { z } from 'zod'
import { errorDataSchema } from '../error-data-schema'

/**
 * The messages between the main thread's image cache and the image-index
 * thread (`index-worker.ts`), checked on arrival at either end.
 */

const name = z.string().min(1).max(200)

/** One question or change for the index. */
const imageIndexCallSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('totalBytes') }),
  z.object({ op: z.literal('nameOfUrl'), url: z.string() }),
  /** The size of a stored file (null when unknown), marking it used now. */
  z.object({ op: z.literal('use'), name, now: z.number() }),
  z.object({
    op: z.literal('store'),
    name,
    size: z.number().int().nonnegative(),
    url: z.string(),
    now: z.number(),
    maxTotalBytes: z.number().nonnegative(),
  }),
])
/** One call to the index. */
export type ImageIndexCall = z.infer<typeof imageIndexCallSchema>

/** Main thread → image-index thread. */
export const toImageIndexSchema = z.object({
  id: z.number().int().positive(),
  call: imageIndexCallSchema,
})

/** Image-index thread → main thread. */
export const fromImageIndexSchema = z.discriminatedUnion('ok', [
  z.object({ id: z.number().int().positive(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number().int().positive(), ok: z.literal(false), error: errorDataSchema }),
])
