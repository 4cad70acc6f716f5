import type { PartnerClient } from '../../src/core/api/client'
import { parseJsonBody } from '../../src/core/api/http'
import { PageWalker, type WalkOptions } from '../../src/core/sync/paged-pass'
import {
  readGuarantee,
  readInspection,
  readPage,
  type ItemReader,
} from '../../src/core/api/read-records'
import { idxFingerprint } from '../../src/core/sync/page-thread/protocol'
import type {
  Guarantee,
  GuaranteeQuery,
  Inspection,
  InspectionQuery,
} from '../../src/shared/domain'

/**
 * Every page of a list through the partner client's `listBody` and the
 * page walker the sync's paged pass uses, parsed here on the test's thread:
 * the walker's rules (page-size discovery, a repeated page, an empty page,
 * a drifting total) against the sandbox's faults, without a store. As in
 * the sync, the client's in-flight limit sets how many pages are asked at
 * once.
 */
function walk<T extends { readonly idx: number }>(
  client: PartnerClient,
  list: 'guarantee' | 'inspection',
  params: Omit<GuaranteeQuery, 'page' | 'pageSize'> | Omit<InspectionQuery, 'page' | 'pageSize'>,
  read: ItemReader<T>,
  options: WalkOptions,
): PageWalker<T> {
  return new PageWalker(
    async (page, pageSize, signal) => {
      const value = parseJsonBody(
        await client.listBody(list, { ...params, page, pageSize }, signal),
      )
      const parsed = readPage(value, page, read)
      return { ...parsed, fingerprint: idxFingerprint(parsed.items) }
    },
    { concurrency: client.inFlight, ...options },
  )
}

/** Every page of the guarantee list matching `params`. */
export function guaranteePages(
  client: PartnerClient,
  params: Omit<GuaranteeQuery, 'page' | 'pageSize'> = {},
  options: WalkOptions = {},
): PageWalker<Guarantee> {
  return walk(client, 'guarantee', params, readGuarantee, options)
}

/** Every page of the inspection list matching `params`. */
export function inspectionPages(
  client: PartnerClient,
  params: Omit<InspectionQuery, 'page' | 'pageSize'> = {},
  options: WalkOptions = {},
): PageWalker<Inspection> {
  return walk(client, 'inspection', params, readInspection, options)
}
