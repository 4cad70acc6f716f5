import type { DatabaseSync } from 'node:sqlite'
import type { ErrorData } from '../../shared/errors'
import type { SyncResource } from './records'

/** Where an interrupted full pass resumes: the next page to fetch. */
export interface Checkpoint {
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
}

interface RawRow {
  resource: string
  status: string
  mode: string | null
  checkpoint: string | null
  pass: number
  started_at: string | null
  last_success_at: string | null
  last_full_at: string | null
  last_error: string | null
  rejected: number
}

/** The sync state of `resource` (a blank one if it never synced). */
export function readSyncState(db: DatabaseSync, resource: SyncResource): SyncStateRow {
  const row = db.prepare('SELECT * FROM sync_state WHERE resource = ?').get(resource) as
    RawRow | undefined
  if (!row) {
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
    }
  }
  return {
    resource,
    status: row.status as SyncStateRow['status'],
    mode: row.mode as SyncStateRow['mode'],
    checkpoint: row.checkpoint ? (JSON.parse(row.checkpoint) as Checkpoint) : null,
    pass: row.pass,
    startedAt: row.started_at,
    lastSuccessAt: row.last_success_at,
    lastFullAt: row.last_full_at,
    lastError: row.last_error ? (JSON.parse(row.last_error) as ErrorData) : null,
    rejected: row.rejected,
  }
}

/** Writes some fields of a resource's sync state (call inside the page's transaction). */
export function writeSyncState(
  db: DatabaseSync,
  resource: SyncResource,
  patch: Partial<Omit<SyncStateRow, 'resource'>>,
): void {
  const next = { ...readSyncState(db, resource), ...patch }
  db.prepare(
    `INSERT INTO sync_state (resource, status, mode, checkpoint, pass, started_at, last_success_at,
       last_full_at, last_error, rejected)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (resource) DO UPDATE SET status = excluded.status, mode = excluded.mode,
       checkpoint = excluded.checkpoint, pass = excluded.pass, started_at = excluded.started_at,
       last_success_at = excluded.last_success_at, last_full_at = excluded.last_full_at,
       last_error = excluded.last_error, rejected = excluded.rejected`,
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
  )
}
