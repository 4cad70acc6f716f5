import { DatabaseSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { isAppError } from '../app-error'
import { toStoreError, transaction } from './database'
import { applyPageWrite, type PageWrite } from './page-writer'

/**
 * The cache writer thread (see `workerPageWriter`). Pages that queue up
 * while a transaction runs are committed together in the next one, each
 * whole, in order, with its checkpoint; after a failure every later page is
 * refused until the engine resets, so a checkpoint can never skip a page.
 */
type Message = { id: number; page: PageWrite } | { id: 0; reset: true } | { id: 0; close: true }

const db = new DatabaseSync((workerData as { file: string }).file, { timeout: 5000 })
db.exec('PRAGMA synchronous = NORMAL')
db.exec('PRAGMA wal_autocheckpoint = 0')

let queue: { id: number; page: PageWrite }[] = []
let scheduled = false
let failure: { code: string; message: string } | null = null

function flush(): void {
  scheduled = false
  const batch = queue
  queue = []
  if (batch.length === 0) return
  if (!failure) {
    try {
      transaction(db, () => {
        for (const entry of batch) applyPageWrite(db, entry.page)
      })
      for (const entry of batch) parentPort?.postMessage({ id: entry.id, ok: true })
      return
    } catch (error) {
      const typed = isAppError(error) ? error : toStoreError(error)
      failure = { code: typed.code, message: typed.message }
    }
  }
  for (const entry of batch) parentPort?.postMessage({ id: entry.id, ok: false, ...failure })
}

parentPort?.on('message', (message: Message) => {
  if ('close' in message) {
    flush()
    db.close()
    process.exit(0)
  }
  if ('reset' in message) {
    failure = null
    return
  }
  queue.push(message)
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
})
