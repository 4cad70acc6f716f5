import { z } from 'zod'
import { ERROR_CODES, ERROR_REASONS } from '../shared/errors'

/**
 * {@link ErrorData} checked where it arrives from outside this thread (a
 * worker, a stored row). Apart from `app-error.ts`, so a thread that only
 * throws errors (the page thread) loads no schema library.
 */
export const errorDataSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  status: z.number().int().optional(),
  retryAt: z.string().optional(),
  reason: z.enum(ERROR_REASONS).optional(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
