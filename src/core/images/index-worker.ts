import { parentPort, workerData } from 'node:worker_threads'
import { AppError, isAppError } from '../app-error'
import { isFields } from '../plain-checks'
import { messageId, yieldToMainThread } from '../threads/spawn'
import { ImageIndexDb } from './index-sql'
import { readToImageIndex, type FromImageIndex } from './index-protocol'

/**
 * The image-index thread: owns the image cache's index file
 * (`images/index.sqlite` in the folder it is started with) and answers the
 * main thread's calls in order (`index-client.ts` is the main side).
 */
if (!parentPort) throw new Error('image-index-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
if (!isFields(workerData) || typeof workerData['dir'] !== 'string') {
  throw new Error('image-index-worker was started without its folder')
}
const dir = workerData['dir']
let db: ImageIndexDb | null = null

port.on('message', (raw: unknown) => {
  const request = readToImageIndex(raw)
  if (request === null) {
    const id = messageId(raw)
    if (id !== null) {
      port.postMessage({
        id,
        ok: false,
        error: { code: 'internal', message: 'The image index received a malformed request.' },
      } satisfies FromImageIndex)
    }
    return
  }
  const { id, call } = request
  try {
    db ??= new ImageIndexDb(dir)
    port.postMessage({ id, ok: true, value: db.run(call) } satisfies FromImageIndex)
  } catch (error) {
    const typed = isAppError(error)
      ? error
      : new AppError('internal', 'The image index could not be read or written.', {
          cause: error,
        })
    port.postMessage({ id, ok: false, error: typed.toData() } satisfies FromImageIndex)
  }
})
