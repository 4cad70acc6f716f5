import type { StoreConnection } from './connection'

/** A counter bumped by every write, so cached counts know when they are stale. */
export function dataVersion(db: StoreConnection): number {
  return db.dataVersion
}

/** Marks the data as changed (every write function calls this). */
export function bumpDataVersion(db: StoreConnection): void {
  db.dataVersion += 1
}
