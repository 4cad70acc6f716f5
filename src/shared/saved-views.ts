import { z } from 'zod'
import { PAGED_RESOURCES, REVIEW_MARKS, type PagedResourceName } from './cache'
import { agedDaysSchema, listSortSchema, markedBySchema } from './list-filter'
import { plainTextSchema } from './profile-schemas'
import { MAX_PROFILE_NAME_CHARS } from './text-rules'

/**
 * Saved views: a list's filter, sort and search kept under a name, and the
 * last filter of each list (restored when the app starts). They live in the
 * settings file, beside the other preferences (channels `views.list`,
 * `views.save`, `views.remove`, `views.setLast`).
 */

/** The most views one list keeps; the settings file stays small. */
export const MAX_VIEWS_PER_LIST = 50

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD')

/** A list's filter as a view keeps it: the list query's filter fields without paging. */
export const savedFilterSchema = z.strictObject({
  q: z.string().max(200).default(''),
  /** A status label; null: records without one; absent: every status. */
  status: z.string().max(100).nullable().optional(),
  from: day.optional(),
  to: day.optional(),
  review: z.enum(REVIEW_MARKS).optional(),
  markedBy: markedBySchema.optional(),
  sort: listSortSchema,
  agedDays: agedDaysSchema.optional(),
})

/** A kept filter, defaults filled in. */
export type SavedFilter = z.output<typeof savedFilterSchema>

/** A view's name: one line, no control or text-direction characters, trimmed. */
export const viewNameSchema = plainTextSchema(MAX_PROFILE_NAME_CHARS)

/** One saved view. */
export interface SavedView {
  readonly id: string
  readonly resource: PagedResourceName
  readonly name: string
  readonly filter: SavedFilter
}

/** The kept filter of each list the user last looked at. */
export type LastFilters = Readonly<Partial<Record<PagedResourceName, SavedFilter>>>

/** Answer of the `views.*` channels: every saved view, in the order saved, and the last filters. */
export interface SavedViewList {
  readonly views: readonly SavedView[]
  readonly last: LastFilters
}

/** Arguments of `views.save`: a new view (no `id`), or a renamed or re-filtered one. */
export const viewSaveSchema = z
  .strictObject({
    id: z.uuid().optional(),
    resource: z.enum(PAGED_RESOURCES),
    name: viewNameSchema,
    /** Absent on a rename: the view keeps its filter. */
    filter: savedFilterSchema.optional(),
  })
  .refine((args) => args.id !== undefined || args.filter !== undefined, {
    message: 'a new view needs a filter',
    path: ['filter'],
  })
