import { parentPort, workerData } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { isFields } from '../../plain-checks'
import { movable } from '../../threads/transfer'
import { messageId, yieldToMainThread } from '../../threads/spawn'
import { parsePageBody, type ParsedPage } from './parse-page'
import type { FromPageThread } from './protocol'
import { readPageRequest, type CheckpointRequest } from './request'

/**
 * The page thread: parses and checks the sync's list answers and encodes
 * their records for the database owner (`parse-page.ts`), so neither the
 * main thread (which only passes bytes along) nor the owner (which writes)
 * pays for it. One per app; it holds no state between pages.
 *
 * It also runs the owner's WAL checkpoints while it is up (`{ checkpoint }`
 * requests, see `owner/checkpointer.ts`): a sync then runs one
 * isolate fewer.
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
} else port.on('message', serve)

/** The folder of the `image-index` role (`images/index-client.ts`), or null for the page thread. */
function imageIndexDir(data: unknown): string | null {
  if (!isFields(data)) return null
  return data['role'] === 'image-index' && typeof data['dir'] === 'string' ? data['dir'] : null
}

/** One request: a page to parse, or a checkpoint to run; one it cannot read is answered `internal`. */
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
  if ('checkpoint' in request) {
    void checkpoint(request)
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

/**
 * Runs one of the owner's WAL checkpoints (`owner/checkpointer.ts`)
 * while this thread is up for a sync, so the sync starts no checkpointer
 * thread. A failure (the file is gone, not a database, busy) is answered
 * and the thread goes on parsing: a checkpoint lost only leaves the log
 * longer until the next.
 */
async function checkpoint({ id, checkpoint: file }: CheckpointRequest): Promise<void> {
  let answer: FromPageThread
  try {
    // Loaded at the first checkpoint (node:sqlite with it): a thread that only parses never loads it.
    const { checkpointFile } = await import('../../owner/wal-checkpoint')
    answer = { id, ok: true, value: checkpointFile(file) }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    answer = {
      id,
      ok: false,
      error: { code: 'internal', message: `A checkpoint failed: ${reason}` },
    }
  }
  port.postMessage(answer)
}
