import type { SQLInputValue } from 'node:sqlite'
import { BRAND_FIELDS } from '../../../shared/record-fields'
import type { StoreConnection, KnownCell, WriteStatements } from '../connection'
import { CARD_URL_FIELD, withCardUrl, withStoredCardUrl } from '../schema/card-urls'
import { hasCellIndex, knownCells, touchCells } from '../search/cell-index'
import {
  beforeBaseline,
  fillStatusBounds,
  flushChanges,
  logGone,
  PageChanges,
  writeBaseline,
} from './changes'
import { DEFAULT_TIME_ZONE } from '../../../shared/profiles'
import type { PageWrite, PageWriteRequest, SyncMark } from './page-write'
import { countedMark, listCount, NewRecordTally } from './counts'
import type { BrandRecord, PagedResource } from '../record-types'
import { transactionScope } from '../transaction-scope'
import { prepared } from '../statements'
import { reconcileInserted } from './reconcile-writes'
import {
  nfc,
  prepareRows,
  RECORD_TABLES,
  type PreparedRow,
  type RecordTable,
  type StoredRow,
} from '../schema/stored-raw'
import { decodePageWrite, STORED_COLUMNS, writeStatements } from './row-format'
import { transaction } from '../schema/database'
import { clearAccepted, storeRejected } from '../queries/rejected'
import { readSyncState, writeSyncState } from '../sync-state'
import { bumpDataVersion } from '../data-version'

/**
 * The write of a page of synced records: the owner's batch of pages in one
 * `transaction()` ({@link writePageBatch}), each page with its checkpoint
 * ({@link applyPageWrite}); what a page changes, its search rows, counts
 * and cell index ({@link upsertRows}, which callers wrap in a
 * transaction); the brands, and the records gone. The statements run here
 * are built and prepared in `row-format.ts`.
 */

/** True when every value an upsert would write equals the stored one. */
function sameRow(row: StoredRow, values: PreparedRow['values']): boolean {
  for (const column in values) if (row[column] !== values[column]) return false
  return true
}

/** What one page's write shares between its records. */
interface PageContext {
  readonly db: StoreConnection
  readonly s: WriteStatements
  readonly table: RecordTable
  readonly pass: number
  readonly tally: NewRecordTally
  /** Records whose cell (status, gone) may have changed: the cell index reads them again. */
  readonly moved: number[]
  /** Records inserted, with their cells: the cell index takes them as they are ({@link knownCells}). */
  readonly known: KnownCell[]
  /** The transaction's FTS rows still to write, or null to write them at once. */
  readonly pendingSearch: PendingSearch | null
  /** What the page changed, for the changes feed (`changes.ts`). */
  readonly changes: PageChanges
}

/** Each stored column ({@link STORED_COLUMNS}) with its parameter's name as bound (`:column`). */
const WRITTEN_NAMES: Readonly<Record<PagedResource, readonly (readonly [string, string])[]>> = {
  guarantees: STORED_COLUMNS.guarantees.map((c) => [c, `:${c}`] as const),
  inspections: STORED_COLUMNS.inspections.map((c) => [c, `:${c}`] as const),
}

/** The parameters of one record's insert, reused from record to record ({@link insertNew}). */
const INSERT_VALUES: SQLInputValue[] = []

/**
 * Writes one record, given its stored row (undefined when none): an
 * unchanged one (most of a re-sync) is only marked seen, without rewriting
 * the row, its indexes or its FTS row; a changed one is updated, and its
 * FTS row rewritten only when a searched column changed or its
 * `search_key` names another `SEARCH_FORMAT` (or none): such a record is
 * re-indexed. A
 * record not stored yet is returned, to be inserted with the page's other
 * new ones ({@link insertNew}).
 */
