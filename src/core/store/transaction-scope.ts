import type { StoreConnection } from './connection'

/** What lives as long as one `transaction()` (database.ts) on a connection. */
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
