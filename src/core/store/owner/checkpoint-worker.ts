import { DatabaseSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { yieldToMainThread } from '../threads'
import { checkpointerDataSchema, toCheckpointerSchema, type FromCheckpointer } from './protocol'

/**
 * The WAL checkpointer of one profile's file (see `checkpointer.ts` for the
 * owner's side): the only connection besides the owner's. On each `run` it
 * runs `PRAGMA wal_checkpoint(PASSIVE)`, which copies the log into the
 * database file without ever blocking the owner, and answers `done` or
 * `failed`; on `close` it closes its connection and exits.
 */
if (!parentPort) throw new Error('checkpoint-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort

const { file } = checkpointerDataSchema.parse(workerData)
const db = new DatabaseSync(file, { timeout: 1000 })

function send(message: FromCheckpointer): void {
  port.postMessage(message)
}

port.on('message', (raw: unknown) => {
  const message = toCheckpointerSchema.safeParse(raw)
  if (!message.success) {
    send('failed')
    return
  }
  if (message.data === 'close') {
    db.close()
    process.exit(0)
  }
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    send('done')
  } catch {
    // The log stays longer; the next request tries again.
    send('failed')
  }
})
