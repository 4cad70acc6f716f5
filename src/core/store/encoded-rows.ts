import { deserialize, serialize } from 'node:v8'
import { AppError } from '../app-error'
import type { PageRecords, PageWrite, PageWriteFields } from './owner/page-writer'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from './record-types'
import { prepareRows, type PreparedRow } from './stored-raw'
import { movable } from './transfer'

/**
 * A chunk of a page's records, prepared as rows (`prepareRow`: column
 * values, search key, FTS text) and in V8's structured-clone format, made
 * where the page was parsed (a worker thread) and read by the database
 * owner. The main thread passes the bytes along without ever holding the
 * records, so a sync allocates no young objects there; the owner, which every write waits for, only writes them.
 */
export interface EncodedRows {
  /** Records in `bytes`. */
  readonly count: number
  readonly bytes: Uint8Array
}

/** A page write as sent to the owner: its records as objects, as rows, or encoded. */
export type PageWriteRequest = PageWriteFields & (PageRecords | { readonly encoded: EncodedRows })

/**
 * Prepares and encodes a list's records for {@link decodePageWrite}, in a
 * buffer of their own (see {@link movable}).
 */
export function encodeRows(
  resource: PagedResource,
  items: readonly (GuaranteeRecord | InspectionRecord)[],
): EncodedRows {
  const bytes = serialize(prepareRows(resource, items))
  return { count: items.length, bytes: movable([bytes]).length > 0 ? bytes : new Uint8Array(bytes) }
}

/**
 * The page write a request stands for, its records decoded. Encoded bytes
 * that do not hold as many records as they claim fail as `internal`: they
 * were made by this app, so that is a bug, never stored half.
 */
export function decodePageWrite(request: PageWriteRequest): PageWrite {
  if (!('encoded' in request)) return request
  const { encoded, ...rest } = request
  let rows: unknown
  try {
    rows = deserialize(encoded.bytes)
  } catch (cause) {
    throw new AppError('internal', 'A synced page could not be read back.', { cause })
  }
  if (!Array.isArray(rows) || rows.length !== encoded.count) {
    throw new AppError('internal', 'A synced page came back with the wrong number of records.')
  }
  if (!rows.every(isPreparedRow)) {
    throw new AppError('internal', 'A synced page came back with records that are not rows.')
  }
  return { ...rest, rows }
}

/**
 * The shape {@link encodeRows} gives a row (its values were made from
 * checked records by `prepareRow`): a cheap check of what crossed threads,
 * so bytes of another shape fail the page instead of writing nonsense.
 */
function isPreparedRow(value: unknown): value is PreparedRow {
  if (typeof value !== 'object' || value === null) return false
  const row = value as Record<string, unknown>
  return (
    Number.isSafeInteger(row['idx']) &&
    typeof row['values'] === 'object' &&
    row['values'] !== null &&
    typeof row['key'] === 'string' &&
    typeof row['text'] === 'string'
  )
}
