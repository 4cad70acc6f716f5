import type { ListPage, PartnerFilter, RejectedItem } from '../../shared/domain'
import type { EncodedRows, ParcelRows } from '../store/write/page-write'
import type { BrandRecord, GuaranteeRecord, InspectionRecord } from '../store/record-types'

/** One list request of the sync engine: the API's paging and sort, and the service's own filters. */
export type PageQuery = PartnerFilter & {
  readonly page: number
  readonly pageSize: number
  readonly sort: 'latest' | 'oldest'
}

/**
 * One parsed page (the client's `ListPage`, its refusals optional): its
 * records as objects, or encoded in chunks for the owner (`page-thread/parse-page.ts`).
 */
export type SourcePage<T> = Omit<ListPage<T>, 'rejects'> & {
  /** The refused entries, with why and as sent: kept for `sync.rejected`. */
  readonly rejects?: readonly RejectedItem[]
  /**
   * The accepted records encoded in chunks of at most the asked
   * `rowsPerChunk`, when the source parsed off the main thread; `items` is
   * then empty and the engine passes the chunks to the owner unread (or,
   * when the page thread sent them to the owner itself, their names).
   */
  readonly encoded?: readonly (EncodedRows | ParcelRows)[]
  /** The accepted records' idx in order, when `items` does not hold them. */
  readonly fingerprint?: string
}

/** A page's accepted records as their idx in order: spots a page the service sent twice. */
export function idxFingerprint(items: readonly { readonly idx: number }[]): string {
  return items.map((item) => item.idx).join(',')
}

/** How the engine wants a page handed over. */
export interface PageHints {
  /** Records per transaction: a source that encodes cuts its chunks at this size. */
  readonly rowsPerChunk: number
  /** Call once the service's answer has arrived, before parsing it (see `PageFetcher`). */
  readonly answered?: () => void
}

/**
 * What the sync engine reads from: the partner client in the app (with its
 * retry policy, timeouts and cancellation), a small fake in a few unit tests.
 */
export interface SyncSource {
  guarantees(
    query: PageQuery,
    signal: AbortSignal,
    hints?: PageHints,
  ): Promise<SourcePage<GuaranteeRecord>>
  inspections(
    query: PageQuery,
    signal: AbortSignal,
    hints?: PageHints,
  ): Promise<SourcePage<InspectionRecord>>
  brands(signal: AbortSignal): Promise<{ items: readonly BrandRecord[]; rejected: number }>
  /** Requests the service takes at once, adapted to its answers; absent for a fixed count. */
  readonly inFlight?: { readonly limit: number }
}
