import { PAGED_RESOURCES } from '../../../shared/resources'
import type {
  AgingCount,
  AgingCounts,
  AgingRule,
  ChangeDetail,
  ChangeEntry,
  ChangeKind,
  ChangePage,
  RecordTimeline,
  TimelineStatus,
} from '../../../shared/changes'
import { CHANGE_KINDS } from '../../../shared/changes'
import { GUARANTEE_STATE_LABELS } from '../../../shared/domain'
import { AppError } from '../../app-error'
import { isFields, isOneOf } from '../../plain-checks'
import type { StoreConnection } from '../connection'
import type { PagedResource, RecordRef } from '../record-types'
import { prepared } from '../statements'
import { STATUS_CODE_OF, STATUS_SINCE_LIST, sinceText, sinceValue } from '../schema/status-since'

/**
 * The read side of the changes feed and aging (written by `changes.ts`):
 * the feed newest first, marking entries seen, a record's timeline, and
 * the aging counts (docs/store-and-sync.md "Changes feed and aging").
 */

/** Arguments of {@link listChanges} (parsed by the contract). */
export interface ChangeQuery {
  readonly resource?: PagedResource | undefined
  /** Only these kinds (absent: every kind). */
  readonly kinds?: readonly ChangeKind[] | undefined
  /** `nextBefore` of the previous page: entries with a smaller id. */
  readonly before?: number | undefined
  readonly limit: number
}

interface ChangeRow {
  id: number
  resource: string
  idx: number | null
  kind: string
  detail: string
  sync_id: string
  at: string
  seen: number
}

const COLUMNS = 'id, resource, idx, kind, detail, sync_id, at, seen'

const RESOURCES = PAGED_RESOURCES

/** A stored entry, checked: a damaged row is `store_corrupt`, never a bare crash. */
function entryOf(row: ChangeRow): ChangeEntry {
  let detail: unknown
  try {
    detail = JSON.parse(row.detail)
  } catch {
    detail = null
  }
  // Checked by hand: the owner loads no schema library. The detail is an object of its kind.
  // Its other changes of the same sync (`also`), when there are, are objects of a kind each.
  const detailKind = isFields(detail) ? detail['kind'] : undefined
  const also = isFields(detail) ? detail['also'] : undefined
  const { kind, resource } = row
  if (
    !isOneOf(CHANGE_KINDS, kind) ||
    !isOneOf(RESOURCES, resource) ||
    !isOneOf(CHANGE_KINDS, detailKind) ||
    (also !== undefined &&
      !(
        Array.isArray(also) &&
        also.every((one) => isFields(one) && isOneOf(CHANGE_KINDS, one['kind']))
      ))
  ) {
    throw new AppError('store_corrupt', `The stored change ${row.id} cannot be read.`)
  }
  return {
    id: row.id,
    resource,
    idx: row.idx,
    kind,
    detail: detail as ChangeDetail,
    syncId: row.sync_id,
    at: row.at,
    seen: row.seen !== 0,
  }
}

/** Unseen entries of the whole feed. */
export function unseenChanges(db: StoreConnection): number {
  return (prepared(db, 'SELECT count(*) AS n FROM changes WHERE seen = 0').get() as { n: number }).n
}

/**
 * A page of the feed, newest first. With a kind filter each kind is read
 * from its own index (`changes_by_kind`, or `changes_by_resource` with a
 * list) up to a page and the pages merged, so a rare kind among many
 * entries costs what a common one does.
 */
export function listChanges(db: StoreConnection, query: ChangeQuery): ChangePage {
  const before = query.before ?? Number.MAX_SAFE_INTEGER
  const take = query.limit + 1
  const rows =
    query.kinds === undefined && query.resource === undefined
      ? (prepared(db, `SELECT ${COLUMNS} FROM changes WHERE id < ? ORDER BY id DESC LIMIT ?`).all(
          before,
          take,
        ) as unknown as ChangeRow[])
      : mergeKinds(db, query, query.kinds ?? CHANGE_KINDS, before, take)
  const more = rows.length > query.limit
  const page = rows.slice(0, query.limit)
  return {
    entries: page.map(entryOf),
    nextBefore: more ? (page.at(-1)?.id ?? null) : null,
    unseen: unseenChanges(db),
  }
}

function mergeKinds(
  db: StoreConnection,
  query: ChangeQuery,
  kinds: readonly ChangeKind[],
  before: number,
  take: number,
): ChangeRow[] {
  const byKind =
    query.resource === undefined
      ? prepared(
          db,
          `SELECT ${COLUMNS} FROM changes WHERE kind = ? AND id < ? ORDER BY id DESC LIMIT ?`,
        )
      : prepared(
          db,
          `SELECT ${COLUMNS} FROM changes
           WHERE resource = ? AND kind = ? AND id < ? ORDER BY id DESC LIMIT ?`,
        )
  const rows: ChangeRow[] = []
  for (const kind of new Set(kinds)) {
    const args = query.resource === undefined ? [kind] : [query.resource, kind]
    rows.push(...(byKind.all(...args, before, take) as unknown as ChangeRow[]))
  }
  return rows.sort((a, b) => b.id - a.id).slice(0, take)
}

/** What {@link markChangesSeen} marks: these entries, or every entry up to an id. */
export type MarkSeen = { readonly ids: readonly number[] } | { readonly upTo: number }

