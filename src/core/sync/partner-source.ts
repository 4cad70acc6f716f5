import type { PartnerClient } from '../api/client'
import type { GuaranteeQuery, InspectionQuery, PartnerFilter } from '../../shared/domain'
import type {
  BrandRecord,
  GuaranteeRecord,
  InspectionRecord,
  PagedResource,
} from '../store/record-types'
import { parseHere, type PageParsing } from './page-thread/client'
import type { SourcePage } from './page-thread/protocol'

/** One list request of the sync engine: the API's paging and sort, and the service's own filters. */
export type PageQuery = PartnerFilter & {
  readonly page: number
  readonly pageSize: number
  readonly sort: 'latest' | 'oldest'
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

/** Records per transaction when the engine gives no hint (its own default). */
const ROWS_PER_CHUNK = 1000

/**
 * The partner client as the sync engine's source (its retries, timeouts and
 * cancel apply). List answers are fetched here and parsed by `parsing`: in
 * the app the page thread, so their records never reach the main thread's
 * heap; they come back encoded for the owner.
 */
export function clientSyncSource(
  client: PartnerClient,
  parsing: PageParsing = parseHere,
): SyncSource {
  const page = async (
    resource: PagedResource,
    query: PageQuery,
    signal: AbortSignal,
    hints: PageHints | undefined,
  ): Promise<SourcePage<never>> => {
    const list = resource === 'guarantees' ? 'guarantee' : 'inspection'
    // The page thread starts while the service answers, not after.
    parsing.warm?.()
    const body = await client.listBody(list, paramsOf(resource, query), signal)
    // Answered: parsing below is the page thread's work, not a request in flight.
    hints?.answered?.()
    signal.throwIfAborted()
    const parsed = await parsing.parse({
      resource,
      body,
      page: query.page,
      rowsPerChunk: hints?.rowsPerChunk ?? ROWS_PER_CHUNK,
    })
    return { ...parsed, items: [] }
  }
  return {
    inFlight: client.inFlight,
    guarantees: (query, signal, hints) => page('guarantees', query, signal, hints),
    inspections: (query, signal, hints) => page('inspections', query, signal, hints),
    async brands(signal) {
      const { items, rejected } = await client.listBrands(signal)
      return { items: items.map((brand) => ({ ...brand, raw: {} })), rejected }
    },
  }
}

/** The service's parameters of a page query: the filters of `resource`'s list only. */
function paramsOf(resource: PagedResource, query: PageQuery): GuaranteeQuery | InspectionQuery {
  const { status, nftStatus, ...shared } = query
  if (resource === 'guarantees') return nftStatus ? { ...shared, nftStatus } : shared
  return status ? { ...shared, status } : shared
}
