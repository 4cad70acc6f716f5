import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../connection'
import { queueWalletLinkEvent, teamIdentity } from '../team-side'
import type {
  WalletFlowKind,
  WalletHistoryPage,
  WalletHistoryRow,
  WalletOutcomeName,
} from '../../../shared/wallet'

/**
 * The wallet-link history of one profile, in `wallet_links` (migration 1).
 * Pure `(db, args)` functions with `?` parameters, so they can move into the
 * profile's database worker as they are. A row never holds a key or a URL:
 * only the flow, member, guarantee, outcome, a reason or the redirect's
 * parameters as text, and the times.
 */

/** One ended flow to record: a history row before it has an id, its end known. */
export type WalletLinkInput = Omit<WalletHistoryRow, 'id' | 'endedAt'> & {
  readonly endedAt: string
}

/** Filters of {@link queryWalletLinks}; all optional. */
export interface WalletHistoryFilter {
  readonly flow?: WalletFlowKind | undefined
  readonly outcome?: WalletOutcomeName | undefined
  /** Exact member id. */
  readonly member?: string | undefined
  /** Exact guarantee idx. */
  readonly guaranteeIdx?: number | undefined
  /** Newest first; at most this many rows (all when absent). */
  readonly limit?: number | undefined
}

/**
 * Records an ended flow; answers its row id. With a team server the outcome
 * is queued for the team too: the reason of a refused, failed or cancelled
 * flow, never a completion's redirect parameters.
 */
export function insertWalletLink(db: StoreConnection, input: WalletLinkInput): number {
  const result = db
    .prepare(
      `INSERT INTO wallet_links (flow, ref_user_id, guarantee_idx, outcome, detail, started_at, ended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.flow,
      input.refUserId,
      input.guaranteeIdx,
      input.outcome,
      input.detail,
      input.startedAt,
      input.endedAt,
    )
  const id = Number(result.lastInsertRowid)
  const identity = teamIdentity(db)
  if (identity) {
    queueWalletLinkEvent(db, identity, id, {
      flow: input.flow,
      refUserId: input.refUserId,
      guaranteeIdx: input.guaranteeIdx,
      outcome: input.outcome,
      reason: input.outcome === 'completed' ? null : input.detail,
      startedAt: input.startedAt,
      endedAt: input.endedAt,
    })
  }
  return id
}

interface LinkRow {
  id: number
  flow: WalletFlowKind
  ref_user_id: string
  guarantee_idx: number | null
  outcome: WalletOutcomeName
  detail: string | null
  started_at: string
  ended_at: string | null
  author: string | null
}

/** Past flows matching the filter, newest first, with the number that match. */
export function queryWalletLinks(
  db: StoreConnection,
  filter: WalletHistoryFilter,
): WalletHistoryPage {
  const where: string[] = []
  const params: SQLInputValue[] = []
  if (filter.flow) {
    where.push('flow = ?')
    params.push(filter.flow)
  }
  if (filter.outcome) {
    where.push('outcome = ?')
    params.push(filter.outcome)
  }
  if (filter.member) {
    where.push('ref_user_id = ?')
    params.push(filter.member)
  }
  if (filter.guaranteeIdx !== undefined) {
    where.push('guarantee_idx = ?')
    params.push(filter.guaranteeIdx)
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
  const { total } = db
    .prepare(`SELECT count(*) AS total FROM wallet_links ${clause}`)
    .get(...params) as { total: number }
  const limit = filter.limit === undefined ? '' : 'LIMIT ?'
  const rows = db
    .prepare(
      `SELECT id, flow, ref_user_id, guarantee_idx, outcome, detail, started_at, ended_at, author
       FROM wallet_links ${clause} ORDER BY started_at DESC, id DESC ${limit}`,
    )
    .all(...params, ...(filter.limit === undefined ? [] : [filter.limit])) as unknown as LinkRow[]
  return {
    total,
    rows: rows.map((row): WalletHistoryRow => ({
      id: row.id,
      flow: row.flow,
      refUserId: row.ref_user_id,
      guaranteeIdx: row.guarantee_idx,
      outcome: row.outcome,
      detail: row.detail,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      ...(row.author === null ? {} : { by: row.author }),
    })),
  }
}

/**
 * The `guaranteeToken` the service sent with a stored guarantee, if any. It
 * is not a typed column: unknown and optional fields live in `raw` (see
 * `stored-raw.ts`).
 */
export function storedGuaranteeToken(db: StoreConnection, idx: number): string | null {
  const row = db.prepare('SELECT raw FROM guarantees WHERE idx = ?').get(idx) as
    { raw: string } | undefined
  if (!row) return null
  try {
    const token = (JSON.parse(row.raw) as Record<string, unknown>)['guaranteeToken']
    return typeof token === 'string' && token.trim() !== '' ? token.trim() : null
  } catch {
    return null
  }
}
