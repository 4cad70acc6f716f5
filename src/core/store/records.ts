/**
 * The records the store writes: the typed fields the app relies on, and the
 * item exactly as the service sent it (`raw`), so unknown fields are kept.
 */

/** A guarantee item, normalised (one timestamp spelling, trimmed optional fields). */
export interface GuaranteeRecord {
  readonly idx: number
  readonly status: string
  readonly productName: string
  readonly nftCardImg: string
  readonly refUserId?: string | undefined
  readonly refOrderId?: string | undefined
  readonly refOrderDetailId?: string | undefined
  readonly refProductCode?: string | undefined
  readonly refCategoryCode?: string | undefined
  readonly refBrandCode?: string | undefined
  readonly registeredAt: string
  readonly modifiedAt: string | null
  readonly raw: unknown
}

/** An inspection item, normalised; `inspectionStatus` may be absent. */
export interface InspectionRecord {
  readonly idx: number
  readonly inspectionNum: string
  readonly inspectionStatus?: string | undefined
  readonly inspectionResult?: string | undefined
  readonly productName: string
  readonly refUserId: string
  readonly refOrderId: string
  readonly refOrderDetailId: string
  readonly refProductCode: string
  readonly registeredAt: string
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