function writeRecord(
  page: PageContext,
  record: PreparedRow,
  row: StoredRow | undefined,
): PreparedRow | null {
  const { s, table, pass } = page
  const { idx, values, key } = record
  const previousKey = row === undefined ? undefined : ((row['search_key'] as string | null) ?? null)
  if (row !== undefined && previousKey === key && sameRow(row, values)) {
    s.touch[table.name].run(pass, idx)
    // Unchanged, but back if it was gone.
    if (row['gone_at'] !== null) {
      page.moved.push(idx)
      page.changes.touched(idx, row)
    }
    return null
  }
  if (row === undefined) {
    page.changes.added(idx, values)
    return record
  }
  page.moved.push(idx)
  // Every written column by name (see writtenColumns).
  const written: Record<string, SQLInputValue> = {}
  for (const [column, name] of WRITTEN_NAMES[table.name]) {
    written[name] = values[column] as SQLInputValue
  }
  written[':seen_pass'] = pass
  written[':search_key'] = key
  // The feed names card URLs as sent, not as stored (`card-urls.ts`).
  page.changes.changed(idx, withCardUrl(page.db, row), withCardUrl(page.db, values))
  s.update[table.name].run(written)
  writeSearch(page, record, previousKey, previousKey !== key || searchedChanged(table, row, values))
  return null
}

/** True when a searched column's value differs from the stored one (the FTS text follows them). */
function searchedChanged(
  table: RecordTable,
  row: StoredRow,
  values: PreparedRow['values'],
): boolean {
  for (const f of table.searched) if (row[f.column] !== values[f.column]) return true
  return false
}

/** A record's registration time as its column holds it (NOT NULL). */
function registeredAtOf(row: PreparedRow): string {
  return row.values['registered_at'] as string
}

/** Stored rows read at most around a page's new records to count their inversions in memory. */
const SPAN_CAP_PER_RECORD = 8

/**
 * True when SQLite's `a > b` (BINARY: UTF-8 bytes) holds. UTF-16 order is
 * the same unless a string has a character from U+D800 up.
 */
function textAfter(a: string, b: string): boolean {
  if (!/[\uD800-\uFFFF]/.test(a + b)) return a > b
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) > 0
}

/** Neighbours in a sequence of registration times that are the other way round. */
function inversionsOf(times: readonly string[]): number {
  let n = 0
  for (let i = 1; i < times.length; i += 1) if (textAfter(times[i - 1]!, times[i]!)) n += 1
  return n
}

/**
 * Inserts a page's new records (ascending `idx`, after its stored ones were
 * updated) and counts them (migration 8: no insert trigger does): their
 * cells in the tally (with their review marks: a record may be marked,
 * gone and back), and the change in `list_order` inversions, found in
 * memory from the stored rows between and beside them (one read), or per
 * record when too many stored rows lie in between.
 */
function insertNew(page: PageContext, fresh: readonly PreparedRow[]): void {
  if (fresh.length === 0) return
  const { s, table, tally, pass } = page
  const marked = s.marks[table.name].all(JSON.stringify(fresh.map((row) => row.idx))) as {
    record_idx: number
    mark: string
  }[]
  const marks = new Map(marked.map((m) => [m.record_idx, m.mark]))
  const cap = SPAN_CAP_PER_RECORD * fresh.length + 2
  const span = s.span[table.name].all({
    lo: fresh[0]!.idx,
    hi: fresh.at(-1)!.idx,
    cap,
  }) as {
    idx: number
    registered_at: string
  }[]
  const inMemory = span.length < cap
  if (inMemory) {
    const merged: string[] = []
    let i = 0
    for (const row of fresh) {
      while (i < span.length && span[i]!.idx < row.idx) merged.push(span[i++]!.registered_at)
      merged.push(registeredAtOf(row))
    }
    while (i < span.length) merged.push(span[i++]!.registered_at)
    tally.addInversions(inversionsOf(merged) - inversionsOf(span.map((r) => r.registered_at)))
  }
  const columns = STORED_COLUMNS[table.name]
  // The insert's parameters, in the order of its SQL (`recordInsertSql`), in one array for all.
  const written = INSERT_VALUES
  written.length = columns.length + 2
  for (const row of fresh) {
    for (let i = 0; i < columns.length; i += 1) {
      written[i] = row.values[columns[i]!] as SQLInputValue
    }
    written[columns.length] = pass
    written[columns.length + 1] = row.key
    s.insert[table.name].run(...written)
    writeSearch(page, row, undefined)
    const registeredAt = registeredAtOf(row)
    const status = row.values['status'] as string | null
    const mark = countedMark(marks.get(row.idx))
    tally.add(status, registeredAt, mark)
    page.known.push([row.idx, status, mark])
    if (!inMemory) {
      const change = s.inversions[table.name].get({ idx: row.idx, r: registeredAt }) as {
        d: number
      }
      tally.addInversions(change.d)
    }
  }
}

