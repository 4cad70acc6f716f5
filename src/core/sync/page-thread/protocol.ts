import { MessagePort } from 'node:worker_threads'
import type { ListPage, RejectedItem } from '../../../shared/domain'
import { PAGED_RESOURCES } from '../../../shared/resources'
import {
  isFields,
  isIntegerFrom,
  isOneOf,
  isPositiveInteger,
  readThreadAnswer,
  type ThreadAnswer,
} from '../../plain-checks'
import type { JsonBody } from '../../api/http'
import type { EncodedRows, ParcelRows } from '../../store/write/page-write'
import type { PagedResource } from '../../store/record-types'

/**
 * The messages between the page thread (`worker.ts`) and its handle on the
 * main thread (`client.ts`), each direction with the reader that checks it
 * where it arrives. Checked by hand, as every data thread's messages are:
 * no data thread loads a schema library (about 4 MB in each thread that does).
 * The page's shapes are declared here, where the thread produces them: the
 * sync's source and pass read them from this file.
 */

/**
 * What the page thread is started with (its `workerData`): its entry serves
 * only then, so the same module loaded on another thread only lends its parser.
 */
export const PAGE_THREAD_DATA = 'page-thread'

/** What a sync page needs parsed: the answer, which list it is and how to cut it. */
export interface PageBody {
  readonly resource: PagedResource
  readonly body: JsonBody
  /** The page asked for (the envelope's `page` when the service leaves it out). */
  readonly page: number
  /** Records per encoded chunk: one transaction each (an oversized page is split). */
  readonly rowsPerChunk: number
}

/**
 * One parsed page (the client's `ListPage`, its refusals optional): its
 * records as objects, or encoded in chunks for the owner (`worker.ts`).
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

/**
 * A parsed sync page: its envelope and refusals as values, its records
 * encoded in chunks (or, once the page thread has sent them to the owner,
 * where the owner finds them).
 */
export type ParsedPage<Rows extends EncodedRows | ParcelRows = EncodedRows> = Omit<
  SourcePage<never>,
  'items' | 'rejects' | 'encoded'
> & {
  readonly rejects: readonly RejectedItem[]
  readonly encoded: readonly Rows[]
  /** The accepted records' idx in order: spots a page the service sent twice. */
  readonly fingerprint: string
}

/** A page's accepted records as their idx in order: spots a page the service sent twice. */
export function idxFingerprint(items: readonly { readonly idx: number }[]): string {
  return items.map((item) => item.idx).join(',')
}

/** Where the page thread sends a page's encoded records: the owner at the end of `link`, as `parcel`. */
interface Delivery {
  readonly link: number
  readonly parcel: number
}

/**
 * Main thread → page thread: one list answer to parse; with `deliver`, its
 * encoded records go straight to the owner over that link, and the answer
 * names them instead of carrying them.
 */
export interface PageRequest {
  readonly id: number
  readonly input: PageBody
  readonly deliver?: Delivery
}

/** Main thread → page thread: one end of a new link to a profile's owner (`client.ts`). */
interface LinkRequest {
  readonly link: number
  readonly port: MessagePort
}

/** Main thread → page thread. */
export type ToPageThread = PageRequest | LinkRequest

/** A request as the page thread reads it, or null when it is not one (`worker.ts` answers that as malformed). */
export function readPageRequest(raw: unknown): ToPageThread | null {
  if (!isFields(raw)) return null
  if (!('id' in raw) && isPositiveInteger(raw['link']) && raw['port'] instanceof MessagePort) {
    return { link: raw['link'], port: raw['port'] }
  }
  if (!isPositiveInteger(raw['id']) || !isFields(raw['input'])) return null
  const { resource, body, page, rowsPerChunk } = raw['input']
  if (!isOneOf(PAGED_RESOURCES, resource) || !isFields(body)) return null
  const { bytes, contentType, status } = body
  if (!(bytes instanceof Uint8Array) || typeof contentType !== 'string') return null
  if (!Number.isSafeInteger(status) || !isPositiveInteger(page)) return null
  if (!isPositiveInteger(rowsPerChunk)) return null
  const input = {
    resource,
    body: { bytes, contentType, status: status as number },
    page,
    rowsPerChunk,
  }
  const deliver = raw['deliver']
  if (deliver === undefined) return { id: raw['id'], input }
  if (!isFields(deliver) || !isPositiveInteger(deliver['link'])) return null
  if (!isPositiveInteger(deliver['parcel'])) return null
  return { id: raw['id'], input, deliver: { link: deliver['link'], parcel: deliver['parcel'] } }
}

/**
 * What the page thread answers a request with: the parsed page, its
 * records encoded, or named once it has sent them to the owner.
 */
export type PageThreadValue = ParsedPage<EncodedRows | ParcelRows>

/** Page thread → main thread. */
export type FromPageThread = ThreadAnswer<PageThreadValue>

/** The page thread's answer as the main thread reads it, or null when it is none. */
export function readFromPageThread(raw: unknown): FromPageThread | null {
  return readThreadAnswer(raw, isParsedPage)
}

const isCount = (value: unknown): value is number => isIntegerFrom(value, 0)

function isParsedPage(raw: unknown): raw is PageThreadValue {
  if (!isFields(raw)) return false
  const { total, page, received, pageSize, rejected, rejects, encoded, fingerprint } = raw
  if (!isCount(total) || !Number.isSafeInteger(page) || !isCount(received)) return false
  if (pageSize !== undefined && !Number.isSafeInteger(pageSize)) return false
  if (!isCount(rejected) || typeof fingerprint !== 'string') return false
  if (!Array.isArray(rejects) || !rejects.every(isRejectedItem)) return false
  if (!Array.isArray(encoded) || encoded.length === 0 || !encoded.every(isChunk)) return false
  return true
}

function isRejectedItem(raw: unknown): raw is RejectedItem {
  if (!isFields(raw)) return false
  const { position, idx, problems, field, reason, raw: sent, rawTruncated } = raw
  return (
    isCount(position) &&
    (idx === null || Number.isSafeInteger(idx)) &&
    Array.isArray(problems) &&
    problems.every((problem) => typeof problem === 'string') &&
    typeof field === 'string' &&
    typeof reason === 'string' &&
    typeof sent === 'string' &&
    typeof rawTruncated === 'boolean'
  )
}

/** One chunk of a page's records: encoded here, or sent to the owner and named. */
function isChunk(raw: unknown): raw is EncodedRows | ParcelRows {
  if (!isFields(raw) || !isCount(raw['count'])) return false
  if (raw['bytes'] instanceof Uint8Array) return true
  return isPositiveInteger(raw['link']) && isPositiveInteger(raw['parcel']) && isCount(raw['chunk'])
}
