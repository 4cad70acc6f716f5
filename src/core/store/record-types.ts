import type { PagedResourceName, SyncResourceName } from '../../shared/resources'
import type {
  BRAND_FIELDS,
  GUARANTEE_FIELDS,
  INSPECTION_FIELDS,
  StoreRecordOf,
} from '../../shared/record-fields'

/**
 * The records the store writes, derived from their declarations
 * (`src/shared/record-fields.ts`): the declared fields (those kept only in
 * the raw JSON optional), and whatever else the parsed
 * record carries (`raw`, the fields the service sent that the app does not
 * know; `warnings`), which the `raw` column keeps, so nothing is lost.
 */

/** What a record carries besides its declared fields. */
interface Extras {
  readonly raw?: unknown
  readonly warnings?: readonly string[]
}

/** A guarantee as the client parsed it ({@link GUARANTEE_FIELDS}). */
export type GuaranteeRecord = StoreRecordOf<typeof GUARANTEE_FIELDS> & Extras

/** An inspection as the client parsed it ({@link INSPECTION_FIELDS}). */
export type InspectionRecord = StoreRecordOf<typeof INSPECTION_FIELDS> & Extras

/** A brand of the brand list, in the service's order ({@link BRAND_FIELDS}). */
export type BrandRecord = StoreRecordOf<typeof BRAND_FIELDS> & Extras

/** The two paged resources the sync engine fills. */
export type PagedResource = PagedResourceName

/** One stored record of a list, by its `idx`. */
export interface RecordRef {
  readonly resource: PagedResource
  readonly idx: number
}

/** Every resource with a sync state. */
export type SyncResource = SyncResourceName