/** A record's FTS row to write: its text, and whether it replaces one stored before. */
interface SearchRow {
  readonly replaces: boolean
  readonly text: string
}

/** FTS rows gathered in one transaction, by list and rowid. */
type PendingSearch = Record<PagedResource, Map<number, SearchRow>>

const PENDING_SEARCH = Symbol('pending FTS rows')

/**
 * The FTS rows of the {@link transaction} running on `db`, written at its
 * end in ascending rowid order over all its pages; null outside one (rows
 * are then written at once). FTS5 flushes its pending terms as a new
 * segment whenever a rowid goes down, and a sync's pages come newest first:
 * written page by page, a commit of three pages made three segments.
 */
function pendingSearchOf(db: StoreConnection, s: WriteStatements): PendingSearch | null {
  const scope = transactionScope(db)
  if (scope === null) return null
  const found = scope.data.get(PENDING_SEARCH) as PendingSearch | undefined
  if (found !== undefined) return found
  const pending: PendingSearch = { guarantees: new Map(), inspections: new Map() }
  scope.data.set(PENDING_SEARCH, pending)
  scope.beforeCommit.push(() => {
    for (const table of Object.keys(pending) as PagedResource[]) {
      const rows = pending[table]
      for (const idx of [...rows.keys()].sort((a, b) => a - b)) {
        const row = rows.get(idx)!
        if (row.replaces) s.ftsDelete[table].run(idx)
        s.ftsInsert[table].run(idx, row.text)
      }
    }
  })
  return pending
}

/**
 * Writes a record's FTS row when `rewrite` says its indexed text changed
 * (a new record: always): a new record's is inserted, a changed one's
 * replaced. Inside a transaction the row waits for its end; a record
 * written twice in it keeps its last text, and replaces an FTS row only if
 * one was there before the transaction.
 */
function writeSearch(
  page: PageContext,
  record: PreparedRow,
  previousKey: string | null | undefined,
  rewrite = true,
): void {
  if (!rewrite) return
  const { s, table, pendingSearch } = page
  const { idx, text } = record
  if (pendingSearch === null) {
    if (previousKey !== undefined) s.ftsDelete[table.name].run(idx)
    s.ftsInsert[table.name].run(idx, text)
    return
  }
  const queued = pendingSearch[table.name].get(idx)
  pendingSearch[table.name].set(idx, {
    replaces: queued === undefined ? previousKey !== undefined : queued.replaces,
    text,
  })
}

/** The sync a write belongs to when its caller names none: its pass, at its time. */
function passSync(resource: PagedResource, pass: number, at: string): SyncMark {
  return { id: `${resource}-${pass}`, at }
}

/**
 * Writes a page's prepared records in ascending `idx` order (the order of
 * the table's and the search index's keys: appending is cheaper and leaves
 * no half-empty pages in the file): its stored records first, then its new
 * ones, with their share of the reconciliation view (`reconcile-writes.ts`),
 * then adds these to the stored counts, and logs what changed
 * (`changes.ts`) for sync `sync` (by default its pass, at `at`). Run inside
 * a transaction. The owner writes through {@link applyPageWrite}; tests
 * drive this step directly.
 * @internal
 */
