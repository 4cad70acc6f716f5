import type { StoreConnection } from '../../src/core/store/connection'
import type { GuaranteeRecord, InspectionRecord } from '../../src/core/store/record-types'
import { prepareRows } from '../../src/core/store/schema/stored-raw'
import type { SyncMark } from '../../src/core/store/write/page-write'
import { upsertRows } from '../../src/core/store/write/writes'

/**
 * Writing parsed records straight into a store, for tests and the bench: the
 * app writes pages the page thread has already prepared (`upsertRows`).
 */

/** Upserts guarantees seen in sync pass `pass`; run inside a transaction. */
export function upsertGuarantees(
  db: StoreConnection,
  items: readonly GuaranteeRecord[],
  pass: number,
  at: string,
  sync?: SyncMark,
): void {
  upsertRows(db, 'guarantees', prepareRows('guarantees', items), pass, at, sync)
}

/** Upserts inspections seen in sync pass `pass`; run inside a transaction. */
export function upsertInspections(
  db: StoreConnection,
  items: readonly InspectionRecord[],
  pass: number,
  at: string,
  sync?: SyncMark,
): void {
  upsertRows(db, 'inspections', prepareRows('inspections', items), pass, at, sync)
}
