import { Worker } from 'node:worker_threads'

/**
 * Moves WAL checkpoints off the main thread. The store's connection runs
 * with `wal_autocheckpoint = 0` (otherwise every ~1000 pages one commit
 * stalls the event loop while it copies the log into the database file);
 * this worker, with its own connection, runs `PRAGMA wal_checkpoint(PASSIVE)`,
 * which never blocks the writer. Requests while one runs are coalesced.
 * The worker is plain JavaScript evaluated from a string, so it needs no
 * bundling in either host.
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

  constructor(file: string) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } })
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

  /** Asks for a checkpoint soon. */
  request(): void {
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = true
    this.#worker.postMessage('run')
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    this.#worker.postMessage('close')
    await new Promise((resolve) => this.#worker.once('exit', resolve))
  }
}
