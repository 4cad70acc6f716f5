import { parentPort, workerData } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { imageIndexDataSchema } from '../../images/index-protocol'
import { serveImageIndex } from '../../images/index-worker'
import { movable } from '../../store/transfer'
import { messageId, yieldToMainThread } from '../../store/threads'
import { parsePageBody } from './parse-page'
import { toPageThreadSchema, type FromPageThread } from './protocol'

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
const imageIndex = imageIndexDataSchema.safeParse(workerData)

if (imageIndex.success) serveImageIndex(port, imageIndex.data.dir)
else port.on('message', parsePages)

function parsePages(raw: unknown): void {
  const parsed = toPageThreadSchema.safeParse(raw)
  let answer: FromPageThread
  if (!parsed.success) {
    const id = messageId(raw)
    if (id === null) return
    answer = {
      id,
      ok: false,
      error: { code: 'internal', message: 'The page thread received a malformed request.' },
    }
  } else {
    const { id, input } = parsed.data
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
