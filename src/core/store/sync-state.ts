import type { StoreConnection } from './connection'
import { z } from 'zod'
import type { ErrorData } from '../../shared/errors'
import { AppError } from '../app-error'
import { errorDataSchema } from '../error-data-schema'
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

/** A stored sync-state row, checked: the app wrote it, but the file may have been damaged since. */
const rowSchema = z.object({
  status: z.enum(['idle', 'syncing', 'offline', 'error']).catch('idle'),
  mode: z.enum(['full', 'incremental']).nullable().catch(null),
  checkpoint: z.string().nullable(),
  pass: z.number().int().min(0),
  started_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_full_at: z.string().nullable(),
  last_error: z.string().nullable(),
  rejected: z.number().int().min(0),
  page_size: z.number().int().min(1).nullable().catch(null),
})

const checkpointSchema = z.object({
  nextPage: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().min(0).nullable(),
  fetched: z.number().int().min(0),
})

/** JSON text checked against a schema; null when absent or unreadable. */
function parsedOrNull<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (text === null) return null
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
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
  const parsed = rowSchema.safeParse(found)
  if (!parsed.success) {
    throw new AppError('store_corrupt', `The stored sync state of ${resource} cannot be read.`)
  }
  const row = parsed.data
  return {
    resource,
    status: row.status,
    mode: row.mode,
    checkpoint: parsedOrNull(row.checkpoint, checkpointSchema),
    pass: row.pass,
    startedAt: row.started_at,
    lastSuccessAt: row.last_success_at,
    lastFullAt: row.last_full_at,
    lastError: parsedOrNull(row.last_error, errorDataSchema),
    rejected: row.rejected,
    pageSize: row.page_size,
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
