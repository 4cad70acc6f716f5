import { z } from 'zod'

/**
 * Schemas of the service's answers. They are tolerant readers: unknown fields
 * pass through untouched (kept with the record), and only what the app relies
 * on is checked.
 */

/** One brand of operation 3. `englishName` may carry trailing whitespace. */
export const brandSchema = z.looseObject({
  idx: z.number().int(),
  name: z.string(),
  englishName: z.string(),
})

/** Operation 3 answers a plain JSON array, no envelope. */
export const brandListSchema = z.array(z.unknown())
