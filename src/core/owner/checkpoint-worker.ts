import { writeFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { damagedMarkerFor, deepCheck } from '../store/schema/deep-check'
import { yieldToMainThread } from '../threads/spawn'
import {
  isToCheckpointer,
  readCheckpointerData,
  type FromCheckpointer,
} from './checkpoint-protocol'

/**
 * The WAL checkpointer of one profile's file (see `checkpointer.ts` for the
 * owner's side): the only connection besides the owner's. On each `run` it
 * runs `PRAGMA wal_checkpoint(PASSIVE)`, which copies the log into the
 * database file without ever blocking the owner, and answers `done` or
 * `failed`; on `close` it closes its connection and exits.
 *
 * Started with `deepCheck` (when the owner has just opened the file), it
 * first runs the file's deep check (`quick_check`, every page), which the
 * owner skips at open so the first rows come at once: a damaged file is
 * marked (the next open rebuilds it) and the owner's handle is told
 * `damaged`; then `checked`.
 */
if (!parentPort) throw new Error('checkpoint-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort

const data = readCheckpointerData(workerData)
if (!data) throw new Error('checkpoint-worker was started without its file')
const db = new DatabaseSync(data.file, { timeout: 1000 })

function send(message: FromCheckpointer): void {
  port.postMessage(message)
}

if (data.deepCheck) {
  try {
    if (!deepCheck(db)) {
      writeFileSync(damagedMarkerFor(data.file), '', { mode: 0o600 })
      send('damaged')
    }
  } catch {
    // A damaged header or page read throws: the same verdict.
    writeFileSync(damagedMarkerFor(data.file), '', { mode: 0o600 })
    send('damaged')
  }
  send('checked')
}

port.on('message', (raw: unknown) => {
  if (!isToCheckpointer(raw)) {
    send('failed')
    return
  }
  if (raw === 'close') {
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
