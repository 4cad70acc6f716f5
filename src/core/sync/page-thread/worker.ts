import { parentPort } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { movable } from '../../threads/transfer'
import { messageId, yieldToMainThread } from '../../threads/spawn'
import { parsePageBody, type ParsedPage } from './parse-page'
import type { FromPageThread } from './protocol'
import { readPageRequest } from './request'

/**
 * The page thread: parses and checks the sync's list answers and encodes
 * their records for the database owner (`parse-page.ts`), so neither the
 * main thread (which only passes bytes along) nor the owner (which writes)
 * pays for it. One per app; it holds no state between pages.

 */
if (!parentPort) throw new Error('page-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
port.on('message', serve)

/** One request: a page to parse; one it cannot read is answered `internal`. */
function serve(raw: unknown): void {
  const request = readPageRequest(raw)
  if (request === null) {
    const id = messageId(raw)
    if (id === null) return
    port.postMessage({
      id,
      ok: false,
      error: { code: 'internal', message: 'The page thread received a malformed request.' },
    } satisfies FromPageThread)
    return
  }
  const { id, input } = request
  let value: ParsedPage
  try {
    value = parsePageBody(input)
  } catch (error) {
    const typed = isAppError(error)
      ? error
      : new AppError('internal', 'A synced page could not be parsed.', { cause: error })
    port.postMessage({ id, ok: false, error: typed.toData() } satisfies FromPageThread)
    return
  }
  // The encoded records move to the main thread, which moves them on to the owner.
  port.postMessage(
    { id, ok: true, value } satisfies FromPageThread,
    movable(value.encoded.map((rows) => rows.bytes)),
  )
}
