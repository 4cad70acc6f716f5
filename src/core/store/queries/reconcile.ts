import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../connection'
import {
  RECONCILE_KINDS,
  type ReconcileGroup,
  type ReconcileKind,
  type ReconcilePage,
  type ReconcileRecord,
  type ReconcileTotals,
} from '../../../shared/reconcile'
import { AppError } from '../../app-error'
import { planSearch } from '../search/search-text'
import { prepared } from '../statements'

/**
 * The reconciliation view's queries over `reconcile_items`,
 * `reconcile_members` and `reconcile_counts`, which the writer
 * (`reconcile-writes.ts`) and triggers keep (migrations 13 and 15, see
 * `migrations/0015-reconcile-by-member.ts`): a page walks the primary key
 * (kind, member, order line), `unlinked` members after the other kinds, and
 * the totals are four small rows. Pure `(db, args)` functions with `?`
 * parameters.
 */

/** The unlinked kind (the last in key order): kept per member, not per record. */
const UNLINKED: ReconcileKind = 'unlinked'

/** Filter and keyset paging of {@link queryReconcile}. */
export interface ReconcileQuery {
  readonly kind?: ReconcileKind | undefined
  /** Member ids that start with this (as staff type it). */
  readonly member?: string | undefined
  /** Groups per page (default 50, at most 500). */
  readonly limit?: number | undefined
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

/**
 * The members whose id starts with `prefix`, as a range of the primary key
 * (`member >= prefix AND member < prefix || U+10FFFF`): a page and its
 * totals walk the index, never the table.
 */
function memberRange(prefix: string): { sql: string; params: SQLInputValue[] } {
  return { sql: 'member >= ? AND member < ?', params: [prefix, `${prefix}\u{10FFFF}`] }
}

/** The position of a group: kind, member, order id, detail id (`''` where none). */
type GroupKey = [string, string, string, string]

function encodeCursor(key: GroupKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

function decodeCursor(cursor: string): GroupKey {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (
      Array.isArray(value) &&
      value.length === 4 &&
      value.every((part) => typeof part === 'string')
    ) {
      return value as GroupKey
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_argument', 'The page cursor is not valid.')
}

/**
 * Records per kind: from the counts the triggers keep, or, for members whose
 * id starts with `member`, counted over their part of the primary keys.
 */
export function reconcileTotals(db: StoreConnection, member?: string): ReconcileTotals {
  const totals = Object.fromEntries(RECONCILE_KINDS.map((kind) => [kind, 0])) as Record<
    ReconcileKind,
    number
  >
  const rows =
    member === undefined
      ? (prepared(db, 'SELECT kind, n FROM reconcile_counts').all() as {
          kind: string
          n: number
        }[])
      : membersTotals(db, member)
  for (const row of rows) {
    if ((RECONCILE_KINDS as readonly string[]).includes(row.kind)) {
      totals[row.kind as ReconcileKind] = row.n
    }
  }
  return totals
}

/** Records per kind of the members whose id starts with `member` (unlinked: their guarantees). */
function membersTotals(db: StoreConnection, member: string): { kind: string; n: number }[] {
  const range = memberRange(member)
  const items = RECONCILE_KINDS.filter((kind) => kind !== UNLINKED).map((kind) => ({
    kind,
    n: (
      prepared(db, `SELECT count(*) AS n FROM reconcile_items WHERE kind = ? AND ${range.sql}`).get(
        kind,
        ...range.params,
      ) as { n: number }
    ).n,
  }))
  const unlinked = prepared(
    db,
    `SELECT ifnull(sum(guarantees), 0) AS n FROM reconcile_members
     WHERE linked = 0 AND guarantees > 0 AND ${range.sql}`,
  ).get(...range.params) as { n: number }
  return [...items, { kind: UNLINKED, n: unlinked.n }]
}

interface GroupRow {
  kind: ReconcileKind
  member: string
  order_id: string
  detail_id: string
  n: number
  records: string
}

/** A page of groups in (kind, member, order line) order, with the totals per kind. */
export function queryReconcile(db: StoreConnection, query: ReconcileQuery): ReconcilePage {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 500)
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  const rows = query.kind === UNLINKED ? [] : itemGroups(db, query, cursor, limit + 1)
  if (rows.length <= limit && (query.kind === undefined || query.kind === UNLINKED)) {
    rows.push(...unlinkedGroups(db, query.member, cursor, limit + 1 - rows.length))
  }
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  const totals = reconcileTotals(db, query.member)
  const last = page.at(-1)
  return {
    rows: page.map(groupOf),
    totals,
    total: query.kind ? totals[query.kind] : RECONCILE_KINDS.reduce((s, k) => s + totals[k], 0),
    nextCursor:
      more && last ? encodeCursor([last.kind, last.member, last.order_id, last.detail_id]) : null,
  }
}

/** Groups of the kinds kept per record (`reconcile_items`), after `cursor`. */
function itemGroups(
  db: StoreConnection,
  query: ReconcileQuery,
  cursor: GroupKey | null,
  limit: number,
): GroupRow[] {
  const where: string[] = []
  const params: SQLInputValue[] = []
  if (query.kind) {
    where.push('kind = ?')
    params.push(query.kind)
  }
  if (query.member !== undefined) {
    const range = memberRange(query.member)
    where.push(range.sql)
    params.push(...range.params)
  }
  if (cursor) {
    where.push('(kind, member, order_id, detail_id) > (?, ?, ?, ?)')
    params.push(...cursor)
  }
  return prepared(
    db,
    `SELECT kind, member, order_id, detail_id, count(*) AS n,
       json_group_array(json_array(resource, idx)) AS records
     FROM reconcile_items ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     GROUP BY kind, member, order_id, detail_id
     ORDER BY kind, member, order_id, detail_id LIMIT ?`,
  ).all(...params, limit) as unknown as GroupRow[]
}

/**
 * Groups of `unlinked` members after `cursor` (`reconcile_members` in key
 * order), each with its not-gone guarantees, found by the member id's words
 * in the search index as the lists' member filter finds them (an id without
 * a word is compared on every row).
 */
function unlinkedGroups(
  db: StoreConnection,
  member: string | undefined,
  cursor: GroupKey | null,
  limit: number,
): GroupRow[] {
  if (limit <= 0 || (cursor && cursor[0] > UNLINKED)) return []
  const where = ['linked = 0', 'guarantees > 0']
  const params: SQLInputValue[] = []
  if (member !== undefined) {
    const range = memberRange(member)
    where.push(range.sql)
    params.push(...range.params)
  }
  if (cursor?.[0] === UNLINKED) {
    where.push('member > ?')
    params.push(cursor[1])
  }
  const members = prepared(
    db,
    `SELECT member FROM reconcile_members WHERE ${where.join(' AND ')} ORDER BY member LIMIT ?`,
  ).all(...params, limit) as { member: string }[]
  return members.map(({ member: id }) => {
    const idx = memberGuarantees(db, id)
    return {
      kind: UNLINKED,
      member: id,
      order_id: '',
      detail_id: '',
      n: idx.length,
      records: JSON.stringify(idx.map((i) => ['guarantees', i])),
    }
  })
}

/** The not-gone guarantees of a member, in `idx` order. */
function memberGuarantees(db: StoreConnection, member: string): number[] {
  const plan = planSearch(member)
  const rows =
    plan.kind === 'match'
      ? prepared(
          db,
          `SELECT g.idx FROM guarantees_fts f CROSS JOIN guarantees g ON g.idx = f.rowid
           WHERE guarantees_fts MATCH ? AND g.ref_user_id = ? AND g.gone_at IS NULL
           ORDER BY g.idx`,
        ).all(plan.match.replace(/ \*$/u, ''), member)
      : prepared(
          db,
          'SELECT idx FROM guarantees WHERE ref_user_id = ? AND gone_at IS NULL ORDER BY idx',
        ).all(member)
  return (rows as { idx: number }[]).map((row) => row.idx)
}

function groupOf(row: GroupRow): ReconcileGroup {
  const records = (JSON.parse(row.records) as [ReconcileRecord['resource'], number][])
    .map(([resource, idx]): ReconcileRecord => ({ resource, idx }))
    .sort((a, b) => a.idx - b.idx)
  return {
    kind: row.kind,
    member: row.member === '' ? null : row.member,
    orderId: row.order_id === '' ? null : row.order_id,
    orderDetailId: row.detail_id === '' ? null : row.detail_id,
    count: row.n,
    records,
  }
}

/** Every group of the filter, page by page (the export's walk). */
export function* reconcileGroups(
  db: StoreConnection,
  query: Omit<ReconcileQuery, 'limit' | 'cursor'>,
): Generator<ReconcileGroup> {
  let cursor: string | undefined
  do {
    const page = queryReconcile(db, { ...query, limit: 500, ...(cursor ? { cursor } : {}) })
    yield* page.rows
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}
