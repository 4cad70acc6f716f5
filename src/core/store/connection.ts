import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { Brand } from '../../shared/domain'
import type { PagedResource } from './record-types'

/**
 * One connection to a profile's cache file and everything kept for it:
 * prepared statements, the running transaction's scope, the data version
 * that cached answers check, the cell indexes and the search caches.
 * `openStore` (`schema/database.ts`) creates one; the owner thread
 * (`src/core/owner/worker.ts`) holds the only one of a profile and passes it to
 * every store function, so nothing of a connection lives in a module.
 *
 * What is kept here is declared here, below the class, and made and read by
 * the module named beside each field: this module imports none of them, so
 * every store module can import it without an import cycle.
 */
export class StoreConnection extends DatabaseSync {
  /** Statements prepared once (`statements.ts`). */
  readonly statements = new Map<string, StatementSync>()
  /** The running `transaction()`'s scope (`transaction-scope.ts`), or null outside one. */
  transactionScope: TransactionScope | null = null
  /** Bumped by every write (`data-version.ts`), so cached answers know when they are stale. */
  dataVersion = 0
  /** The write path's statements (`write/row-format.ts`), prepared on first write. */
  writeStatements: WriteStatements | null = null
  /** The count tally's statements (`write/counts.ts`), prepared on first write. */
  tallyStatements: TallyStatements | null = null
  /** Each list's cell index (`search/cell-index.ts`), built while the owner is idle. */
  readonly cellIndexes = new Map<PagedResource, CellIndex>()
  /** A search's cells, keyed by data version, list and filter (`queries/list-queries.ts`). */
  readonly searchCells = new Map<string, { cells: Cell[]; capped: boolean }>()
  /** A search's matching rowids, keyed by data version, list and expression (`queries/list-queries.ts`). */
  readonly searchRowids = new Map<string, string | null>()
  /** The stored brand list, read once per data version (`queries/brand-search.ts`). */
  brands: { readonly version: number; readonly rows: StoredBrand[] } | null = null
  /** The store's card URL prefixes (`schema/card-urls.ts`), read on first use; forgotten on a rollback. */
  cardPrefixes: CardPrefixes | null = null
}

/** What lives as long as one `transaction()` (`schema/database.ts`) on a connection. */
export interface TransactionScope {
  /** Writers' state for this transaction only (key it with a symbol of your own). */
  readonly data: Map<symbol, unknown>
  /** Run in order after `fn`, before `COMMIT`, inside the transaction (not after a failure). */
  readonly beforeCommit: (() => void)[]
  /**
   * Run in order once `COMMIT` has succeeded (never after a failure or a
   * rollback): in-memory state that must follow only committed data. They
   * must not throw: the write is committed by then.
   */
  readonly afterCommit: (() => void)[]
}

/** The write path's statements, per table where there is one per table. */
export interface WriteStatements {
  /** The insert of each table, numbered parameters: the declared columns, `raw`, `seen_pass`, `search_key`. */
  readonly insert: Record<PagedResource, StatementSync>
  /** The update of a stored record: named parameters (`:column`) of the written columns (`writtenColumns`). */
  readonly update: Record<PagedResource, StatementSync>
  /** Stored records' `search_key`, `gone_at`, declared columns and `raw` (`?`: a JSON array of `idx`). */
  readonly previous: Record<PagedResource, StatementSync>
  /** Marks an unchanged record seen: only `seen_pass` and `gone_at`. */
  readonly touch: Record<PagedResource, StatementSync>
  readonly ftsDelete: Record<PagedResource, StatementSync>
  readonly ftsInsert: Record<PagedResource, StatementSync>
  /** The change in `list_order` inversions a just-inserted record `:idx` registered at `:r` made. */
  readonly inversions: Record<PagedResource, StatementSync>
  /** Stored `idx` and registration times from the one below `:lo` to the one above `:hi` (at most `:cap`). */
  readonly span: Record<PagedResource, StatementSync>
  /** The review marks of some records (`?`: a JSON array of `idx`). */
  readonly marks: Record<PagedResource, StatementSync>
  readonly brand: StatementSync
}

/** The statements that add a page's new records to the stored counts. */
export interface TallyStatements {
  readonly counts: StatementSync
  readonly days: StatementSync
  readonly order: StatementSync
}

/** Not-gone records of one status and counted review mark (`''`: no mark, or `none`). */
export interface Cell {
  readonly status: string | null
  readonly mark: string
  readonly n: number
}

/** A cell the writer knows: a record it inserted, with its status and counted mark (`countedMark`). */
export type KnownCell = readonly [idx: number, status: string | null, mark: string]

/** Which matched records make a page: their cell, past the cursor, in idx order. */
export interface PagePick {
  accept(cell: { readonly status: string | null; readonly mark: string }): boolean
  /** The idx of the previous page's last row: the page starts past it in its direction. */
  readonly cursor: number | null
  readonly descending: boolean
  readonly limit: number
}

/** The cells of matched records, and the idx of the page picked from them (in page order). */
export interface Matched {
  readonly cells: Cell[]
  readonly page: number[]
}

/** One list's cell index as a connection keeps it (`ListCells` in `search/cell-index.ts`). */
export interface CellIndex {
  /** Given up on: replaced by a fresh index on next use. */
  dropped: boolean
  readonly built: boolean
  /** Built and nearly caught up: a query may try it (`match` still checks the stored counts). */
  readonly ready: boolean
  readonly hasWork: boolean
  touch(idx: number): void
  know(cells: readonly KnownCell[]): void
  buildStep(): boolean
  applyTouched(limit: number): boolean
  match(rowids: string | null, pick?: PagePick, memoKey?: string): Matched | null
}

/** A stored brand as `BRAND_FIELDS` declares it, with how many brands share its name. */
export interface StoredBrand extends Brand {
  readonly same: number
}

/** The store's card URL prefixes both ways, read from `card_url_prefixes` on first use. */
export interface CardPrefixes {
  readonly ids: Map<string, number>
  readonly prefixes: Map<number, string>
}
