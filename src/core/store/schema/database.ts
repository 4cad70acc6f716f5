import { existsSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { StoreConnection } from '../connection'
import { damagedMarkerFor, deepCheck } from './deep-check'
import { AppError } from '../../app-error'
import { ensurePrivateDir, ensurePrivateFile } from '../../fs-private'
import { LATEST_VERSION, MIGRATIONS } from './migrations'
import { openTransactionScope } from '../transaction-scope'
import { RECORD_TABLES } from './stored-raw'
import { indexUnindexed } from '../search/reindex'

/** Told to the user once after the cache file had to be rebuilt. */
export interface StoreNotice {
  readonly code: 'store_corrupt'
  readonly message: string
  /** Where the unreadable file was moved (kept for support). */
  readonly movedTo: string
  readonly at: string
}

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  readonly now?: () => Date
  /** How long a write waits for another connection's lock before `store_busy` (default 5 s). */
  readonly busyTimeoutMs?: number
  /** Migrate only up to this version (tests of each migration). */
  readonly targetVersion?: number
  /** False when a {@link Checkpointer} worker checkpoints instead (default true). */
  readonly autoCheckpoint?: boolean
  /**
   * Skips the whole-file `quick_check` at open (it reads every page: seconds
   * for a million records); only the header and schema are read. The owner
   * opens so, and its checkpointer runs the deep check in the background
   * (`deep-check.ts`); a damage found there marks the file, and the next
   * open rebuilds it.
   */
  readonly deferDeepCheck?: boolean
}

/** An open cache database and what happened while opening it. */
export interface OpenedStore {
  readonly db: StoreConnection
  readonly file: string
  /** Set when the previous file was unreadable, too new or failed its check, and was rebuilt. */
  readonly notice: StoreNotice | null
}

// SQLite primary result codes (https://www.sqlite.org/rescode.html).
const SQLITE = {
  BUSY: 5,
  LOCKED: 6,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
} as const

/** The primary SQLite result code of an error thrown by `node:sqlite`, if it is one. */
function sqliteCode(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'errcode' in error) {
    const code = (error as { errcode: unknown }).errcode
    if (typeof code === 'number') return code & 0xff
  }
  return undefined
}

/** True when the error means the file is not a usable database. */
function isCorruption(error: unknown): boolean {
  if (error instanceof CorruptStoreError) return true
  const code = sqliteCode(error)
  return code === SQLITE.CORRUPT || code === SQLITE.NOTADB
}

/** Maps a SQLite failure to a typed error with a message the user can act on. */
export function toStoreError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const code = sqliteCode(error)
  if (code === SQLITE.FULL) {
    return new AppError(
      'disk_full',
      'The disk is full; nothing was written. Free some space and sync again.',
      { cause: error },
    )
  }
  if (code === SQLITE.BUSY || code === SQLITE.LOCKED) {
    return new AppError('store_busy', 'The local cache is in use by another copy of the app.', {
      cause: error,
    })
  }
  if (isCorruption(error)) {
    return new AppError('store_corrupt', 'The local cache file is damaged.', { cause: error })
  }
  if (code === SQLITE.IOERR || code === SQLITE.CANTOPEN) {
    return new AppError('internal', 'The local cache file could not be read or written.', {
      cause: error,
    })
  }
  return new AppError('internal', 'A local cache operation failed.', { cause: error })
}

/** Raised internally when the file opens but must not be used. */
class CorruptStoreError extends Error {}

/**
 * Runs `fn` in one `BEGIN IMMEDIATE` transaction: all of it is written, or
 * (on any error, SQLITE_FULL included) none of it. Errors come out typed.
 * Work `fn` deferred to its scope's `beforeCommit` (`transaction-scope.ts`)
 * runs after it, in the same transaction; its `afterCommit` work once the
 * transaction is committed.
 */
export function transaction<T>(db: StoreConnection, fn: () => T): T {
  try {
    db.exec('BEGIN IMMEDIATE')
  } catch (error) {
    throw toStoreError(error)
  }
  const { scope, close } = openTransactionScope(db)
  try {
    const value = fn()
    for (const deferred of scope.beforeCommit) deferred()
    db.exec('COMMIT')
    for (const committed of scope.afterCommit) committed()
    return value
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    // A card URL prefix added in the transaction is gone with it (`card-urls.ts`).
    db.cardPrefixes = null
    throw toStoreError(error)
  } finally {
    close()
  }
}

/**
 * The schema version of an open database.
 * @internal
 */
export function userVersion(db: StoreConnection): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number }
  return row.user_version
}

/**
 * Applies every migration above the current version, each in its own
 * transaction. True when one of them asked for a `VACUUM` afterwards (and
 * the database was not new: a fresh file has nothing to reclaim).
 * @internal
 */
export function migrate(db: StoreConnection, targetVersion = LATEST_VERSION): boolean {
  const current = userVersion(db)
  let vacuum = false
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > targetVersion) continue
    transaction(db, () => {
      migration.up(db)
      db.exec(`PRAGMA user_version = ${migration.version}`)
    })
    if (migration.vacuumAfter === true && current > 0) vacuum = true
  }
  return vacuum
}

