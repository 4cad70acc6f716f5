import type { StoreConnection } from '../connection'
import type { RejectedPage, RejectedRecord } from '../../../shared/lists'
import { AppError } from '../../app-error'
import { prepared } from '../statements'
import type { PagedResource } from '../record-types'
import type { PageRejects } from '../write/page-write'
import { bumpDataVersion } from '../data-version'

/**
 * Records a sync refused (`rejected_records`, migration 5): kept with why,
 * listed by `sync.rejected`, cleared when the record comes back valid. Pure
 * `(db, args)` functions; writes run inside the page's transaction.
 */

/**
 * The most refused records kept per resource; older ones are dropped first.
 * @internal
 */
export const REJECTED_KEEP = 1000

/**
 * Stores a page's refused items. A record refused again replaces its
 * earlier entry (by `idx`, or by its JSON when it had no readable `idx`),
 * so a re-sync never piles up copies; past {@link REJECTED_KEEP} per
 * resource the oldest go.
 */
export function storeRejected(
  db: StoreConnection,
  resource: PagedResource,
  rejects: PageRejects,
  at: string,
): void {
  if (rejects.items.length === 0) return
  const dropByIdx = db.prepare('DELETE FROM rejected_records WHERE resource = ? AND idx = ?')
  const dropByRaw = db.prepare(
    'DELETE FROM rejected_records WHERE resource = ? AND idx IS NULL AND raw = ?',
  )
  const insert = db.prepare(
    `INSERT INTO rejected_records (resource, idx, page, position, field, reason, problems, raw,
       raw_truncated, rejected_at)
     VALUES (:resource, :idx, :page, :position, :field, :reason, :problems, :raw, :raw_truncated,
       :rejected_at)`,
  )
  for (const item of rejects.items) {
    if (item.idx === null) dropByRaw.run(resource, item.raw)
    else dropByIdx.run(resource, item.idx)
    insert.run({
      resource,
      idx: item.idx,
      page: rejects.page,
      position: item.position,
      field: item.field,
      reason: item.reason,
      problems: JSON.stringify(item.problems),
      raw: item.raw,
      raw_truncated: item.rawTruncated ? 1 : 0,
      rejected_at: at,
    })
  }
  db.prepare(
    `DELETE FROM rejected_records WHERE resource = :resource AND id <= (
       SELECT id FROM rejected_records WHERE resource = :resource
       ORDER BY id DESC LIMIT 1 OFFSET :keep)`,
  ).run({ resource, keep: REJECTED_KEEP })
  bumpDataVersion(db)
}

/** Forgets the refused entries of records that came back valid (a no-op while none is kept). */
export function clearAccepted(
  db: StoreConnection,
  resource: PagedResource,
  idxs: readonly number[],
): void {
  if (idxs.length === 0) return
  const any = prepared(db, 'SELECT 1 FROM rejected_records WHERE resource = ? LIMIT 1').get(
    resource,
  )
  if (any === undefined) return
  const drop = prepared(db, 'DELETE FROM rejected_records WHERE resource = ? AND idx = ?')
  for (const idx of idxs) drop.run(resource, idx)
  bumpDataVersion(db)
}

/** What `sync.rejected` asks. */
export interface RejectedQuery {
  readonly resource?: PagedResource | undefined
  readonly limit: number
  /** Only entries older than this id (the previous page's `nextBefore`). */
  readonly before?: number | undefined
}

/** Kept refused records, newest first, a page at a time. */
export function listRejected(db: StoreConnection, query: RejectedQuery): RejectedPage {
  const filter = '(:resource IS NULL OR resource = :resource)'
  const params = { resource: query.resource ?? null }
  const rows = db
    .prepare(
      `SELECT * FROM rejected_records WHERE ${filter} AND id < :before
       ORDER BY id DESC LIMIT :limit`,
    )
    .all({ ...params, before: query.before ?? Number.MAX_SAFE_INTEGER, limit: query.limit + 1 })
  const total = db
    .prepare(`SELECT count(*) AS n FROM rejected_records WHERE ${filter}`)
    .get(params) as { n: number }
  const items = rows.slice(0, query.limit).map((row) => rejectedOf(row))
  return {
    items,
    total: total.n,
    nextBefore: rows.length > query.limit ? (items.at(-1)?.id ?? null) : null,
  }
}

/** A stored row, checked: a damaged one is a `store_corrupt` error naming it. */
function rejectedOf(row: Record<string, unknown>): RejectedRecord {
  const damaged = (why: string): AppError =>
    new AppError(
      'store_corrupt',
      `Stored refused record ${String(row['id'])} cannot be read: ${why}.`,
    )
  const text = (key: string): string => {
    const value = row[key]
    if (typeof value !== 'string') throw damaged(`${key} is not text`)
    return value
  }
  const int = (key: string): number => {
    const value = row[key]
    if (!Number.isSafeInteger(value)) throw damaged(`${key} is not a whole number`)
    return value as number
  }
  const resource = text('resource')
  if (resource !== 'guarantees' && resource !== 'inspections') throw damaged('unknown resource')
  let problems: unknown
  try {
    problems = JSON.parse(text('problems'))
  } catch {
    throw damaged('problems is not JSON')
  }
  if (!Array.isArray(problems) || !problems.every((p) => typeof p === 'string')) {
    throw damaged('problems is not a list of text')
  }
  return {
    id: int('id'),
    resource,
    idx: row['idx'] === null ? null : int('idx'),
    page: int('page'),
    position: int('position'),
    field: text('field'),
    reason: text('reason'),
    problems,
    raw: text('raw'),
    rawTruncated: int('raw_truncated') === 1,
    rejectedAt: text('rejected_at'),
  }
}
