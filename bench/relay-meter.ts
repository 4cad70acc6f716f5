import { Worker } from 'node:worker_threads'

/** Calls `visit` with every buffer `value` holds (its typed arrays' and its own), once each. */
function buffersOf(value: unknown, visit: (buffer: ArrayBufferLike) => void): void {
  const seen = new Set<unknown>()
  const walk = (item: unknown, depth: number): void => {
    if (typeof item !== 'object' || item === null || seen.has(item) || depth > 8) return
    seen.add(item)
    if (ArrayBuffer.isView(item)) {
      if (!seen.has(item.buffer)) {
        seen.add(item.buffer)
        visit(item.buffer)
      }
      return
    }
    if (item instanceof ArrayBuffer) {
      visit(item)
      return
    }
    for (const next of Array.isArray(item) ? item : Object.values(item)) walk(next, depth + 1)
  }
  walk(value, 0)
}

/** What {@link meterRelays} counted. */
export interface RelayMeter {
  /** Bytes the main thread posted to a worker that it had received from a worker. */
  readonly bytes: number
  /** Puts the thread-message path back as it was. */
  stop(): void
}

/**
 * Counts what the main thread relays between data threads while it runs:
 * the bytes of every buffer it posts to a worker (`Worker.postMessage`)
 * that came to it in a message from a worker (`'message'` events). A
 * sync's page bytes fetched here and posted to the page thread are not
 * relayed; encoded records the page thread answered and the main thread
 * posted on to the owner are. Patches this thread's `Worker` class: one
 * meter at a time.
 */
export function meterRelays(): RelayMeter {
  const received = new WeakSet<ArrayBufferLike>()
  let bytes = 0
  const emit = Worker.prototype.emit
  const post = Worker.prototype.postMessage
  Worker.prototype.emit = function (this: Worker, event: string | symbol, ...args: unknown[]) {
    if (event === 'message') buffersOf(args[0], (buffer) => received.add(buffer))
    return emit.call(this, event, ...args)
  }
  Worker.prototype.postMessage = function (
    this: Worker,
    value: unknown,
    transfer?: Parameters<Worker['postMessage']>[1],
  ) {
    // Counted before the post: a moved buffer is empty after it.
    buffersOf(value, (buffer) => {
      if (received.has(buffer)) bytes += buffer.byteLength
    })
    post.call(this, value, transfer)
  }
  return {
    get bytes() {
      return bytes
    },
    stop() {
      Worker.prototype.emit = emit
      Worker.prototype.postMessage = post
    },
  }
}
