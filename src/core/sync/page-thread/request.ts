import { MessagePort } from 'node:worker_threads'
import { PAGED_RESOURCES } from '../../../shared/resources'
import { isFields, isOneOf, isPositiveInteger } from '../../plain-checks'
import type { PageBody } from './parse-page'

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

/**
 * A request as the page thread reads it, or null when it is not one
 * (`worker.ts` answers that as malformed). Checked by hand, as the
 * checkpointer checks its messages: this thread loads no schema library
 * (about 4 MB of memory in each thread that does).
 */
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
