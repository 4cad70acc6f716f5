import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { StoredBrand } from './queries/brand-search'
import type { CardPrefixes } from './schema/card-urls'
import type { ListCells } from './search/cell-index'
import type { Cell, TallyStatements } from './write/counts'
import type { PagedResource } from './record-types'
import type { TransactionScope } from './transaction-scope'
import type { WriteStatements } from './write/write-sql'

/**
 * One connection to a profile's cache file and everything kept for it:
 * prepared statements, the running transaction's scope, the data version
 * that cached answers check, the cell indexes and the search caches.
 * `openStore` (`database.ts`) creates one; the owner thread
 * (`src/core/owner/worker.ts`) holds the only one of a profile and passes it to
 * every store function, so nothing of a connection lives in a module.
 */
export class StoreConnection extends DatabaseSync {
  /** Statements prepared once (`statements.ts`). */
  readonly statements = new Map<string, StatementSync>()
  /** The running `transaction()`'s scope (`transaction-scope.ts`), or null outside one. */
  transactionScope: TransactionScope | null = null
  /** Bumped by every write (`writes.ts`), so cached answers know when they are stale. */
  dataVersion = 0
  /** The write path's statements (`write-sql.ts`), prepared on first write. */
  writeStatements: WriteStatements | null = null
  /** The count tally's statements (`counts.ts`), prepared on first write. */
  tallyStatements: TallyStatements | null = null
  /** Each list's cell index (`cell-index.ts`), built while the owner is idle. */
  readonly cellIndexes = new Map<PagedResource, ListCells>()
  /** A search's cells, keyed by data version, list and filter (`list-queries.ts`). */
  readonly searchCells = new Map<string, { cells: Cell[]; capped: boolean }>()
  /** A search's matching rowids, keyed by data version, list and expression (`list-queries.ts`). */
  readonly searchRowids = new Map<string, string | null>()
  /** The stored brand list, read once per data version (`brand-search.ts`). */
  brands: { readonly version: number; readonly rows: StoredBrand[] } | null = null
  /** The store's card URL prefixes (`card-urls.ts`), read on first use; forgotten on a rollback. */
  cardPrefixes: CardPrefixes | null = null
}
