import type { DatabaseSync } from 'node:sqlite'
import { Worker } from 'node:worker_threads'
import { AppError } from '../app-error'
import { transaction } from './database'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from './records'
import { clearAccepted, storeRejected, type PageRejects } from './rejected'
import { writeSyncState, type SyncStateRow } from './sync-state'
import { bumpDataVersion, markUnseenGone, upsertGuarantees, upsertInspections } from './writes'

/** One page of a sync: its records and the sync-state change that goes with them. */
export interface PageWrite {
  readonly resource: PagedResource
  readonly items: readonly (GuaranteeRecord | InspectionRecord)[]
  readonly pass: number
  readonly at: string
  /** Written in the same transaction (the checkpoint moves with the page). */
  readonly state?: Partial<Omit<SyncStateRow, 'resource'>>
  /** End of a complete full pass: mark records not seen in `pass` as gone (a full scan). */
  readonly markGone?: boolean
  /** The page's refused items, kept for `sync.rejected` (see `rejected.ts`). */
  readonly rejects?: PageRejects
}

/**
 * Where the sync engine writes pages. Inline (same thread) for tests and
 * small stores; a worker thread in the app and the bench, so the main
 * thread only fetches and parses while another core writes and indexes.
 */
export interface PageWriter {
  /** Resolves once the page is committed. After a failure every later write fails until `reset`. */
  write(page: PageWrite): Promise<void>
  /** Clears a failure (the engine calls it when a run starts). */
  reset(): void
  close(): Promise<void>
}

/** Applies one page inside the caller's transaction. */
export function applyPageWrite(db: DatabaseSync, page: PageWrite): void {
  if (page.items.length > 0 && page.resource === 'guarantees') {
    upsertGuarantees(db, page.items as GuaranteeRecord[], page.pass, page.at)
  } else if (page.items.length > 0) {
    upsertInspections(db, page.items as InspectionRecord[], page.pass, page.at)
  }
  clearAccepted(
    db,
    page.resource,
    page.items.map((item) => item.idx),
  )
  if (page.rejects) storeRejected(db, page.resource, page.rejects, page.at)
  if (page.markGone) markUnseenGone(db, page.resource, page.pass, page.at)
  if (page.state) writeSyncState(db, page.resource, page.state)
}

/** Writes on the calling thread, one transaction per page. */
export function inlinePageWriter(db: () => DatabaseSync): PageWriter {
  return {
    async write(page) {
      const target = db()
      transaction(target, () => applyPageWrite(target, page))
    },
    reset() {},
    async close() {},
  }
}

/** Options of {@link workerPageWriter}. */
export interface WorkerWriterOptions {
  /** The database file (already migrated by the main connection). */
  readonly file: string
  /** The built `writer-worker` entry. */
  readonly workerUrl: URL
  /** e.g. `['--import', 'tsx']` when the entry is TypeScript source. */
  readonly execArgv?: readonly string[]
  /** The main connection, whose count cache must learn that data changed. */
  readonly mainDb: () => DatabaseSync
}

type Reply = { id: number; ok: true } | { id: number; ok: false; code: string; message: string }

/** Writes in a worker thread with its own connection; queued pages commit together. */
export function workerPageWriter(options: WorkerWriterOptions): PageWriter {
  const worker = new Worker(options.workerUrl, {
    workerData: { file: options.file },
    execArgv: [...(options.execArgv ?? [])],
  })
  worker.unref()
  let nextId = 1
  const pending = new Map<number, { resolve: () => void; reject: (error: AppError) => void }>()
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id)
    pending.delete(reply.id)
    if (!waiter) return
    if (reply.ok) {
      bumpDataVersion(options.mainDb())
      waiter.resolve()
    } else {
      waiter.reject(new AppError(reply.code as AppError['code'], reply.message))
    }
  })
  worker.on('error', (error) => {
    for (const waiter of pending.values()) {
      waiter.reject(new AppError('internal', 'The cache writer stopped.', { cause: error }))
    }
    pending.clear()
  })
  return {
    write(page) {
      const id = nextId
      nextId += 1
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker.postMessage({ id, page })
      })
    },
    reset() {
      worker.postMessage({ id: 0, reset: true })
    },
    async close() {
      worker.postMessage({ id: 0, close: true })
      await new Promise((resolve) => worker.once('exit', resolve))
    },
  }
}
