import type { StatementSync } from 'node:sqlite'
import { PAGED_RESOURCES } from '../../../shared/resources'
import type { StoreConnection, Cell, CellIndex, KnownCell, PagePick, Matched } from '../connection'
import { COUNTED_MARK_SQL, storedCells } from '../write/counts'
import type { PagedResource } from '../record-types'
import { transactionScope } from '../transaction-scope'

/**
 * Each stored record's cell (status and counted review mark; gone records
 * have none), per list, in the owner thread's memory: a text search then
 * counts its matches per tab from the matching rowids alone, instead of
 * reading each matching row. An accelerator only: until it is built, or when it
 * lags, `list-queries.ts` counts with SQL instead.
 *
 * - Built by {@link advanceCellIndexes} in the owner's idle time, in chunks
 *   of {@link BUILD_CHUNK} rows in `idx` order, or at once by {@link buildCellIndexes}.
 * - Kept current by the writers: every record a page writes, marks gone or
 *   marks for review is {@link touchCells touched}; touched records are read
 *   again before the next count (or in idle time). A record a page inserts
 *   is {@link knownCells known} instead: the writer has its cell, which is set
 *   once the transaction commits, without reading the record again (most of
 *   a first sync's records, read back one by one before).
 * - Checked on every use against the stored counts (`list_counts`), which
 *   the same transactions keep: any difference (a write that bypassed the
 *   writers) drops it, to be built again.
 *
 * Memory: 6 bytes a record (a sorted `Uint32Array` of idx, a `Float64Array`
 * once an idx does not fit 32 bits, and a `Uint16Array` of cell codes),
 * plus a map of records added since. The
 * build sizes both arrays once from the stored counts, and a merge writes
 * the new arrays in one pass, so neither leaves copies for the collector:
 * an idle owner runs none, and what it left would stay resident.
 */

/** Rows read per build step (at least one step per idle call of the owner). */
const BUILD_CHUNK = 10_000
/** Touched records read again per statement. */
const TOUCH_CHUNK = 500
/** More touched records than this wait for idle time: the count falls back to SQL meanwhile. */
const MAX_TOUCHED_ON_QUERY = 2_000
/** New records kept in the map before they are merged into the sorted arrays. */
const MAX_OVERLAY = 50_000
/** Parsed lists of matches kept per list (searches open in a few views and tabs). */
const MAX_PARSED = 8
/** Cell codes fit a `Uint16Array`; 0 is "not counted" (gone or absent). */
const MAX_CODES = 0xffff

/** The cell columns of a list row `t` left-joined to its mark `r`. */
function cellSql(list: PagedResource): string {
  return `SELECT t.idx, t.status, ${COUNTED_MARK_SQL}
    FROM ${list} t LEFT JOIN review_marks r ON r.resource = '${list}' AND r.record_idx = t.idx`
}

/** The key of a cell (status and counted mark) in a list's dictionary of codes. */
function cellKey(status: string | null, mark: string): string {
  return `${status === null ? '\u0000' : `s${status}`}\u0001${mark}`
}

/** Sorted idx of the cells: 32-bit while every idx fits (the service's do), else doubles. */
type IdxArray = Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>

/** True when `idx` fits a {@link IdxArray} of 32 bits. */
function fits32(idx: number): boolean {
  return Number.isInteger(idx) && idx >= 0 && idx <= 0xffffffff
}

/** An {@link IdxArray} of `size` with `from`'s first `n` values: doubles when `from` is or `wide`. */
function idxArray(size: number, from: IdxArray | null, n: number, wide: boolean): IdxArray {
  const out = wide || from instanceof Float64Array ? new Float64Array(size) : new Uint32Array(size)
  if (from) out.set(from.subarray(0, n))
  return out
}

/** A list of matches read against the cells: idx, their codes, and the count per code. */
interface Parsed {
  readonly generation: number
  readonly idx: Float64Array
  readonly code: Uint16Array
  readonly counts: readonly number[]
  /** `idx` ascending (the search index lists rowids so): a page is then found without a full walk. */
  readonly sorted: boolean
}

