import type { PageWriteRequest } from '../store/write/encoded-rows'

/**
 * What the threads that only pass a page's bytes along need of it (the main
 * thread, the page thread's sender): apart from `encoded-rows.ts`, which
 * loads the record declarations and the search code with it.
 */

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
  if ('encoded' in request) return request.encoded.count
  return 'rows' in request ? request.rows.length : request.items.length
}
