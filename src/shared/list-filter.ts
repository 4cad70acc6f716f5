import { z } from 'zod'

/**
 * Parts of a list filter that both the list queries (`contract.ts`) and the
 * saved views (`saved-views.ts`) declare, so a view can keep whatever a list
 * can show.
 */

/** Who set a record's current mark: this member, anyone else, or one login role. */
export const markedBySchema = z.union([
  z.enum(['me', 'others']),
  z.strictObject({ role: z.string().trim().min(1).max(63) }),
])
/** The "marked by" part of a list filter. */
export type MarkedBy = z.output<typeof markedBySchema>

/** Registration time, newest or oldest first; or `aged`: longest in the current status first. */
export const listSortSchema = z.enum(['latest', 'oldest', 'aged']).default('latest')

/** Only records in their current status for this many days or more (first seen locally). */
export const agedDaysSchema = z.number().int().min(0).max(3650)