/** Marks entries seen; answers how many were marked now and how many stay unseen. */
export function markChangesSeen(
  db: StoreConnection,
  mark: MarkSeen,
): { marked: number; unseen: number } {
  const result =
    'ids' in mark
      ? prepared(
          db,
          'UPDATE changes SET seen = 1 WHERE seen = 0 AND id IN (SELECT value FROM json_each(?))',
        ).run(JSON.stringify(mark.ids))
      : prepared(db, 'UPDATE changes SET seen = 1 WHERE seen = 0 AND id <= ?').run(mark.upTo)
  return { marked: Number(result.changes), unseen: unseenChanges(db) }
}

interface Baseline {
  at: string
  sync_id: string
}

function baselineOf(db: StoreConnection, resource: PagedResource): Baseline | undefined {
  return prepared(db, 'SELECT at, sync_id FROM change_baselines WHERE resource = ?').get(
    resource,
  ) as Baseline | undefined
}

/**
 * A record's statuses in the order first seen: the one it held at the
 * list's baseline (when it was stored then), then each seen after, with
 * the sync that saw it; and its feed entries. `not_found` for an idx the
 * cache does not hold.
 */
export function recordTimeline(db: StoreConnection, ref: RecordRef): RecordTimeline {
  const { resource, idx } = ref
  const record = prepared(db, `SELECT status, gone_at FROM ${resource} WHERE idx = ?`).get(idx) as
    { status: string | null; gone_at: string | null } | undefined
  if (record === undefined) {
    throw new AppError('not_found', `No stored ${resource} record ${idx}.`)
  }
  const changes = (
    prepared(db, `SELECT ${COLUMNS} FROM changes WHERE resource = ? AND idx = ? ORDER BY id`).all(
      resource,
      idx,
    ) as unknown as ChangeRow[]
  ).map(entryOf)
  const history = prepared(
    db,
    `SELECT status, first_seen, sync_id FROM status_history
     WHERE resource = ? AND idx = ? ORDER BY first_seen`,
  ).all(resource, idx) as { status: string; first_seen: string; sync_id: string }[]
  const statuses: TimelineStatus[] = []
  const baseline = baselineOf(db, resource)
  const arrived = changes.some((c) => c.kind === 'new')
  if (baseline !== undefined && !arrived) {
    const moved = changes
      .flatMap((c) => [c.detail, ...(c.detail.also ?? [])])
      .find((facts) => facts.kind === 'status' || facts.kind === 'state')
    let status = record.status
    if (moved?.kind === 'status') status = moved.before
    if (moved?.kind === 'state') status = moved.beforeLabel
    statuses.push({ status, firstSeen: baseline.at, syncId: baseline.sync_id, baseline: true })
  }
  for (const h of history) {
    statuses.push({
      status: h.status === '' ? null : h.status,
      firstSeen: h.first_seen,
      syncId: h.sync_id,
      baseline: false,
    })
  }
  let currentSince: string | null = null
  let currentSinceBound = false
  if (record.gone_at === null) {
    const since = prepared(
      db,
      'SELECT since, bound FROM status_since WHERE list = ? AND idx = ?',
    ).get(STATUS_SINCE_LIST[resource], idx) as { since: number; bound: number } | undefined
    currentSince = since ? sinceText(Number(since.since)) : (baseline?.at ?? null)
    currentSinceBound = since?.bound === 1
  }
  return { resource, idx, statuses, currentSince, currentSinceBound, changes }
}

/** The aging thresholds in days (settings `agingDays`). */
export type AgingThresholds = Readonly<Record<AgingRule, number>>

/** The list and status each aging rule watches. */
const AGING_STATUSES: Readonly<Record<AgingRule, { resource: PagedResource; status: string }>> = {
  guaranteeReady: { resource: 'guarantees', status: GUARANTEE_STATE_LABELS.ready },
  inspectionShipping: { resource: 'inspections', status: '감정승인(배송중)' },
}

/** The instant `days` days before `now` (ISO), the cutoff of "for `days` days or more". */
export function agingCutoff(now: string, days: number): string {
  return new Date(Date.parse(now) - days * 86_400_000).toISOString()
}

/**
 * Records (not gone) of `resource` in `status` since `cutoff` or earlier.
 * Every stored record has a `status_since` row from the first sync that saw
 * it (`changes.ts`), so the aged ones are the list's count of that status
 * (`list_counts`) less the rows after the cutoff: the count reads the
 * stored counts and the recent end of one index, never the list.
 * @internal
 */
export function agedCount(
  db: StoreConnection,
  resource: PagedResource,
  status: string,
  cutoff: string,
): number {
  const total = (
    prepared(
      db,
      `SELECT ifnull(sum(n), 0) AS n FROM list_counts
       WHERE resource = ? AND has_status = 1 AND status = ?`,
    ).get(resource, status) as { n: number }
  ).n
  const recent = (
    prepared(
      db,
      `SELECT count(*) AS n FROM status_since
       WHERE list = ? AND status = ${STATUS_CODE_OF} AND since > ?`,
    ).get(STATUS_SINCE_LIST[resource], status, sinceValue(cutoff)) as { n: number }
  ).n
  return Math.max(0, total - recent)
}

/** The counts of records each aging rule flags at `now` (ISO). */
export function agingCounts(
  db: StoreConnection,
  args: { now: string; days: AgingThresholds },
): AgingCounts {
  const rules: AgingCount[] = (Object.keys(AGING_STATUSES) as AgingRule[]).map((rule) => {
    const { resource, status } = AGING_STATUSES[rule]
    const days = args.days[rule]
    return {
      rule,
      resource,
      status,
      days,
      count: agedCount(db, resource, status, agingCutoff(args.now, days)),
    }
  })
  return { at: args.now, rules }
}
