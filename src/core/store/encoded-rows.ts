import { deserialize, serialize } from 'node:v8'
import { AppError } from '../app-error'
import type { PageWrite } from './page-writer'

/**
 * A chunk of a page's records in V8's structured-clone format, made where
 * the page was parsed (a worker thread) and read by the database owner: the
 * main thread passes the bytes along without ever holding the records, so a
 * sync allocates no young objects there (issue 10's main-loop figures).
 */
export interface EncodedRows {
  /** Records in `bytes`. */
  readonly count: number
  readonly bytes: Uint8Array
}

/** A page write as sent to the owner: its records as objects or encoded (never both). */
export type PageWriteRequest = Omit<PageWrite, 'items'> &
  ({ readonly items: PageWrite['items'] } | { readonly encoded: EncodedRows })

/** Encodes records for {@link decodePageWrite}, in a buffer of their own (see {@link movable}). */
export function encodeRows(items: PageWrite['items']): EncodedRows {
  const bytes = serialize(items)
  return { count: items.length, bytes: movable([bytes]).length > 0 ? bytes : new Uint8Array(bytes) }
}

/**
 * The buffers of `views` that can be moved to another thread
 * (`postMessage`'s transfer list) instead of copied: each view's own,
 * whole buffer, never a shared one such as a slice of Node's buffer pool.
 * Moving them keeps a page's bytes off the sending thread's heap.
 */
export function movable(views: readonly Uint8Array[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = []
  for (const view of views) {
    const buffer = view.buffer
    if (
      buffer instanceof ArrayBuffer &&
      view.byteOffset === 0 &&
      view.byteLength === buffer.byteLength &&
      !out.includes(buffer)
    ) {
      out.push(buffer)
    }
  }
  return out
}

/** Records in a request, without decoding: what the main thread counts. */
export function rowsOf(request: PageWriteRequest): number {
  return 'encoded' in request ? request.encoded.count : request.items.length
}

/**
 * The page write a request stands for, its records decoded. Encoded bytes
 * that do not hold as many records as they claim fail as `internal`: they
 * were made by this app, so that is a bug, never stored half.
 */
export function decodePageWrite(request: PageWriteRequest): PageWrite {
  if (!('encoded' in request)) return request
  const { encoded, ...rest } = request
  let items: unknown
  try {
    items = deserialize(encoded.bytes)
  } catch (cause) {
    throw new AppError('internal', 'A synced page could not be read back.', { cause })
  }
  if (!Array.isArray(items) || items.length !== encoded.count) {
    throw new AppError('internal', 'A synced page came back with the wrong number of records.')
  }
  // Encoded by encodeRows from checked records (page-parser.ts).
  return { ...rest, items: items as PageWrite['items'] }
}
