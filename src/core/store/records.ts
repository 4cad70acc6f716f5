/**
 * The records the store writes: the typed fields the app relies on, and the
 * fields the service sent that the app does not know (`raw`), so nothing is
 * lost.
 */

/**
 * A guarantee item as the client parsed it (absent optional fields null, one
 * timestamp spelling, `null` for a timestamp that was not a date); `raw`
 * holds the fields the app does not know. The `raw` column stores what the
 * typed columns do not hold (`stored-raw.ts`).
 */
export interface GuaranteeRecord {
  readonly idx: number
  readonly status: string
  readonly productName: string
  readonly nftCardImg: string | null
  readonly refUserId: string | null
  readonly refOrderId?: string | null
  readonly refOrderDetailId?: string | null
  readonly refProductCode?: string | null
  readonly refCategoryCode?: string | null
  readonly refBrandCode?: string | null
  readonly registeredAt: string | null
  readonly modifiedAt: string | null
  readonly raw: unknown
}

/** An inspection item as the client parsed it; `inspectionStatus` may be null. */
export interface InspectionRecord {
  readonly idx: number
  readonly inspectionNum: string
  readonly inspectionStatus: string | null
  readonly inspectionResult?: string | null
  readonly productName: string
  readonly refUserId: string | null
  readonly refOrderId: string | null
  readonly refOrderDetailId: string | null
  readonly refProductCode: string | null
  readonly registeredAt: string | null
  readonly modifiedAt: string | null
  readonly raw: unknown
}

/** A brand of the brand list, in the service's order. */
export interface BrandRecord {
  readonly idx: number
  readonly name: string
  readonly englishName: string
  readonly raw: unknown
}

/** The two paged resources the sync engine fills. */
export type PagedResource = 'guarantees' | 'inspections'

/** Every resource with a sync state. */
export type SyncResource = PagedResource | 'brands'
