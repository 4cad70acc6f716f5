import type { MessagePort } from 'node:worker_threads'
import { AppError, isAppError } from '../app-error'
import { messageId } from '../threads/spawn'
import { ImageIndexDb } from './index-sql'
import { toImageIndexSchema } from './index-protocol'

/**
 * The image-index thread: owns the image cache's index file and answers
 * the main thread's calls in order (`index-client.ts` is the main side).
 * It runs from the page thread's entry, started with the `image-index`
 * role, so the app needs no bundle of its own for it.
 */
export function serveImageIndex(port: MessagePort, dir: string): void {
  let db: ImageIndexDb | null = null
  port.on('message', (raw: unknown) => {
    const parsed = toImageIndexSchema.safeParse(raw)
    if (!parsed.success) {
      const id = messageId(raw)
      if (id !== null) {
        port.postMessage({
          id,
          ok: false,
          error: { code: 'internal', message: 'The image index received a malformed request.' },
        })
      }
      return
    }
    const { id, call } = parsed.data
    try {
      db ??= new ImageIndexDb(dir)
      port.postMessage({ id, ok: true, value: db.run(call) })
    } catch (error) {
      const typed = isAppError(error)
        ? error
        : new AppError('internal', 'The image index could not be read or written.', {
            cause: error,
          })
      port.postMessage({ id, ok: false, error: typed.toData() })
    }
  })
}
