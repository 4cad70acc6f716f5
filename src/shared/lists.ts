import type { GuaranteeState } from './domain'
import type { PagedResourceName, SyncResourceName } from './resources'
import type { ErrorData } from './errors'
import type { GUARANTEE_FIELDS, INSPECTION_FIELDS, RowOf } from './record-fields'

/**
 * The lists as the renderer sees them: list queries, their rows and
 * freshness, review marks, and the sync engine's status and progress.
 * The resource names themselves are in `resources.ts`.
 */

/** Review marks staff set on a record; `none` keeps only a note. */
export const REVIEW_MARKS = ['reviewed', 'follow_up', 'none'] as const
/** One of {@link REVIEW_MARKS}. */
export type ReviewMarkName = (typeof REVIEW_MARKS)[number]

/** A record's review mark, kept per profile and surviving every sync. */
export interface ReviewMark {
  readonly mark: ReviewMarkName
  /** Free text; empty when none. */
  readonly note: string
  /** The reviewer's name from the settings at the time, or null when none was set. */
  readonly by: string | null
  /** When it was set, local time `YYYY-MM-DD HH:MM:SS` in the profile's zone. */
  readonly at: string
  /** With a team server: the login role that set the current mark (docs/team.md). */
  readonly author?: string | null
  /**
   * With a team server: the name of the member who changed a mark this
   * machine had set, without having seen it, until the record is looked at.
   */
  readonly changedBy?: string | null
}

/** Records of the current filter per review mark (`none`: no mark, or only a note). */
export type ReviewCounts = Readonly<Record<ReviewMarkName, number>>

/** How fresh a cached answer is. */
export interface CacheFreshness {
  /** When the last sync of this resource finished successfully (ISO), or null if never. */
  readonly lastSyncAt: string | null
  /** When the last complete full pass finished (ISO), or null if never. */
  readonly lastFullSyncAt: string | null
  /** True while a sync of this resource runs. */
  readonly syncing: boolean
  /** The error of the last sync attempt, when it failed (the answer is from the cache). */
  readonly staleBecause?: ErrorData
}

/** How many records of the current filter have each status label (`null`: no status). */
export interface StatusCount {
  readonly status: string | null
  readonly count: number
}

/** One page of a list query. */
export interface QueryPage<R> {
  readonly rows: readonly R[]
  /** Records matching the whole filter. */
  readonly total: number
  /**
   * Set only when counting every match would take too long (one-character
   * text): there are more than `total` matches, and `counts` and
   * `reviewCounts` were counted over the first `total` only (show "N+").
   */
  readonly totalIsLowerBound?: boolean
  /** Per status label, for the filter without its status part (tabs / chips). */
  readonly counts: readonly StatusCount[]
  /** Per review mark, for the filter without its review part (filter-bar counts). */
  readonly reviewCounts: ReviewCounts
  /** Pass as `cursor` to get the next page; null on the last page. */
  readonly nextCursor: string | null
  readonly freshness: CacheFreshness
}

/**
 * A guarantee as listed: the fields `GUARANTEE_FIELDS` lists (`status` is
 * the service's label, e.g. `발급완료`; `cardUrl` the card-image URL, empty
 * when it sent none, loaded through the image cache; `registeredAt` null
 * when the service sent no readable date), and what the store adds.
 */
export interface GuaranteeRow extends RowOf<typeof GUARANTEE_FIELDS> {
  /** The API state matching the label, when known. */
  readonly state: GuaranteeState | null
  /** The service stopped returning it in a complete full pass. */
  readonly gone: boolean
  /** The staff's review mark, or null when never marked. */
  readonly review: ReviewMark | null
  /** The team member (login role) the record is assigned to; absent: nobody (docs/team.md "Assignment"). */
  readonly assignedTo?: string
  /** Since when it holds its current status, first seen locally (ISO); null when gone or not known. */
  readonly statusSince: string | null
}

