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
