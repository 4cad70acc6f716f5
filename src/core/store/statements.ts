import type { StatementSync } from 'node:sqlite'
import type { StoreConnection } from './connection'

/** Statements kept per connection at most; past it the cache starts over (SQL shapes are few). */
const MAX_STATEMENTS = 128

/**
 * `db.prepare(sql)`, prepared once per connection: a list query runs the
 * same few statements on every page and tab, a sync the same ones on every
 * page. Only for statements run to completion (`all`, `get`, `run`),
 * never iterated, and never given per-call settings such as
 * `setReturnArrays`.
 */
export function prepared(db: StoreConnection, sql: string): StatementSync {
  const cache = db.statements
  let statement = cache.get(sql)
  if (!statement) {
    if (cache.size >= MAX_STATEMENTS) cache.clear()
    statement = db.prepare(sql)
    cache.set(sql, statement)
  }
  return statement
}