class ListCells implements CellIndex {
  /** Given up on (see `#giveUp`): replaced by a fresh index on next use. */
  dropped = false
  /** Sorted idx of records counted when built or merged, and their codes. */
  #idx: IdxArray = new Uint32Array(0)
  #code = new Uint16Array(0)
  /** Records added since: idx → code. */
  #overlay = new Map<number, number>()
  /** Code − 1 → cell; key of a cell → code. */
  readonly #cells: { status: string | null; mark: string }[] = []
  readonly #codes = new Map<string, number>()
  /** Records per code, for the check against `list_counts`. */
  #totals: number[] = [0]
  readonly #touched = new Set<number>()
  /** Bumped by every change of a code: a kept parse ({@link Parsed}) of another generation is stale. */
  #generation = 0
  /** Its two reads (a build step, touched records) by SQL, returning arrays. */
  readonly #statements = new Map<string, StatementSync>()
  /** Parses by the caller's key (its data version and search: a few searches open at once). */
  readonly #memo = new Map<string, Parsed>()
  /** Build progress: the last idx read, and what was read; null once built. */
  #building: {
    after: number
    n: number
    idx: IdxArray
    code: Uint16Array<ArrayBuffer>
  } | null = {
    after: -Infinity,
    n: 0,
    // Typed from the start, sized at the first step: a million records never sit in JS arrays.
    idx: new Uint32Array(0),
    code: new Uint16Array(0),
  }

  constructor(
    private readonly db: StoreConnection,
    private readonly list: PagedResource,
  ) {}

  get built(): boolean {
    return this.#building === null
  }

  /** Built and nearly caught up: a query may try it (`match` still checks the stored counts). */
  get ready(): boolean {
    return this.#building === null && this.#touched.size <= MAX_TOUCHED_ON_QUERY
  }

  get hasWork(): boolean {
    return this.#building !== null || this.#touched.size > 0
  }

  touch(idx: number): void {
    this.#touched.add(idx)
  }

  /**
   * Sets cells the writer knows, as committed (records it inserted). One
   * also touched since is left to its re-read, which sees its last write;
   * an index still being built reads them again like touched ones.
   */
  know(cells: readonly KnownCell[]): void {
    if (this.#building) {
      for (const [idx] of cells) this.#touched.add(idx)
      return
    }
    // A page's records share a few cells: the last one's code is looked up once.
    let last: { status: string | null; mark: string; code: number } | null = null
    for (const [idx, status, mark] of cells) {
      if (this.#touched.has(idx)) continue
      if (last === null || last.status !== status || last.mark !== mark) {
        const code = this.#codeOf(status, mark)
        if (code === null) {
          this.#giveUp()
          return
        }
        last = { status, mark, code }
      }
      this.#set(idx, last.code)
    }
    if (this.#overlay.size > MAX_OVERLAY) this.#merge()
  }

  /** One build step; true when the build is complete. */
  buildStep(): boolean {
    const building = this.#building
    if (!building) return true
    const rows = this.#read(
      `${cellSql(this.list)} WHERE t.idx > ? AND t.gone_at IS NULL ORDER BY t.idx LIMIT ?`,
      building.after,
      BUILD_CHUNK,
    )
    if (building.n + rows.length > building.idx.length) {
      // The stored count and a chunk of room for records written between steps; past that (a sync
      // writing while it builds) an eighth more each time.
      const size =
        building.idx.length === 0
          ? countedRecords(this.db, this.list) + BUILD_CHUNK
          : Math.max(building.idx.length + (building.idx.length >> 3), building.n + rows.length)
      const idx = idxArray(size, building.idx, building.n, false)
      const code = new Uint16Array(size)
      code.set(building.code.subarray(0, building.n))
      building.idx = idx
      building.code = code
    }
    for (const [idx, status, mark] of rows) {
      const code = this.#codeOf(status, mark)
      if (code === null) return this.#giveUp()
      if (!(building.idx instanceof Float64Array) && !fits32(idx)) {
        building.idx = idxArray(building.idx.length, building.idx, building.n, true)
      }
      building.idx[building.n] = idx
      building.code[building.n] = code
      building.n += 1
      this.#totals[code] = (this.#totals[code] ?? 0) + 1
    }
    if (rows.length === BUILD_CHUNK) {
      building.after = rows.at(-1)![0]
      return false
    }
    // Views, not copies: the room left over is at most a chunk or an eighth.
    this.#idx = building.idx.subarray(0, building.n)
    this.#code = building.code.subarray(0, building.n)
    this.#building = null
    return true
  }

  /** Reads up to `limit` touched records again; true when none is left. */
  applyTouched(limit: number): boolean {
    if (this.#building) return false
    // The first `limit` touched, without copying the whole set.
    const all: number[] = []
    for (const idx of this.#touched) {
      if (all.length === limit) break
      all.push(idx)
    }
    for (let i = 0; i < all.length; i += TOUCH_CHUNK) {
      const chunk = all.slice(i, i + TOUCH_CHUNK)
      const found = new Map<number, number>()
      const rows = this.#read(
        `${cellSql(this.list)} WHERE t.idx IN (SELECT value FROM json_each(?)) AND t.gone_at IS NULL`,
        JSON.stringify(chunk),
      )
      for (const [idx, status, mark] of rows) {
        const code = this.#codeOf(status, mark)
        if (code === null) return this.#giveUp()
        found.set(idx, code)
      }
      for (const idx of chunk) {
        this.#set(idx, found.get(idx) ?? 0)
        this.#touched.delete(idx)
      }
    }
    if (this.#overlay.size > MAX_OVERLAY) this.#merge()
    return this.#touched.size === 0
  }

  /**
   * The cells of the records whose idx are listed (comma-separated, as
   * `group_concat` gives them) and, when `pick` says which, the idx of one
   * page of them; null when the index is not ready: not built, too far
   * behind, or not matching the stored counts.
   */
  match(rowids: string | null, pick?: PagePick, memoKey?: string): Matched | null {
    if (!this.ready) return null
    if (!this.applyTouched(MAX_TOUCHED_ON_QUERY) || !this.#matchesStoredCounts()) return null
    const parsed = this.#parse(rowids, memoKey)
    const cells: Cell[] = []
    for (let code = 1; code < parsed.counts.length; code += 1) {
      const n = parsed.counts[code]!
      if (n > 0) cells.push({ ...this.#cells[code - 1]!, n })
    }
    if (!pick) return { cells, page: [] }
    const accepted = new Uint8Array(this.#cells.length + 1)
    this.#cells.forEach((cell, i) => (accepted[i + 1] = pick.accept(cell) ? 1 : 0))
    return {
      cells,
      page: parsed.sorted ? pickSorted(parsed, accepted, pick) : pickAny(parsed, accepted, pick),
    }
  }

  /**
   * The listed idx with their codes and the count per code, kept under
   * `memoKey` while no cell changed (the next page of a search, or another
   * tab of it, then only picks).
   */
  #parse(rowids: string | null, memoKey: string | undefined): Parsed {
    const memo = memoKey === undefined ? undefined : this.#memo.get(memoKey)
    if (memo && memo.generation === this.#generation) return memo
    const idx: number[] = []
    const codes: number[] = []
    const counts = new Array<number>(this.#cells.length + 1).fill(0)
    let sorted = true
    if (rowids) {
      let start = 0
      while (start < rowids.length) {
        let end = rowids.indexOf(',', start)
        if (end < 0) end = rowids.length
        const value = Number(rowids.slice(start, end))
        const code = this.#lookup(value)
        counts[code]! += 1
        if (idx.length > 0 && idx[idx.length - 1]! >= value) sorted = false
        idx.push(value)
        codes.push(code)
        start = end + 1
      }
    }
    const parsed: Parsed = {
      generation: this.#generation,
      idx: Float64Array.from(idx),
      code: Uint16Array.from(codes),
      counts,
      sorted,
    }
    if (memoKey === undefined) return parsed
    if (this.#memo.size >= MAX_PARSED) this.#memo.clear()
    this.#memo.set(memoKey, parsed)
    return parsed
  }

  /** Rows as `[idx, status, mark]` arrays (no object per row), each statement prepared once. */
  #read(sql: string, ...params: (number | string)[]): [number, string | null, string][] {
    let statement = this.#statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      statement.setReturnArrays(true)
      this.#statements.set(sql, statement)
    }
    // The three columns of `cellSql`, in its order.
    return statement.all(...params) as unknown as [number, string | null, string][]
  }

  #codeOf(status: string | null, mark: string): number | null {
    const key = cellKey(status, mark)
    let code = this.#codes.get(key)
    if (code === undefined) {
      if (this.#cells.length + 1 >= MAX_CODES) return null
      this.#cells.push({ status, mark })
      code = this.#cells.length
      this.#codes.set(key, code)
      this.#totals[code] = 0
    }
    return code
  }

  #lookup(idx: number): number {
    const added = this.#overlay.get(idx)
    if (added !== undefined) return added
    const at = this.#find(idx)
    return at < 0 ? 0 : this.#code[at]!
  }

  /** Position of `idx` in the sorted arrays, or −1. */
  #find(idx: number): number {
    const at = lowerBound(this.#idx, idx)
    return this.#idx[at] === idx ? at : -1
  }

  #set(idx: number, code: number): void {
    const at = this.#overlay.has(idx) ? -1 : this.#find(idx)
    const old = at >= 0 ? this.#code[at]! : (this.#overlay.get(idx) ?? 0)
    if (old === code) return
    this.#generation += 1
    this.#totals[old] = (this.#totals[old] ?? 0) - 1
    this.#totals[code] = (this.#totals[code] ?? 0) + 1
    if (at >= 0) this.#code[at] = code
    else this.#overlay.set(idx, code)
  }

  /**
   * Folds the records added since into the sorted arrays (gone ones
   * dropped): the added ones sorted, then both sorted runs merged straight
   * into the new arrays (an added record is never in the old arrays).
   */
  #merge(): void {
    this.#generation += 1
    const added = [...this.#overlay.keys()]
      .filter((idx) => this.#overlay.get(idx) !== 0)
      .sort((a, b) => a - b)
    const old = { idx: this.#idx, code: this.#code }
    let kept = 0
    for (let i = 0; i < old.code.length; i += 1) if (old.code[i] !== 0) kept += 1
    const idx = idxArray(
      kept + added.length,
      null,
      0,
      old.idx instanceof Float64Array || !added.every(fits32),
    )
    const code = new Uint16Array(kept + added.length)
    let i = 0
    let j = 0
    for (let k = 0; k < idx.length; k += 1) {
      while (old.code[i] === 0) i += 1
      if (j < added.length && (i >= old.idx.length || added[j]! < old.idx[i]!)) {
        idx[k] = added[j]!
        code[k] = this.#overlay.get(added[j]!)!
        j += 1
      } else {
        idx[k] = old.idx[i]!
        code[k] = old.code[i]!
        i += 1
      }
    }
    this.#idx = idx
    this.#code = code
    this.#overlay.clear()
  }

  /** Same per-cell numbers as `list_counts`, the stored counts the same transactions keep. */
  #matchesStoredCounts(): boolean {
    const stored = storedCells(this.db, this.list, {})
    let sum = 0
    for (const cell of stored) {
      const code = this.#codes.get(cellKey(cell.status, cell.mark))
      if (code === undefined || this.#totals[code] !== cell.n) return this.#giveUp()
      sum += cell.n
    }
    const counted = this.#totals.reduce((acc, n, code) => (code === 0 ? acc : acc + n), 0)
    return counted === sum || this.#giveUp()
  }

  /** Starts over: the next idle steps build it again. */
  #giveUp(): false {
    this.dropped = true
    return false
  }
}

/** The records a list's stored counts count (not gone): what its index will hold once built. */
function countedRecords(db: StoreConnection, list: PagedResource): number {
  return storedCells(db, list, {}).reduce((sum, cell) => sum + cell.n, 0)
}

function indexOf(db: StoreConnection, list: PagedResource): CellIndex {
  const perDb = db.cellIndexes
  let cells = perDb.get(list)
  if (!cells || cells.dropped) perDb.set(list, (cells = new ListCells(db, list)))
  return cells
}

/** Notes records whose cell may have changed (written, marked gone, marked for review). */
export function touchCells(db: StoreConnection, list: PagedResource, idx: Iterable<number>): void {
  const cells = db.cellIndexes.get(list)
  if (!cells) return
  for (const i of idx) cells.touch(i)
}

/**
 * Notes the cells of records a write inserted: set once its transaction
 * commits (at once outside one), instead of read again like
 * {@link touchCells touched} ones. A rolled-back write sets none.
 */
export function knownCells(
  db: StoreConnection,
  list: PagedResource,
  cells: readonly KnownCell[],
): void {
  const index = db.cellIndexes.get(list)
  if (!index || cells.length === 0) return
  const apply = (): void => {
    // Replaced meanwhile (dropped and built anew from the file): the new one reads them.
    if (index.dropped || db.cellIndexes.get(list) !== index) return
    try {
      index.know(cells)
    } catch {
      // An accelerator only, and the write is committed: built anew at its next use.
      index.dropped = true
    }
  }
  const scope = transactionScope(db)
  if (scope === null) apply()
  else scope.afterCommit.push(apply)
}

/** True when a list's index exists (so a bulk write should say which records it changed). */
export function hasCellIndex(db: StoreConnection, list: PagedResource): boolean {
  return db.cellIndexes.has(list)
}

/**
 * The page of matches in ascending idx order: from the cursor (found by
 * bisection) in the page's direction until `limit` accepted ones, so a
 * page costs what it reads, not what the search matched.
 */
function pickSorted(parsed: Parsed, accepted: Uint8Array, pick: PagePick): number[] {
  const { idx, code } = parsed
  const page: number[] = []
  // First position whose idx is ≥ the cursor (or past every one).
  const low = pick.cursor === null ? 0 : lowerBound(idx, pick.cursor)
  if (pick.descending) {
    for (let i = (pick.cursor === null ? idx.length : low) - 1; i >= 0; i -= 1) {
      if (accepted[code[i]!] === 1 && page.push(idx[i]!) === pick.limit) break
    }
  } else {
    let i = pick.cursor === null ? 0 : low
    if (pick.cursor !== null && i < idx.length && idx[i] === pick.cursor) i += 1
    for (; i < idx.length; i += 1) {
      if (accepted[code[i]!] === 1 && page.push(idx[i]!) === pick.limit) break
    }
  }
  return page
}

/** The first position in ascending `sorted` whose value is ≥ `value` (its length when none is). */
function lowerBound(sorted: IdxArray | Float64Array, value: number): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (sorted[mid]! < value) low = mid + 1
    else high = mid
  }
  return low
}

/** {@link pickSorted} for matches in any order: every one walked, the accepted sorted. */
function pickAny(parsed: Parsed, accepted: Uint8Array, pick: PagePick): number[] {
  const picked: number[] = []
  for (let i = 0; i < parsed.idx.length; i += 1) {
    const idx = parsed.idx[i]!
    const beyond = pick.cursor === null || (pick.descending ? idx < pick.cursor : idx > pick.cursor)
    if (accepted[parsed.code[i]!] === 1 && beyond) picked.push(idx)
  }
  picked.sort((a, b) => a - b)
  return pick.descending ? picked.slice(-pick.limit).reverse() : picked.slice(0, pick.limit)
}

/**
 * The cells of the listed rowids (`group_concat(rowid)` of a search) and
 * the page `pick` takes of them, or null when the list's index is not
 * ready (use SQL instead).
 */
export function matchCells(
  db: StoreConnection,
  list: PagedResource,
  rowids: string | null,
  pick?: PagePick,
  memoKey?: string,
): Matched | null {
  return indexOf(db, list).match(rowids, pick, memoKey)
}

/**
 * Runs build and catch-up steps for about `budgetMs`; true while work is
 * left (the owner calls it again when it is idle).
 */
export function advanceCellIndexes(db: StoreConnection, budgetMs: number): boolean {
  const until = performance.now() + budgetMs
  for (const list of PAGED_RESOURCES) {
    const cells = indexOf(db, list)
    // At least one step a call, however small the budget.
    while (cells.hasWork && !cells.dropped) {
      if (!cells.built) cells.buildStep()
      else cells.applyTouched(TOUCH_CHUNK * 4)
      if (performance.now() >= until) return PAGED_RESOURCES.some((l) => indexOf(db, l).hasWork)
    }
  }
  return PAGED_RESOURCES.some((list) => indexOf(db, list).hasWork)
}

/** True when a list's index is built and nearly caught up (no SQL: `matchCells` checks the counts). */
export function cellIndexReady(db: StoreConnection, list: PagedResource): boolean {
  const cells = db.cellIndexes.get(list)
  return cells !== undefined && cells.ready && !cells.dropped
}

/** True when every list's index is ready (the bench waits for the owner's start-up work). */
export function cellIndexesReady(db: StoreConnection): boolean {
  return PAGED_RESOURCES.every((list) => cellIndexReady(db, list))
}

/**
 * Builds every list's index now (tests and the bench; the owner builds it when idle).
 * @internal
 */
export function buildCellIndexes(db: StoreConnection): void {
  // An index found wrong starts over; after three tries it is left to the idle steps.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    advanceCellIndexes(db, Infinity)
    if (PAGED_RESOURCES.every((list) => indexOf(db, list).match('') !== null)) return
  }
}
