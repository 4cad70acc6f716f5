import { PAGED_RESOURCES } from '../../../shared/cache'
import { isFields, isOneOf, isPositiveInteger } from '../../plain-checks'
import type { PageBody } from './parse-page'

/** Main thread → page thread: one list answer to parse. */
export interface ToPageThread {
  readonly id: number
  readonly input: PageBody
}

/**
 * A request as the page thread reads it, or null when it is not one
 * (`worker.ts` answers that as malformed). Checked by hand, as the
 * checkpointer checks its messages: this thread loads no schema library
 * (about 4 MB of memory in each thread that does).
 */
export function readPageRequest(raw: unknown): ToPageThread | null {
  if (!isFields(raw) || !isPositiveInteger(raw['id'])) return null
  if (!isFields(raw['input'])) return null
  const { resource, body, page, rowsPerChunk } = raw['input']
  if (!isOneOf(PAGED_RESOURCES, resource) || !isFields(body)) return null
  const { bytes, contentType, status } = body
  if (!(bytes instanceof Uint8Array) || typeof contentType !== 'string') return null
  if (!Number.isSafeInteger(status) || !isPositiveInteger(page)) return null
  if (!isPositiveInteger(rowsPerChunk)) return null
  return {
    id: raw['id'],
    input: { resource, body: { bytes, contentType, status: status as number }, page, rowsPerChunk },
  }
}
