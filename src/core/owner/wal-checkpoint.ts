import { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'

/** What one passive checkpoint did: frames in the log, and how many of them are now in the file. */
export interface WalCheckpoint {
  /** Frames in the log (-1 when the file is not in WAL mode). */
  readonly log: number
  /** Frames copied into the database file so far (all of `log` unless a reader held some back). */
  readonly checkpointed: number
}

/**
 * Runs one `PRAGMA wal_checkpoint(PASSIVE)` on `file` over a connection
 * opened for it and closed before returning, for the thread that runs the
 * owner's checkpoints while it is up anyway (the page thread during a sync,
 * see `checkpointer.ts`). A connection kept between checkpoints would
 * outlive the profile's close: a file being deleted or rebuilt then still
 * has a reader (and on Windows a handle that blocks the deletion). Opened
 * `mode=rw`, so a file that is gone fails instead of coming back empty.
 * Throws SQLite's error (no such file, not a database, busy).
 */
export function checkpointFile(file: string): WalCheckpoint {
  const url = pathToFileURL(file)
  url.searchParams.set('mode', 'rw')
  const db = new DatabaseSync(url, { timeout: 1000 })
  try {
    const row = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').get()
    return { log: Number(row?.['log']), checkpointed: Number(row?.['checkpointed']) }
  } finally {
    db.close()
  }
}
