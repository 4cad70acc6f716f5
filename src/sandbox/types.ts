/** A brand exactly as the service sends it (operation 3). */
export interface RawBrand {
  readonly idx: number
  readonly name: string
  readonly englishName: string
}

/** A guarantee item exactly as the service sends it (operation 1); optional fields may be absent. */
export interface RawGuarantee {
  readonly idx: number
  readonly status: string
  readonly productName: string
  readonly nftCardImg: string
  readonly refUserId?: string
  readonly refOrderId?: string
  readonly refOrderDetailId?: string
  readonly refProductCode?: string
  readonly refCategoryCode?: string
  readonly refBrandCode?: string
  readonly refEtcData1?: string
  readonly refEtcData2?: string
  readonly refEtcData3?: string
  readonly registeredAt: string
  readonly modifiedAt: string | null
}

/**
 * An inspection item exactly as the service sends it (operation 2). A few
 * items carry `registeredAtAt`/`modifiedAtAt` instead of
 * `registeredAt`/`modifiedAt`, as one sample in the spec does.
 */
export interface RawInspection {
  readonly idx: number
  readonly inspectionNum: string
  readonly inspectionStatus?: string
  readonly inspectionResult?: string
  readonly productName: string
  readonly refUserId: string
  readonly refOrderId: string
  readonly refOrderDetailId: string
  readonly refProductCode: string
  readonly registeredAt?: string
  readonly modifiedAt?: string | null
  readonly registeredAtAt?: string
  readonly modifiedAtAt?: string | null
}

/**
 * Inspection status labels. `감정승인(배송중)` and `배송완료` are the ones the
 * spec observed; `감정접수` (received) is the sandbox's invention, so that
 * clients meet a label they have not seen in the spec.
 */
export const INSPECTION_LABELS = ['감정접수', '감정승인(배송중)', '배송완료'] as const
