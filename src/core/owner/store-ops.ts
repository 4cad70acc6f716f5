import type { StoreConnection } from '../store/connection'
import type { ExportFormat } from '../../shared/export'
import type { ListExport } from '../export/list-csv'
import type { ReconcileExport } from '../export/reconcile-export'
import type { ChangesExport } from '../export/changes-export'
import type * as OwnerExports from '../export/owner-exports'
import { cellIndexesReady } from '../store/search/cell-index'
import { transaction } from '../store/schema/database'
import { dashboard, type DashboardAsk } from '../store/queries/dashboard'
import type { PageWriteRequest } from '../store/write/page-write'
import { replaceBrands, writePageBatch } from '../store/write/writes'
import { searchBrands } from '../store/queries/brand-search'
import {
  listIdxs,
  locateRecord,
  queryGuarantees,
  queryInspections,
  recordCount,
} from '../store/queries/list-queries'
import type { GuaranteeListRequest, ListRequest } from '../store/queries/list-sql'
import type { BrandRecord, PagedResource, SyncResource } from '../store/record-types'
import {
  agingCounts,
  listChanges,
  markChangesSeen,
  recordTimeline,
  unseenChanges,
  type AgingThresholds,
  type ChangeQuery,
  type MarkSeen,
} from '../store/queries/change-queries'
import type { RecordRef } from '../store/record-types'
import { queryReconcile, type ReconcileQuery } from '../store/queries/reconcile'
import { listRejected, type RejectedQuery } from '../store/queries/rejected'
import {
  restoreReviews,
  reviewSnapshots,
  setReview,
  setReviews,
  type ReviewInput,
  type ReviewsInput,
} from '../store/queries/reviews'
import { readSyncState, writeSyncState, type SyncStateRow } from '../store/sync-state'
import { setAssignments, type AssignmentSnapshot } from '../store/team-assignments'
import {
  insertWalletLink,
  queryWalletLinks,
  storedGuaranteeToken,
  type WalletHistoryFilter,
  type WalletLinkInput,
} from '../store/queries/wallet-history'
import { fillStatusBounds } from '../store/write/changes'
import {
  memberNames,
  teamIdentity,
  ackChanged,
  ackOutbox,
  applyPulled,
  configureTeam,
  countOutbox,
  discardSetAside,
  lastPulledSeq,
  listSetAside,
  readOutbox,
  reviewHistory,
  setAsideEvents,
  teamMembers,
  type PulledApply,
  type TeamConfigure,
} from '../store/team-side'
import { writeStats } from '../store/write/write-stats'
import { changesSince, compareNewest, oldestMoving, type ProbeRow } from '../live/store-probe'
import type { SetAsideEntry } from '../store/team-events'

/** The stored state and record count of every resource (one read for `sync.status`). */
export interface SyncSnapshot {
  readonly states: Readonly<Record<SyncResource, SyncStateRow>>
  readonly counts: Readonly<Record<SyncResource, number>>
}

/** A fetched brand list and its sync-state change, committed together. */
export interface BrandsWrite {
  readonly items: readonly BrandRecord[]
  readonly rejected: number
  readonly at: string
}

/** The export code, once loaded (`export/owner-exports.ts`). */
let exportCode: typeof OwnerExports | null = null

/**
 * Runs `build` with the export code. The first export waits for it to load
 * (requests queued behind may run first); every later one reads its rows at
 * once, before the next request, as the other operations do.
 */
function withExports<T>(build: (code: typeof OwnerExports) => Promise<T>): Promise<T> {
  if (exportCode) return build(exportCode)
  return import('../export/owner-exports').then((code) => build((exportCode = code)))
}

/**
 * Every operation the profile's database owner runs, by name: a function of
 * the owner's connection and one structured-cloneable argument. The worker
 * dispatches on this table and the main thread's request and answer types
 * derive from it, so a new query is one line here. Writes run in their own
 * `BEGIN IMMEDIATE` transaction; page writes are batched by the worker
 * (`writePage` is handled there, see `owner/worker.ts`).
 */
