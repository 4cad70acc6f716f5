/**
 * The resources the app keeps, declared once: every list of them, type and
 * schema elsewhere derives from these (`z.enum(PAGED_RESOURCES)`,
 * `PagedResourceName`). Store migrations are the exception: they spell the
 * table names out, because a migration keeps doing what it did when it ran.
 */

/**
 * The paged record lists, in the order a sync runs them. These are also
 * the resources whose records a sync may refuse and keep (`sync.rejected`).
 */
export const PAGED_RESOURCES = ['inspections', 'guarantees'] as const
/** One of {@link PAGED_RESOURCES}. */
export type PagedResourceName = (typeof PAGED_RESOURCES)[number]

/** Whether `value` names a paged list: the one check, for names that arrive as any text (events, the team server, views). */
export function isPagedResource(value: unknown): value is PagedResourceName {
  return (PAGED_RESOURCES as readonly unknown[]).includes(value)
}

/** The resources the sync engine keeps, in the order a sync runs them: the brand list first. */
export const SYNC_RESOURCES = ['brands', ...PAGED_RESOURCES] as const
/** One of {@link SYNC_RESOURCES}. */
export type SyncResourceName = (typeof SYNC_RESOURCES)[number]
