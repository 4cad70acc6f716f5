import type { PartnerClient } from '../api/client'
import type { SyncSource } from './source'

/** The partner client as the sync engine's source (its retries, timeouts and cancel apply). */
export function clientSyncSource(client: PartnerClient): SyncSource {
  return {
    inFlight: client.inFlight,
    guarantees: (query, signal) =>
      client.listGuarantees(
        {
          page: query.page,
          pageSize: query.pageSize,
          sort: query.sort,
          ...(query.refUserId ? { refUserId: query.refUserId } : {}),
          ...(query.nftStatus ? { nftStatus: query.nftStatus } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        },
        signal,
      ),
    inspections: (query, signal) =>
      client.listInspections(
        {
          page: query.page,
          pageSize: query.pageSize,
          sort: query.sort,
          ...(query.refUserId ? { refUserId: query.refUserId } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        },
        signal,
      ),
    async brands(signal) {
      const { items, rejected } = await client.listBrands(signal)
      return { items: items.map((brand) => ({ ...brand, raw: {} })), rejected }
    },
  }
}
