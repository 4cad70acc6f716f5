import { z } from 'zod'
import { PAGED_RESOURCES, type PagedResourceName } from './resources'
import { listFilterSchema, type ListFilter } from './list-filter'
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

/** A view's name: one line, no control or text-direction characters, trimmed. */
export const viewNameSchema = plainTextSchema(MAX_PROFILE_NAME_CHARS)

/** One saved view. */
export interface SavedView {
  readonly id: string
  readonly resource: PagedResourceName
  readonly name: string
  readonly filter: ListFilter
}

/** The kept filter of each list the user last looked at. */
export type LastFilters = Readonly<Partial<Record<PagedResourceName, ListFilter>>>

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
    filter: listFilterSchema.optional(),
  })
  .refine((args) => args.id !== undefined || args.filter !== undefined, {
    message: 'a new view needs a filter',
    path: ['filter'],
  })
