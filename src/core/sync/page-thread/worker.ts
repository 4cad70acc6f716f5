import { parentPort, workerData } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { isFields } from '../../plain-checks'
import { movable } from '../../store/transfer'
import { messageId, yieldToMainThread } from '../../store/threads'
import { parsePageBody } from './parse-page'
import type { FromPageThread } from './protocol'
import { readPageRequest } from './request'

/**
 * The page thread: parses and checks the sync's list answers and encodes
 * their records for the database owner (`parse-page.ts`), so neither the
 * main thread (which only passes bytes along) nor the owner (which writes)
 * pays for it. One per app; it holds no state between pages.
 *
 * The same entry, started with the `image-index` role, is the image
 * cache's index thread (`images/index-worker.ts`).
 */
if (!parentPort) throw new Error('page-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
const imageIndex = imageIndexDir(workerData)

// The image index's code (and its schema library) loads only in that role; messages wait meanwhile.
if (imageIndex !== null) {
  void import('../../images/index-worker').then(({ serveImageIndex }) =>
    serveImageIndex(port, imageIndex),
  )
} else port.on('message', parsePages)

/** The folder of the `image-index` role (`images/index-client.ts`), or null for the page thread. */
function imageIndexDir(data: unknown): string | null {
  if (!isFields(data)) return null
  return data['role'] === 'image-index' && typeof data['dir'] === 'string' ? data['dir'] : null
}

function parsePages(raw: unknown): void {
  const request = readPageRequest(raw)
  let answer: FromPageThread
  if (request === null) {
    const id = messageId(raw)
    if (id === null) return
    answer = {
      id,
      ok: false,
      error: { code: 'internal', message: 'The page thread received a malformed request.' },
    }
  } else {
    const { id, input } = request
    try {
      answer = { id, ok: true, value: parsePageBody(input) }
    } catch (error) {
      const typed = isAppError(error)
        ? error
        : new AppError('internal', 'A synced page could not be parsed.', { cause: error })
      answer = { id, ok: false, error: typed.toData() }
    }
  }
  // The encoded records move to the main thread, which moves them on to the owner.
  port.postMessage(answer, answer.ok ? movable(answer.value.encoded.map((rows) => rows.bytes)) : [])
}
