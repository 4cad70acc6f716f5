import type { StoreConnection } from './connection'
import type { ErrorData } from '../../shared/errors'
import { AppError } from '../app-error'
import { isFields, isIntegerFrom, isOneOf, readErrorData } from '../plain-checks'
import { prepared } from './statements'
import type { SyncResource } from './record-types'

/** Where an interrupted full pass resumes: the next page to fetch. */
interface Checkpoint {
  /** Next page number to fetch (pages before it are stored). */
  readonly nextPage: number
  readonly pageSize: number
  readonly total: number | null
  readonly fetched: number
}

/** The stored sync state of one resource. */
export interface SyncStateRow {
  readonly resource: SyncResource
  /** `syncing` while a pass runs; left so by a crash, which makes it resumable. */
  readonly status: 'idle' | 'syncing' | 'offline' | 'error'
  readonly mode: 'full' | 'incremental' | null
  readonly checkpoint: Checkpoint | null
  /** Number of the latest full pass; records carry the pass that last saw them. */
  readonly pass: number
  readonly startedAt: string | null
  readonly lastSuccessAt: string | null
  readonly lastFullAt: string | null
  readonly lastError: ErrorData | null
  readonly rejected: number
  /** The page size the service capped this list at, learned by an earlier sync; null when none was. */
  readonly pageSize: number | null
}

const STATUSES = ['idle', 'syncing', 'offline', 'error'] as const
const MODES = ['full', 'incremental'] as const

function isTextOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}

/** A stored row's columns, its checkpoint and last error still JSON text. */
type StoredRow = Omit<SyncStateRow, 'resource' | 'checkpoint' | 'lastError'> & {
  readonly checkpoint: string | null
  readonly lastError: string | null
}

/**
 * A stored sync-state row, checked by hand (the owner loads no schema
 * library): the app wrote it, but the file may have been damaged since. A
 * status, mode or page size it cannot read falls back (`idle`, none,
 * none); anything else it cannot read makes the row unreadable (null).
 */
function checkedRow(found: Readonly<Record<string, unknown>>): StoredRow | null {
  const { pass, rejected, checkpoint } = found
  const startedAt = found['started_at']
  const lastSuccessAt = found['last_success_at']
  const lastFullAt = found['last_full_at']
  const lastError = found['last_error']
  if (!isIntegerFrom(pass, 0) || !isIntegerFrom(rejected, 0)) return null
  if (!isTextOrNull(checkpoint) || !isTextOrNull(startedAt)) return null
  if (!isTextOrNull(lastSuccessAt) || !isTextOrNull(lastFullAt) || !isTextOrNull(lastError)) {
    return null
  }
  const pageSize = found['page_size']
  return {
    status: isOneOf(STATUSES, found['status']) ? found['status'] : 'idle',
    mode: isOneOf(MODES, found['mode']) ? found['mode'] : null,
    checkpoint,
    pass,
    startedAt,
    lastSuccessAt,
    lastFullAt,
    lastError,
    rejected,
    pageSize: isIntegerFrom(pageSize, 1) ? pageSize : null,
  }
}

/** A stored checkpoint, or null when it is not one. */
function checkpointOf(value: unknown): Checkpoint | null {
  if (!isFields(value)) return null
  const { nextPage, pageSize, total, fetched } = value
  if (!isIntegerFrom(nextPage, 1) || !isIntegerFrom(pageSize, 1)) return null
  if (!(total === null || isIntegerFrom(total, 0)) || !isIntegerFrom(fetched, 0)) return null
  return { nextPage, pageSize, total, fetched }
}

/** JSON text read by `read`; null when absent or unreadable. */
function parsedOrNull<T>(text: string | null, read: (value: unknown) => T | null): T | null {
  if (text === null) return null
  try {
    return read(JSON.parse(text))
  } catch {
    return null
  }
}

/**
 * The sync state of `resource` (a blank one if it never synced). Every
 * column is checked: an unreadable checkpoint reads as none (the full pass
 * starts again, which loses nothing), an unreadable error or status as
 * none; a row that is not a sync state at all is a `store_corrupt` error.
 */
export function readSyncState(db: StoreConnection, resource: SyncResource): SyncStateRow {
  const found = prepared(db, 'SELECT * FROM sync_state WHERE resource = ?').get(resource)
  if (!found) {
    return {
      resource,
      status: 'idle',
      mode: null,
      checkpoint: null,
      pass: 0,
      startedAt: null,
      lastSuccessAt: null,
      lastFullAt: null,
      lastError: null,
      rejected: 0,
      pageSize: null,
    }
  }
  const row = checkedRow(found)
  if (row === null) {
    throw new AppError('store_corrupt', `The stored sync state of ${resource} cannot be read.`)
  }
  return {
    ...row,
    resource,
    checkpoint: parsedOrNull(row.checkpoint, checkpointOf),
    lastError: parsedOrNull(row.lastError, readErrorData),
  }
}

/** Writes some fields of a resource's sync state (call inside the page's transaction). */
export function writeSyncState(
  db: StoreConnection,
  resource: SyncResource,
  patch: Partial<Omit<SyncStateRow, 'resource'>>,
): void {
  const next = { ...readSyncState(db, resource), ...patch }
  prepared(
    db,
    `INSERT INTO sync_state (resource, status, mode, checkpoint, pass, started_at, last_success_at,
       last_full_at, last_error, rejected, page_size)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (resource) DO UPDATE SET status = excluded.status, mode = excluded.mode,
       checkpoint = excluded.checkpoint, pass = excluded.pass, started_at = excluded.started_at,
       last_success_at = excluded.last_success_at, last_full_at = excluded.last_full_at,
       last_error = excluded.last_error, rejected = excluded.rejected,
       page_size = excluded.page_size`,
  ).run(
    resource,
    next.status,
    next.mode,
    next.checkpoint ? JSON.stringify(next.checkpoint) : null,
    next.pass,
    next.startedAt,
    next.lastSuccessAt,
    next.lastFullAt,
    next.lastError ? JSON.stringify(next.lastError) : null,
    next.rejected,
    next.pageSize,
  )
}