/** An inspection as listed: the fields `INSPECTION_FIELDS` lists, and what the store adds. */
export interface InspectionRow extends RowOf<typeof INSPECTION_FIELDS> {
  /** The service stopped returning it in a complete full pass. */
  readonly gone: boolean
  /** The staff's review mark, or null when never marked. */
  readonly review: ReviewMark | null
  /** The team member (login role) the record is assigned to; absent: nobody (docs/team.md "Assignment"). */
  readonly assignedTo?: string
  /** Since when it holds its current status, first seen locally (ISO); null when gone or not known. */
  readonly statusSince: string | null
}

/** A record a sync refused, as kept (`sync.rejected`). */
export interface RejectedRecord {
  /** Newest has the highest id; pass the last one as `before` for the next page. */
  readonly id: number
  readonly resource: PagedResourceName
  /** The record's `idx` when it had a readable one. */
  readonly idx: number | null
  /** The page of the list it came in, and its position in that page's `data`. */
  readonly page: number
  readonly position: number
  /** The first wrong field (`''` when the item itself was not an object) and why. */
  readonly field: string
  readonly reason: string
  /** Every problem, as a JSON path with a reason (`data[3].productName: missing`). */
  readonly problems: readonly string[]
  /** The item as the service sent it, as JSON, cut to a few KB. */
  readonly raw: string
  readonly rawTruncated: boolean
  /** When it was refused (ISO). */
  readonly rejectedAt: string
}

/** Answer of `sync.rejected`: newest first. */
export interface RejectedPage {
  readonly items: readonly RejectedRecord[]
  /** Kept refused records of the filter, in all. */
  readonly total: number
  /** Pass as `before` for the next (older) page; null on the last. */
  readonly nextBefore: number | null
}

/**
 * How one paged pass fetches: every page (`full`), the pages changed since
 * the last pass (`incremental`), or a slice by the service's own filters
 * (`targeted`).
 */
export type PassKind = 'full' | 'incremental' | 'targeted'

/** What a caller asks a sync run to do; `auto` picks full or incremental from the stored state. */
export const RUN_MODES = ['auto', 'full', 'incremental'] as const
/** One of {@link RUN_MODES}. */
export type RunMode = (typeof RUN_MODES)[number]

/** Sync status of one resource. */
type SyncStatusName = 'idle' | 'syncing' | 'offline' | 'error'

/** What `sync.status` answers per resource. */
export interface ResourceSyncStatus {
  readonly resource: SyncResourceName
  readonly status: SyncStatusName
  /** `full` or `incremental` of the running or last sync. */
  readonly mode: Exclude<PassKind, 'targeted'> | null
  /** Waiting behind another resource's sync in the same job. */
  readonly queued: boolean
  /** When the last successful sync finished (ISO): the "last good sync", kept when later attempts fail. */
  readonly lastSyncAt: string | null
  /** When the last attempt ended, failed or not (ISO); a failure is remembered for this session only. */
  readonly lastAttemptAt: string | null
  readonly lastFullSyncAt: string | null
  /** A full pass was interrupted and will resume from its checkpoint. */
  readonly resumable: boolean
  /** Items of the last sync that missed a required field (each kept: `sync.rejected`). */
  readonly rejected: number
  readonly error?: ErrorData
  readonly recordCount: number
}

/** Answer of `sync.status`. */
export interface SyncStatus {
  readonly resources: readonly ResourceSyncStatus[]
  /** Set once after the cache file had to be rebuilt. */
  readonly notice?: {
    readonly code: 'store_corrupt'
    readonly message: string
    readonly at: string
  }
}

/** Payload of the `sync.progress` event. */
export interface SyncProgress {
  readonly resource: SyncResourceName
  readonly mode: PassKind
  readonly phase: 'running' | 'done' | 'cancelled' | 'error'
  readonly fetched: number
  /** The service's `total`, once known. */
  readonly total: number | null
  readonly pages: number
  /** Records per second so far. */
  readonly rate: number
  /** Estimated seconds left, when known. */
  readonly etaSeconds: number | null
  readonly rejected: number
  /**
   * The service's `total` moved during the run (records added or removed
   * meanwhile): `fetched` is capped at `total`, and the pass marks nothing gone.
   */
  readonly totalChanged?: boolean
  readonly error?: ErrorData
}
