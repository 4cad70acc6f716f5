import type { DatabaseSync } from 'node:sqlite'

/** What lives as long as one `transaction()` (database.ts) on a connection. */
export interface TransactionScope {
  /** Writers' state for this transaction only (key it with a symbol of your own). */
  readonly data: Map<symbol, unknown>
  /** Run in order after `fn`, before `COMMIT`, inside the transaction (not after a failure). */
  readonly beforeCommit: (() => void)[]
}

const scopes = new WeakMap<DatabaseSync, TransactionScope>()

/** The scope of the `transaction()` running on `db`, or null outside one. */
export function transactionScope(db: DatabaseSync): TransactionScope | null {
  return scopes.get(db) ?? null
}

/**
 * Opens the scope of a transaction `transaction()` just began on `db`;
 * `close` it when the transaction ends, however it ends. (Its own module, so
 * the writers reach it without importing `database.ts`, which imports them.)
 */
export function openTransactionScope(db: DatabaseSync): {
  readonly scope: TransactionScope
  close(): void
} {
  const scope: TransactionScope = { data: new Map(), beforeCommit: [] }
  scopes.set(db, scope)
  return { scope, close: () => void scopes.delete(db) }
}
