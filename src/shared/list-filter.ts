import { z } from 'zod'
import { REVIEW_MARKS } from './lists'
import { type PagedResourceName } from './resources'
import { guaranteeStateOf, type GuaranteeState, type PartnerFilter } from './domain'

/**
 * The list filter, declared once. The list queries (`contract.ts`), the
 * saved views and last filters (`saved-views.ts`), the renderer's filter
 * state and the partner slice a list asks the sync for (`partnerSlice`) all
 * derive from {@link listFilterShape}: a new filter field is one entry here
 * plus the control that sets it.
 */

/** Who set a record's current mark: this member, anyone else, or one login role. */
const markedBySchema = z.union([
  z.enum(['me', 'others']),
  z.strictObject({ role: z.string().trim().min(1).max(63) }),
])
/** The "marked by" part of a list filter. */
export type MarkedBy = z.output<typeof markedBySchema>

/** Who a record is assigned to: this member, nobody, or one member by login role (docs/team.md "Assignment"). */
const assigneeFilterSchema = z.union([
  z.enum(['me', 'nobody']),
  z.strictObject({ role: z.string().trim().min(1).max(63) }),
])
/** The "assigned to" part of a list filter. */
export type AssigneeFilter = z.output<typeof assigneeFilterSchema>

/** Registration time, newest or oldest first; or `aged`: longest in the current status first. */
const listSortSchema = z.enum(['latest', 'oldest', 'aged']).default('latest')

/** Only records in their current status for this many days or more (first seen locally). */
const agedDaysSchema = z.number().int().min(0).max(3650)

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date written YYYY-MM-DD')

/** Every field of a list filter; all but the sort narrow the list when set. */
export const listFilterShape = {
  /** Free text: product name, inspection number, member, ref codes; Korean (초성 too) or English. */
  q: z.string().max(200).default(''),
  /** A status label; null selects records without one; absent: every status. */
  status: z.string().max(100).nullable().optional(),
  /** Exact shop member id (`refUserId`). */
  member: z.string().min(1).max(200).optional(),
  /** Registration days, inclusive, `YYYY-MM-DD`. */
  from: day.optional(),
  to: day.optional(),
  /** Records with this review mark (`none`: unmarked, or only a note). */
  review: z.enum(REVIEW_MARKS).optional(),
  /** Records whose current mark or note was set by this member, by others, or by one login role (docs/team.md). */
  markedBy: markedBySchema.optional(),
  /** Records assigned to this member, to nobody, or to one member (docs/team.md "Assignment"). */
  assignee: assigneeFilterSchema.optional(),
  /** Only records in their current status for this many days or more. */
  agedDays: agedDaysSchema.optional(),
  sort: listSortSchema,
}

/** A list's filter without paging: what a list query, an export and a saved view take. */
export const listFilterSchema = z.strictObject(listFilterShape)

/** A list filter, defaults filled in (absent fields select every record). */
export type ListFilter = z.output<typeof listFilterSchema>
/** A list filter as a caller writes it, defaulted fields optional. */
export type ListFilterInput = z.input<typeof listFilterSchema>
/**
 * One field of a list filter.
 * @internal
 */
export type ListFilterField = keyof ListFilter

/**
 * The filter fields, in their declared order.
 * @internal
 */
export const LIST_FILTER_FIELDS = Object.keys(listFilterShape) as readonly ListFilterField[]

/** A filter with nothing narrowing the list (every field at its default). */
export function emptyListFilter(sort: ListFilter['sort'] = 'latest'): ListFilter {
  return { ...listFilterSchema.parse({}), sort }
}

/** Whether a field's value narrows nothing: absent, or an empty (or blank) text. */
function unset(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && value.trim() === '')
}

/**
 * The fields `filter` sets, empty ones left out (the search text as typed,
 * `''` when blank, and the sort always kept): the form a saved view keeps
 * and a list query or export is sent.
 */
export function compactFilter(filter: ListFilterInput): ListFilter {
  const out: Record<string, unknown> = { q: '', sort: filter.sort ?? 'latest' }
  for (const field of LIST_FILTER_FIELDS) {
    const value = filter[field]
    if (field !== 'sort' && !unset(value)) out[field] = value
  }
  return out as ListFilter
}

/** Whether any field but the sort narrows the list. */
export function narrowsList(filter: ListFilterInput): boolean {
  return LIST_FILTER_FIELDS.some((field) => field !== 'sort' && !unset(filter[field]))
}

/** Whether two filters select the same records in the same order. */
export function sameFilter(a: ListFilterInput, b: ListFilterInput): boolean {
  return stableKey(compactFilter(a)) === stableKey(compactFilter(b))
}

function stableKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableKey(v)}`).join(',')}}`
}

/**
 * The service's own filters that select a superset of what `filter` shows on
 * `resource`'s list (its member, registration days and status; a guarantee's
 * status label as its issuance state): the slice a list fetches before the
 * first full sync has finished. Empty when the filter names none of them.
 */
export function partnerFilter(
  resource: PagedResourceName,
  filter: Partial<ListFilter> & { readonly state?: GuaranteeState | undefined },
): PartnerFilter {
  const status = typeof filter.status === 'string' ? filter.status : undefined
  const nftStatus = filter.state ?? (status === undefined ? null : guaranteeStateOf(status))
  return {
    ...(filter.member ? { refUserId: filter.member } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    ...(resource === 'inspections' && status ? { status } : {}),
    ...(resource === 'guarantees' && nftStatus ? { nftStatus } : {}),
  }
}
