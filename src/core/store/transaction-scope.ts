import type { StoreConnection, TransactionScope } from './connection'

/** The scope of the `transaction()` running on `db`, or null outside one. */
export function transactionScope(db: StoreConnection): TransactionScope | null {
  return db.transactionScope
}

/**
 * Opens the scope of a transaction `transaction()` just began on `db`;
 * `close` it when the transaction ends, however it ends. (Its own module, so
 * the writers reach it without importing `database.ts`, which imports them.)
 */
export function openTransactionScope(db: StoreConnection): {
  readonly scope: TransactionScope
  close(): void
} {
  const scope: TransactionScope = { data: new Map(), beforeCommit: [], afterCommit: [] }
  db.transactionScope = scope
  return {
    scope,
    close: () => {
      db.transactionScope = null
    },
  }
}
