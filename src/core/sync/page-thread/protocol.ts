import { z } from 'zod'
import type { ErrorData } from '../../../shared/errors'
import { errorDataSchema } from '../../error-data-schema'
import type { EncodedRows, ParcelRows } from '../../store/write/page-write'
import type { ParsedPage } from './parse-page'

/**
 * The page thread's answers (`worker.ts`), checked with these schemas as
 * they arrive on the main thread. Its requests are checked by hand in the
 * thread (`request.ts`), which loads no schema library.
 */

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'not bytes')

const rejectedItem = z.object({
  position: z.number().int().nonnegative(),
  idx: z.number().int().nullable(),
  problems: z.array(z.string()),
  field: z.string(),
  reason: z.string(),
  raw: z.string(),
  rawTruncated: z.boolean(),
})

const parsedPage = z.object({
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  received: z.number().int().nonnegative(),
  pageSize: z.number().int().optional(),
  rejected: z.number().int().nonnegative(),
  rejects: z.array(rejectedItem),
  encoded: z
    .array(
      z.union([
        z.object({ count: z.number().int().nonnegative(), bytes }),
        z.object({
          count: z.number().int().nonnegative(),
          link: z.number().int().positive(),
          parcel: z.number().int().positive(),
          chunk: z.number().int().nonnegative(),
        }),
      ]),
    )
    .min(1),
  fingerprint: z.string(),
})

/** Page thread → main thread: the parsed page, or why it could not be. */
export const fromPageThreadSchema = z.discriminatedUnion('ok', [
  z.object({
    id: z.number().int().positive(),
    ok: z.literal(true),
    value: parsedPage,
  }),
  z.object({
    id: z.number().int().positive(),
    ok: z.literal(false),
    error: errorDataSchema,
  }),
])

/**
 * What the page thread answers a request with: the parsed page, its
 * records encoded, or named once it has sent them to the owner.
 */
export type PageThreadValue = ParsedPage<EncodedRows | ParcelRows>

/** Page thread → main thread, as sent. */
export type FromPageThread =
  | { readonly id: number; readonly ok: true; readonly value: PageThreadValue }
  | { readonly id: number; readonly ok: false; readonly error: ErrorData }
