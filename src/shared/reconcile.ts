import type { PagedResourceName } from './resources'
/**
 * Reconciliation as the renderer sees it: records that do not add up,
 * grouped by member and order line, each group with its records so the
 * screen can open them.
 */

/**
 * The kinds: an authentic (`정품`) inspection whose order line has no
 * guarantee; a cancelled guarantee; a guarantee whose member never completed
 * a wallet link; guarantees of one member sharing one order line.
 */
export const RECONCILE_KINDS = ['unguaranteed', 'cancelled', 'unlinked', 'duplicate'] as const
/** One of {@link RECONCILE_KINDS}. */
export type ReconcileKind = (typeof RECONCILE_KINDS)[number]

/** A record a group holds: its list and `idx` (what opens it). */
export interface ReconcileRecord {
  readonly resource: PagedResourceName
  readonly idx: number
}

/** One group of the view: a kind, a member and an order line, with its records. */
export interface ReconcileGroup {
  readonly kind: ReconcileKind
  /** Null when the records carry no member. */
  readonly member: string | null
  /** Null for `unlinked` (grouped by member) and where the records carry none. */
  readonly orderId: string | null
  readonly orderDetailId: string | null
  /** Number of records in the group. */
  readonly count: number
  /** The group's records, in `idx` order. */
  readonly records: readonly ReconcileRecord[]
}

/** Records per kind. */
export type ReconcileTotals = Readonly<Record<ReconcileKind, number>>

/** Answer of `reconcile.list`: a page of groups by kind, member and order line. */
export interface ReconcilePage {
  readonly rows: readonly ReconcileGroup[]
  /** Records per kind of the filter's members (every member when none), whatever its kind. */
  readonly totals: ReconcileTotals
  /** Records of the filter: its kind (all kinds when none) and its members. */
  readonly total: number
  /** Pass as `cursor` for the next page; null on the last. */
  readonly nextCursor: string | null
}