export function upsertRows(
  db: StoreConnection,
  resource: PagedResource,
  rows: readonly PreparedRow[],
  pass: number,
  at: string,
  sync: SyncMark = passSync(resource, pass, at),
): void {
  const s = writeStatements(db)
  const table = RECORD_TABLES[resource]
  // A store from before aging bounds: its rows first, in the sync's zone (once).
  if (prepared(db, 'SELECT 1 FROM status_bounds_pending WHERE resource = ?').get(resource)) {
    fillStatusBounds(db, sync.zone ?? DEFAULT_TIME_ZONE, resource)
  }
  // One row per idx, the later one (it would have overwritten the earlier), in idx order.
  const byIdx = new Map<number, PreparedRow>()
  for (const row of rows) byIdx.set(row.idx, row)
  if (table.inColumns.has(CARD_URL_FIELD)) {
    // A copy where the URL is stored short: the caller's row stays.
    for (const [idx, row] of byIdx) {
      const values = withStoredCardUrl(db, row.values)
      if (values !== row.values) byIdx.set(idx, { ...row, values })
    }
  }
  const page: PageContext = {
    db,
    s,
    table,
    pass,
    tally: new NewRecordTally(),
    moved: [],
    known: [],
    pendingSearch: pendingSearchOf(db, s),
    changes: new PageChanges(resource, sync, beforeBaseline(db, resource)),
  }
  const order = [...byIdx.keys()].sort((a, b) => a - b)
  // The page's stored rows in one read (a first sync finds none).
  const stored = new Map<number, StoredRow>()
  for (const row of s.previous[table.name].all(JSON.stringify(order)) as StoredRow[]) {
    stored.set(Number(row['idx']), row)
  }
  const fresh: PreparedRow[] = []
  for (const idx of order) {
    const row = writeRecord(page, byIdx.get(idx)!, stored.get(idx))
    if (row) fresh.push(row)
  }
  insertNew(page, fresh)
  reconcileInserted(db, resource, fresh)
  flushChanges(db, page.changes)
  page.tally.flush(db, table.name)
  touchCells(db, table.name, page.moved)
  knownCells(db, table.name, page.known)
  bumpDataVersion(db)
}

/** Replaces the brand list (it is small and always fetched whole); run inside a transaction. */
export function replaceBrands(
  db: StoreConnection,
  items: readonly BrandRecord[],
  pass: number,
  goneAt: string,
): void {
  const s = writeStatements(db)
  items.forEach((b, position) => {
    const values = Object.fromEntries(BRAND_FIELDS.map((f) => [f.column, nfc(b[f.api])]))
    s.brand.run({ ...values, position, raw: JSON.stringify(b), seen_pass: pass })
  })
  db.prepare('UPDATE brands SET gone_at = ? WHERE seen_pass < ? AND gone_at IS NULL').run(
    goneAt,
    pass,
  )
  bumpDataVersion(db)
}

/**
 * After a complete, consistent full pass: marks records the service no longer
 * returned (not seen in `pass`) as gone, instead of deleting them. The
 * owner marks them through {@link applyPageWrite}; tests drive this step
 * directly.
 * @internal
 */
export function markUnseenGone(
  db: StoreConnection,
  table: PagedResource,
  pass: number,
  goneAt: string,
  sync: SyncMark = passSync(table, pass, goneAt),
): number {
  const sql = `UPDATE ${table} SET gone_at = ? WHERE seen_pass < ? AND gone_at IS NULL RETURNING idx`
  const gone = (db.prepare(sql).all(goneAt, pass) as { idx: number }[]).map((row) => row.idx)
  logGone(db, table, gone, sync)
  if (hasCellIndex(db, table)) touchCells(db, table, gone)
  bumpDataVersion(db)
  return gone.length
}

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