/**
 * Rebuilds the file after a migration that shrank its rows, so the space
 * comes back to the disk. Best effort: the data is already migrated, so a
 * failure (no room for the copy, a busy database) leaves a larger file,
 * never a broken one.
 */
function vacuum(db: StoreConnection): void {
  try {
    db.exec('VACUUM')
  } catch {
    // The file stays as it was: valid, only larger.
  }
}

/**
 * Opens (creating if needed) the cache database at `file`: WAL, a busy
 * timeout, a `quick_check`, then migrations. A file that is not a database,
 * fails the check, or was written by a newer app version is closed, moved
 * aside with its `-wal`/`-shm` as `*.corrupt-<time>`, and rebuilt; the answer
 * then carries a notice for the user (docs/faults.md F23, F29). The cache holds
 * only copies of service data, so a rebuild loses nothing a sync cannot
 * fetch again.
 */
export function openStore(file: string, options: OpenStoreOptions = {}): OpenedStore {
  const now = options.now ?? (() => new Date())
  ensurePrivateDir(dirname(file))
  try {
    return { db: openChecked(file, options), file, notice: null }
  } catch (error) {
    if (!isCorruption(error)) throw toStoreError(error)
    const at = now()
    const movedTo = moveAside(file, at)
    const db = openChecked(file, options)
    return {
      db,
      file,
      notice: {
        code: 'store_corrupt',
        message: `The local cache could not be read and was rebuilt; the old file was kept as ${basename(movedTo)}. A full sync fills it again.`,
        movedTo,
        at: at.toISOString(),
      },
    }
  }
}

function openChecked(file: string, options: OpenStoreOptions): StoreConnection {
  let db: StoreConnection | null = null
  try {
    // Created 0600 before SQLite opens it, so its -wal and -shm files get that mode too.
    ensurePrivateFile(file)
    db = new StoreConnection(file, { timeout: options.busyTimeoutMs ?? 5000 })
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
    db.exec('PRAGMA foreign_keys = ON')
    if (options.autoCheckpoint === false) db.exec('PRAGMA wal_autocheckpoint = 0')
    if (existsSync(damagedMarkerFor(file))) throw new CorruptStoreError('a deep check failed')
    if (options.deferDeepCheck) {
      // Reads the header and the schema: a file that is not SQLite fails here.
      db.prepare('SELECT count(*) FROM sqlite_master').get()
    } else if (!deepCheck(db)) throw new CorruptStoreError('quick_check failed')
    if (userVersion(db) > LATEST_VERSION) {
      // A newer app wrote this file; never migrate downwards (docs/faults.md F29).
      throw new CorruptStoreError('written by a newer version')
    }
    const before = userVersion(db)
    if (migrate(db, options.targetVersion ?? LATEST_VERSION)) vacuum(db)
    // A migration may clear the search index; it is rebuilt with today's search
    // code, which writes today's FTS columns (an older target is for tests).
    const migrated = db
    if (userVersion(migrated) !== before && userVersion(migrated) === LATEST_VERSION) {
      transaction(migrated, () => indexUnindexed(migrated))
    }
    if (userVersion(migrated) === LATEST_VERSION) setSearchAutomerge(migrated)
    return migrated
  } catch (error) {
    try {
      db?.close()
    } catch {
      // already closed or never opened
    }
    if (error instanceof AppError && error.code === 'store_corrupt')
      throw new CorruptStoreError(error.message)
    throw error
  }
}

/**
 * The FTS5 `automerge` of both search indexes (SQLite's default is 4). Each
 * commit flushes its new terms as a small segment; FTS5 merges segments of
 * the same size level once `automerge` of them are there. At 16 a first
 * sync rewrites its postings less often than at 4 (fewer levels); a
 * query then reads at most 15 small segments per level until they merge,
 * and `compactStore` merges them into one after a first full sync anyway.
 * @internal
 */
export const SEARCH_AUTOMERGE = 16

/**
 * Stores {@link SEARCH_AUTOMERGE} in each search index's config (persistent,
 * in the file), only when it holds another value: on every open, so an index
 * a migration recreated gets it back.
 */
function setSearchAutomerge(db: StoreConnection): void {
  for (const list of Object.keys(RECORD_TABLES)) {
    const row = db.prepare(`SELECT v FROM ${list}_fts_config WHERE k = 'automerge'`).get() as
      { v: unknown } | undefined
    if (row?.v === SEARCH_AUTOMERGE) continue
    db.exec(`INSERT INTO ${list}_fts (${list}_fts, rank) VALUES ('automerge', ${SEARCH_AUTOMERGE})`)
  }
}

/** Renames the database and its WAL and shared-memory files to `*.corrupt-<time>`. */
function moveAside(file: string, at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-')
  const movedTo = `${file}.corrupt-${stamp}`
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, `${file}${suffix}.corrupt-${stamp}`)
  }
  rmSync(damagedMarkerFor(file), { force: true })
  return movedTo
}
