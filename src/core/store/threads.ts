import { Worker, type WorkerOptions } from 'node:worker_threads'

const live = new Set<Worker>()

/**
 * Starts a worker thread of the data path (a database owner, a
 * checkpointer, the sync's page thread) and keeps count of it until it
 * exits, so tests (and shutdown) can prove no thread is left behind.
 */
export function spawnStoreThread(entry: URL | string, options: WorkerOptions): Worker {
  const worker = new Worker(entry, options)
  live.add(worker)
  worker.once('exit', () => live.delete(worker))
  return worker
}

/**
 * The request id a message to a data thread carries (a positive integer),
 * or null: lets a thread answer a request it could not read with an error.
 */
export function messageId(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return null
  return typeof raw.id === 'number' && Number.isInteger(raw.id) && raw.id > 0 ? raw.id : null
}

/** Data threads (owners, checkpointers, the page thread) started and not yet exited. */
export function liveStoreThreads(): number {
  return live.size
}

/**
 * Resolves once `worker` has exited: asks it to stop with `message`, and
 * terminates it when it has not exited after `graceMs`. Safe to call on a
 * worker that already exited.
 */
export function stopThread(worker: Worker, message: unknown, graceMs = 5000): Promise<void> {
  if (!live.has(worker)) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), graceMs)
    worker.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    worker.postMessage(message)
  })
}
