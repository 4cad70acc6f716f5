/**
 * What a thread that hands a page's bytes to another needs: the buffers it
 * can move rather than copy. It loads nothing else, so the threads that
 * only pass a page along load no record declarations or search code.
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
