import { parseJsonBody } from '../../api/http'
import { readGuarantee, readInspection, readPage } from '../../api/read-records'
import { encodeRows } from '../../store/write/row-format'
import type { EncodedRows } from '../../store/write/page-write'
import { idxFingerprint, type PageBody, type ParsedPage } from './protocol'

/**
 * Decodes, parses and checks one list answer (`api/read-records.ts`) and encodes its
 * accepted records in chunks for the database owner. Runs in the page
 * thread (`worker.ts`) in the app, so the main thread never holds a
 * page's records; bad answers fail with the same typed errors as anywhere.
 */
export function parsePageBody(input: PageBody): ParsedPage {
  const value = parseJsonBody(input.body)
  const page =
    input.resource === 'guarantees'
      ? readPage(value, input.page, readGuarantee)
      : readPage(value, input.page, readInspection)
  const size = Math.max(1, Math.floor(input.rowsPerChunk))
  const encoded: EncodedRows[] = []
  for (let i = 0; i < page.items.length; i += size) {
    encoded.push(encodeRows(input.resource, page.items.slice(i, i + size)))
  }
  // A page of refusals only still writes once: its refusals and checkpoint go with it.
  if (encoded.length === 0) encoded.push(encodeRows(input.resource, []))
  return {
    total: page.total,
    page: page.page,
    received: page.received,
    ...(page.pageSize === undefined ? {} : { pageSize: page.pageSize }),
    rejected: page.rejected,
    rejects: page.rejects,
    encoded,
    fingerprint: idxFingerprint(page.items),
  }
}
