import type { StoreConnection } from '../connection'
import { transaction } from '../schema/database'
import { decodePageWrite } from './row-format'
import type { PageWrite, PageWriteRequest } from './page-write'
import { clearAccepted, storeRejected } from '../queries/rejected'
import { readSyncState, writeSyncState } from '../sync-state'
import { prepareRows, RECORD_TABLES } from '../schema/stored-raw'
import { beforeBaseline, writeBaseline } from './changes'
import { listCount } from './counts'
import { markUnseenGone, passSync, upsertRows } from './writes'

/**
 * Applies one page inside the caller's transaction. True when it ended the
 * first complete full pass of its list: the file is then worth compacting
 * ({@link compactStore}, outside the transaction).
 * @internal
 */
export function applyPageWrite(db: StoreConnection, page: PageWrite): boolean {
  const firstFull =
    page.markGone === true &&
    page.state?.lastFullAt != null &&
    readSyncState(db, page.resource).lastFullAt === null
  const sync = page.sync ?? passSync(page.resource, page.pass, page.at)
  const rows = 'rows' in page ? page.rows : prepareRows(page.resource, page.items)
  if (rows.length > 0) upsertRows(db, page.resource, rows, page.pass, page.at, sync)
  clearAccepted(
    db,
    page.resource,
    rows.map((row) => row.idx),
  )
  if (page.rejects) storeRejected(db, page.resource, page.rejects, page.at)
  if (page.markGone) markUnseenGone(db, page.resource, page.pass, page.at, sync)
  if (page.state) writeSyncState(db, page.resource, page.state)
  // The first complete full pass is the list's baseline: one entry, nothing per record.
  if (
    page.markGone === true &&
    page.state?.lastFullAt != null &&
    beforeBaseline(db, page.resource)
  ) {
    writeBaseline(db, page.resource, listCount(db, page.resource), sync)
  }
  return firstFull
}

/**
 * Writes `pages` in one transaction, each whole and in order, each
 * decoded (`decodePageWrite`) just before it is written. `committed`
 * runs once they are (the owner answers their callers there); then, when
 * one of them ended a list's first complete full pass, the file is
 * compacted ({@link compactStore}), so requests sent meanwhile wait for it.
 *
 * SQLite's temporary files stay in memory meanwhile, unless a page ends a
 * full pass. A statement that writes several rows (a page's reconciliation
 * rows, its counts) keeps the pages it changes in a statement journal, to
 * undo itself alone if it fails; past 64 KB that journal goes to a
 * temporary file. A 100,000-record sync wrote about 130 MB to such files,
 * one write call per changed page, on the owner thread; in memory each
 * journal is a few hundred KB and lives for one statement. The end of a
 * full pass marks records gone in one statement, which may change every
 * page of a list: its journal stays on disk, as do `VACUUM`'s copy and
 * every other write's.
 */
export function writePageBatch(
  db: StoreConnection,
  pages: readonly PageWriteRequest[],
  committed: () => void = () => undefined,
): void {
  const inMemory = !pages.some((page) => page.markGone === true)
  if (inMemory) db.exec('PRAGMA temp_store = MEMORY')
  let firstFull: boolean
  try {
    firstFull = transaction(db, () => {
      let any = false
      // Each page's records are read just before it is written: only one page's rows are alive
      // at a time, instead of the whole batch's surviving the young collections meanwhile.
      for (const page of pages) if (applyPageWrite(db, decodePageWrite(page))) any = true
      return any
    })
  } finally {
    if (inMemory) db.exec('PRAGMA temp_store = DEFAULT')
  }
  committed()
  if (firstFull) compactStore(db)
}

/**
 * Makes the file compact after a first full sync: each search index merged
 * into one segment, then `VACUUM` rebuilds the file without half-empty
 * pages (the index by status fills in random order). Runs on
 * the owner thread; queries wait for it (about a second per 100,000
 * records). Best effort: a failure leaves a valid, larger file.
 * @internal
 */
export function compactStore(db: StoreConnection): void {
  try {
    for (const list of Object.keys(RECORD_TABLES)) {
      db.exec(`INSERT INTO ${list}_fts (${list}_fts) VALUES ('optimize')`)
    }
    db.exec('VACUUM')
  } catch {
    // No room for the copy, or a busy file: it stays as it is, valid.
  }
}
