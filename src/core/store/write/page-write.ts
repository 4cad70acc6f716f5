import type { RejectedItem } from '../../../shared/domain'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from '../record-types'
import type { PreparedRow } from '../schema/stored-raw'
import type { SyncStateRow } from '../sync-state'

/**
 * A page write as the database owner receives it: its shapes, and
 * {@link rowsOf}. Types and one small function only, so the threads that
 * pass a page along (the main thread, the page thread's sender) load no
 * record declarations or search code with it (`row-format.ts` and
 * `writes.ts` do).
 */

/** The sync a page belongs to: its id and start time (ISO). */
export interface SyncMark {
  readonly id: string
  readonly at: string
  /**
   * The service's time zone (the profile's): its times carry no offset
   * (default `DEFAULT_TIME_ZONE`). A record first seen in a status holds it
   * at least since its own last change, read in this zone (`changes.ts`).
   */
  readonly zone?: string
}

/** The refused items of one page, as the sync engine hands them to the writer. */
export interface PageRejects {
  /** The page of the list they came in. */
  readonly page: number
  readonly items: readonly RejectedItem[]
}

/** A page's records: as parsed, or already prepared as rows where they were parsed. */
type PageRecords =
  | { readonly items: readonly (GuaranteeRecord | InspectionRecord)[] }
  | { readonly rows: readonly PreparedRow[] }

/** One page of a sync: its records and the sync-state change that goes with them. */
export type PageWrite = PageWriteFields & PageRecords

/** A {@link PageWrite} but its records. */
interface PageWriteFields {
  readonly resource: PagedResource
  readonly pass: number
  readonly at: string
  /** Written in the same transaction (the checkpoint moves with the page). */
  readonly state?: Partial<Omit<SyncStateRow, 'resource'>>
  /** End of a complete full pass: mark records not seen in `pass` as gone (a full scan). */
  readonly markGone?: boolean
  /** The page's refused items, kept for `sync.rejected` (see `rejected.ts`). */
  readonly rejects?: PageRejects
  /** The sync the page belongs to, for the changes feed (default: its pass, at `at`). */
  readonly sync?: SyncMark
}

/**
 * A chunk of a page's records, prepared as rows (`prepareRow`: column
 * values, search key, FTS text), made where the page was parsed (a worker
 * thread) and read by the database owner. The main thread passes the bytes
 * along without ever holding the records, so a sync allocates no young
 * objects there; the owner, which every write waits for, only writes them.
 *
 * The bytes are V8's structured-clone format of one flat array: per record
 * its `idx`, `search_key` and FTS text, then its values in
 * `STORED_COLUMNS` order (`row-format.ts`). An array of objects carried every column
 * name once per record, which the owner had to read back and look up: it
 * took about 1.9 µs a record to decode, the flat array about 0.6.
 */
export interface EncodedRows {
  /** Records in `bytes`. */
  readonly count: number
  readonly bytes: Uint8Array
}

/**
 * A chunk of encoded rows the page thread sent the owner itself, over the
 * page link between them (`sync/page-thread/client.ts`): where the owner
 * finds its bytes. The main thread's write names it and never holds them.
 */
export interface ParcelRows {
  /** Records in the chunk. */
  readonly count: number
  /** The link (one per page thread and owner) it came over. */
  readonly link: number
  /** The parsed page it belongs to, and its place among the page's chunks. */
  readonly parcel: number
  readonly chunk: number
}

/** A page write as sent to the owner: its records as objects, as rows, encoded, or sent ahead. */
export type PageWriteRequest = PageWriteFields &
  (PageRecords | { readonly encoded: EncodedRows | ParcelRows })

/** Records in a request, without decoding: what the main thread counts. */
export function rowsOf(request: PageWriteRequest): number {
  if ('encoded' in request) return request.encoded.count
  return 'rows' in request ? request.rows.length : request.items.length
}