export const STORE_OPS = {
  queryInspections: (db: StoreConnection, query: ListRequest) => queryInspections(db, query),
  queryGuarantees: (db: StoreConnection, query: GuaranteeListRequest) => queryGuarantees(db, query),
  searchBrands: (db: StoreConnection, query: string) => ({
    ...searchBrands(db, query),
    state: readSyncState(db, 'brands'),
  }),
  readSyncState: (db: StoreConnection, resource: SyncResource) => readSyncState(db, resource),
  writeSyncState: (
    db: StoreConnection,
    change: { resource: SyncResource; patch: Partial<Omit<SyncStateRow, 'resource'>> },
  ) => transaction(db, () => writeSyncState(db, change.resource, change.patch)),
  syncSnapshot: (db: StoreConnection): SyncSnapshot => ({
    states: mapResources((resource) => readSyncState(db, resource)),
    counts: mapResources((resource) => recordCount(db, resource)),
  }),
  writePage: (db: StoreConnection, request: PageWriteRequest): void =>
    writePageBatch(db, [request]),
  writeBrands: (db: StoreConnection, write: BrandsWrite) =>
    transaction(db, () => {
      const pass = readSyncState(db, 'brands').pass + 1
      replaceBrands(db, write.items, pass, write.at)
      writeSyncState(db, 'brands', {
        status: 'idle',
        mode: 'full',
        pass,
        lastSuccessAt: write.at,
        lastFullAt: write.at,
        lastError: null,
        rejected: write.rejected,
      })
    }),
  listRejected: (db: StoreConnection, query: RejectedQuery) => listRejected(db, query),
  /** Every number of the dashboard (`dashboard.ts`). */
  dashboard: (db: StoreConnection, ask: DashboardAsk) => dashboard(db, ask),
  /** A page of the reconciliation view and its totals per kind (`reconcile.ts`). */
  queryReconcile: (db: StoreConnection, query: ReconcileQuery) => queryReconcile(db, query),
  storedGuaranteeToken: (db: StoreConnection, idx: number) => storedGuaranteeToken(db, idx),
  queryWalletLinks: (db: StoreConnection, filter: WalletHistoryFilter) =>
    queryWalletLinks(db, filter),
  insertWalletLink: (db: StoreConnection, input: WalletLinkInput) =>
    transaction(db, () => insertWalletLink(db, input)),
  setReview: (db: StoreConnection, input: ReviewInput) =>
    transaction(db, () => setReview(db, input)),
  /** One record's mark, and its state before (the session's undo keeps it). */
  setReviewUndoable: (db: StoreConnection, input: ReviewInput) =>
    transaction(db, () => {
      const [previous] = reviewSnapshots(db, input.resource, [input.idx])
      return { mark: setReview(db, input), previous: previous! }
    }),
  /** A mark and/or note on many records (`reviews.setMany`): by idx, or every row of a filter. */
  setReviews: (
    db: StoreConnection,
    input: Omit<ReviewsInput, 'idxs'> & {
      readonly idxs?: readonly number[] | undefined
      readonly filter?: GuaranteeListRequest | undefined
    },
  ) =>
    transaction(db, () =>
      setReviews(db, {
        ...input,
        idxs: input.idxs ?? listIdxs(db, input.resource, input.filter ?? {}),
      }),
    ),
  /**
   * Assigns records (by idx, or every row of a filter) to a team member or to
   * nobody (`assignments.set`), or gives them back earlier assignees (an
   * undo, `restores`). Answers `member: false` for an assignee who is not on
   * the team as the worker last read it: the server would refuse the event.
   */
  setAssignments: (
    db: StoreConnection,
    input: {
      readonly resource: PagedResource
      readonly idxs?: readonly number[] | undefined
      readonly filter?: GuaranteeListRequest | undefined
      readonly assignee?: string | null
      readonly restores?: readonly AssignmentSnapshot[]
      readonly clientTime: string
    },
  ) =>
    transaction(db, () => {
      const identity = teamIdentity(db)
      const assignee = input.assignee ?? null
      if (identity && assignee !== null && !(assignee in memberNames(db)))
        return { team: true, member: false, changed: 0, previous: [] }
      const changed = setAssignments(db, identity, {
        resource: input.resource,
        idxs: input.restores
          ? []
          : (input.idxs ?? listIdxs(db, input.resource, input.filter ?? {})),
        assignee,
        ...(input.restores ? { restores: input.restores } : {}),
        clientTime: input.clientTime,
      })
      return { ...changed, member: true }
    }),
  /** An undo: records back to the states of a snapshot, as new events. */
  restoreReviews: (db: StoreConnection, input: Parameters<typeof restoreReviews>[1]) =>
    transaction(db, () => restoreReviews(db, input)),
  /** Whether the profile shares with a team server and as whom (`team-side.ts`). */
  teamConfigure: (db: StoreConnection, input: TeamConfigure) =>
    transaction(db, () => configureTeam(db, input)),
  teamReadOutbox: (db: StoreConnection, limit: number) => readOutbox(db, limit),
  teamCountOutbox: (db: StoreConnection) => countOutbox(db),
  teamSetAside: (db: StoreConnection, input: { entries: readonly SetAsideEntry[]; at: string }) =>
    transaction(db, () => setAsideEvents(db, input)),
  /** The events set aside, for a person to look at (`team.setAside`). */
  teamListSetAside: (db: StoreConnection) => listSetAside(db),
  teamDiscard: (db: StoreConnection, input: { ids: readonly string[]; timeZone: string }) =>
    transaction(db, () => discardSetAside(db, input)),
  teamAckOutbox: (db: StoreConnection, ids: readonly string[]) =>
    transaction(db, () => ackOutbox(db, ids)),
  teamLastSeq: (db: StoreConnection) => lastPulledSeq(db),
  teamApplyPulled: (db: StoreConnection, page: PulledApply) =>
    transaction(db, () => applyPulled(db, page)),
  reviewHistory: (db: StoreConnection, query: RecordRef) => reviewHistory(db, query),
  /** This member and the people whose marks the lists can be filtered by. */
  teamMembers: (db: StoreConnection) => teamMembers(db),
  reviewAckChanged: (db: StoreConnection, query: RecordRef) =>
    transaction(db, () => ackChanged(db, query)),
  /** Whether the lists' cell indexes are built yet (`cell-index.ts`; the bench waits for it). */
  cellIndexesReady: (db: StoreConnection) => cellIndexesReady(db),
  /** Records, pages, commits and thread time of the page writes so far (the bench reads it). */
  writeStats: (_db: StoreConnection) => writeStats(),
  /** The changes feed, newest first (`change-queries.ts`). */
  listChanges: (db: StoreConnection, query: ChangeQuery) => listChanges(db, query),
  markChangesSeen: (db: StoreConnection, mark: MarkSeen) =>
    transaction(db, () => markChangesSeen(db, mark)),
  unseenChanges: (db: StoreConnection) => unseenChanges(db),
  recordTimeline: (db: StoreConnection, ref: RecordRef) => recordTimeline(db, ref),
  /** The live schedule's poll: a page of the newest records against the stored rows (read only). */
  liveCompare: (
    db: StoreConnection,
    ask: { readonly resource: PagedResource; readonly rows: readonly ProbeRow[] },
  ) => compareNewest(db, ask),
  /** The oldest registration among records that can still move (`live/store-probe.ts`). */
  liveOldestMoving: (
    db: StoreConnection,
    ask: { readonly resource: PagedResource; readonly from: string },
  ) => oldestMoving(db, ask),
  /** Result and state entries of the changes feed after an id, for notifications (read only). */
  liveChangesSince: (
    db: StoreConnection,
    ask: { readonly after: number; readonly limit: number },
  ) => changesSince(db, ask),
  /** Where a list shows a record (`list-queries.ts`). */
  locateRecord: (db: StoreConnection, ref: RecordRef) => locateRecord(db, ref),
  agingCounts: (db: StoreConnection, args: { now: string; days: AgingThresholds }) =>
    agingCounts(db, args),
  /** The aging rows a store from before migration 22 lacks, in the profile's zone (once). */
  fillStatusBounds: (db: StoreConnection, args: { timeZone: string }) =>
    transaction(db, () => fillStatusBounds(db, args.timeZone)),
  /**
   * A whole list as CSV or a workbook: built here, so a 100,000-row export never holds up
   * the main thread (a workbook's zipping finishes asynchronously, its rows read before).
   */
  listExport: (db: StoreConnection, job: ListExport & { readonly format: ExportFormat }) =>
    withExports((code) => code.listExport(db, job)),
  /** The reconciliation view as CSV or a workbook, one line per record. */
  reconcileExport: (db: StoreConnection, job: ReconcileExport) =>
    withExports((code) => code.reconcileExport(db, job)),
  /** The changes feed as CSV or a workbook, one line per entry. */
  changesExport: (db: StoreConnection, job: ChangesExport) =>
    withExports((code) => code.changesExport(db, job)),
} satisfies Record<string, (db: StoreConnection, args: never) => unknown>

