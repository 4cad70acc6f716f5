import type { PartnerClient } from '../api/client'
import type { GuaranteeQuery, InspectionQuery } from '../../shared/domain'
import type { PagedResource } from '../store/records'
import { parseHere, type PageParsing } from './page-parser'
import type { PageQuery, SourcePage, SyncSource } from './source'

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
    params: GuaranteeQuery | InspectionQuery,
    signal: AbortSignal,
    rowsPerChunk: number,
  ): Promise<SourcePage<never>> => {
    const list = resource === 'guarantees' ? 'guarantee' : 'inspection'
    const body = await client.listBody(list, params, signal)
    signal.throwIfAborted()
    const parsed = await parsing.parse({ resource, body, page: params.page ?? 1, rowsPerChunk })
    return { ...parsed, items: [] }
  }
  return {
    inFlight: client.inFlight,
    guarantees: (query, signal, hints) =>
      page(
        'guarantees',
        {
          ...common(query),
          ...(query.nftStatus ? { nftStatus: query.nftStatus } : {}),
        },
        signal,
        hints?.rowsPerChunk ?? ROWS_PER_CHUNK,
      ),
    inspections: (query, signal, hints) =>
      page(
        'inspections',
        {
          ...common(query),
          ...(query.status ? { status: query.status } : {}),
        },
        signal,
        hints?.rowsPerChunk ?? ROWS_PER_CHUNK,
      ),
    async brands(signal) {
      const { items, rejected } = await client.listBrands(signal)
      return { items: items.map((brand) => ({ ...brand, raw: {} })), rejected }
    },
  }
}

/** The parameters both lists take. */
function common(query: PageQuery): GuaranteeQuery & InspectionQuery {
  return {
    page: query.page,
    pageSize: query.pageSize,
    sort: query.sort,
    ...(query.refUserId ? { refUserId: query.refUserId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  }
}
