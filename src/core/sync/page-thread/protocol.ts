import { z } from 'zod'
import { PAGED_RESOURCES } from '../../../shared/cache'
import type { ErrorData } from '../../../shared/errors'
import { errorDataSchema } from '../../app-error'
import type { ParsedPage } from './parse-page'

/**
 * The messages between the main thread and the page thread
 * (`worker.ts`), checked with these schemas on arrival at either end.
 */

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'not bytes')

/** Main thread → page thread: one list answer to parse. */
export const toPageThreadSchema = z.object({
  id: z.number().int().positive(),
  input: z.object({
    resource: z.enum(PAGED_RESOURCES),
    body: z.object({ bytes, contentType: z.string(), status: z.number().int() }),
    page: z.number().int().positive(),
    rowsPerChunk: z.number().int().positive(),
  }),
})

const rejectedItem = z.object({
  position: z.number().int().nonnegative(),
  idx: z.number().int().nullable(),
  problems: z.array(z.string()),
  field: z.string(),
  reason: z.string(),
  raw: z.string(),
  rawTruncated: z.boolean(),
})

/** Page thread → main thread: the parsed page, or why it could not be. */
export const fromPageThreadSchema = z.discriminatedUnion('ok', [
  z.object({
    id: z.number().int().positive(),
    ok: z.literal(true),
    value: z.object({
      total: z.number().int().nonnegative(),
      page: z.number().int(),
      received: z.number().int().nonnegative(),
      pageSize: z.number().int().optional(),
      rejected: z.number().int().nonnegative(),
      rejects: z.array(rejectedItem),
      encoded: z.array(z.object({ count: z.number().int().nonnegative(), bytes })).min(1),
      fingerprint: z.string(),
    }),
  }),
  z.object({
    id: z.number().int().positive(),
    ok: z.literal(false),
    error: errorDataSchema,
  }),
])

/** Main thread → page thread, checked. */
export type ToPageThread = z.infer<typeof toPageThreadSchema>
/** Page thread → main thread, as sent. */
export type FromPageThread =
  | { readonly id: number; readonly ok: true; readonly value: ParsedPage }
  | { readonly id: number; readonly ok: false; readonly error: ErrorData }