/** The name of one owner operation. */
export type StoreOp = keyof typeof STORE_OPS
/** The argument of `op` (`undefined` for those that take none). */
export type StoreArgs<K extends StoreOp> =
  Parameters<(typeof STORE_OPS)[K]> extends [StoreConnection, infer A] ? A : undefined
/** What `op` answers (an operation may finish asynchronously: its promise's value). */
export type StoreResult<K extends StoreOp> = Awaited<ReturnType<(typeof STORE_OPS)[K]>>

/** True when `name` is an owner operation (checks requests at the worker's boundary). */
export function isStoreOp(name: string): name is StoreOp {
  return Object.hasOwn(STORE_OPS, name)
}

type OpTable = {
  readonly [K in StoreOp]: (
    db: StoreConnection,
    args: StoreArgs<K>,
  ) => ReturnType<(typeof STORE_OPS)[K]>
}
const TABLE: OpTable = STORE_OPS

/** Runs one operation on the owner's connection. */
export function runStoreOp<K extends StoreOp>(
  db: StoreConnection,
  op: K,
  args: StoreArgs<K>,
): ReturnType<(typeof STORE_OPS)[K]> {
  return TABLE[op](db, args)
}

function mapResources<T>(read: (resource: SyncResource) => T): Record<SyncResource, T> {
  return {
    brands: read('brands'),
    inspections: read('inspections'),
    guarantees: read('guarantees'),
  }
}
