import type { Worker } from 'node:worker_threads'
import { spawnStoreThread, stopThread } from './threads'

/**
 * Keeps WAL checkpoints out of the owner's way. The owner's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls while it copies the log into the database file); this worker, with
 * its own connection, runs `PRAGMA wal_checkpoint(PASSIVE)`, which never
 * blocks the owner. Requests while one runs are coalesced. The worker is
 * plain JavaScript evaluated from a string, so it needs no bundling in
 * either host. The only other connection to a profile's file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
const db = new DatabaseSync(workerData.file, { timeout: 1000 })
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close()
    process.exit(0)
  }
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    parentPort.postMessage('done')
  } catch (error) {
    parentPort.postMessage('failed')
  }
})
`

/** A background checkpointer for one database file. */
export class Checkpointer {
  readonly #worker: Worker
  #running = false
  #again = false
  #closing: Promise<void> | null = null

  constructor(file: string) {
    this.#worker = spawnStoreThread(WORKER_SOURCE, { eval: true, workerData: { file } })
    this.#worker.unref()
    this.#worker.on('message', () => {
      this.#running = false
      if (this.#again) {
        this.#again = false
        this.request()
      }
    })
    // A failed checkpoint only means the WAL stays longer; the next one retries.
    this.#worker.on('error', () => {
      this.#running = false
    })
  }

  /** Asks for a checkpoint soon (ignored once closing). */
  request(): void {
    if (this.#closing) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = true
    this.#worker.postMessage('run')
  }

  /** Stops the worker; idempotent, and always resolves (the worker is terminated if it hangs). */
  close(): Promise<void> {
    this.#closing ??= stopThread(this.#worker, 'close')
    return this.#closing
  }
}
