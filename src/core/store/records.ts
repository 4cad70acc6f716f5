import type { Guarantee, Inspection } from '../../shared/domain'

/**
 * The records the store writes: the typed fields the app relies on, and the
 * fields the service sent that the app does not know (`raw`), so nothing is
 * lost.
 */

/**
 * A guarantee item as the client parsed it (absent optional fields null, one
 * timestamp spelling, `null` for a timestamp that was not a date): the
 * client's {@link Guarantee} fields the store keeps in typed columns, with
 * `raw` holding the fields the app does not know. The `raw` column stores
 * what the typed columns do not hold (`stored-raw.ts`).
 */
export interface GuaranteeRecord
  extends
    Pick<
      Guarantee,
      'idx' | 'status' | 'productName' | 'nftCardImg' | 'refUserId' | 'registeredAt' | 'modifiedAt'
    >,
    Partial<
      Pick<
        Guarantee,
        'refOrderId' | 'refOrderDetailId' | 'refProductCode' | 'refCategoryCode' | 'refBrandCode'
      >
    > {
  readonly raw: unknown
}

/** An inspection item as the client parsed it ({@link Inspection}); `inspectionStatus` may be null. */
export interface InspectionRecord
  extends
    Pick<
      Inspection,
      | 'idx'
      | 'inspectionNum'
      | 'inspectionStatus'
      | 'productName'
      | 'refUserId'
      | 'refOrderId'
      | 'refOrderDetailId'
      | 'refProductCode'
      | 'registeredAt'
      | 'modifiedAt'
    >,
    Partial<Pick<Inspection, 'inspectionResult'>> {
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
