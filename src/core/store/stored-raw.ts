import { createHash } from 'node:crypto'
import type { GuaranteeRecord, InspectionRecord } from './records'
import { SEARCH_FORMAT, searchDocument, type SearchDocument } from './search-text'

/**
 * What a record row keeps besides its typed columns, and what it indexes.
 *
 * `raw` format (schema 3): JSON of only the record's fields that no typed
 * column holds, null and empty ones left out — `refEtcData1..3`,
 * `guaranteeToken`, the unknown fields the service sent (`raw`) and the
 * parser's `warnings`, plus an explicit `null` for a field whose NOT NULL
 * column stores `''` for it (a guarantee's `nftCardImg`/`registeredAt`, an
 * inspection's `ref*`/`registeredAt`). Columns plus `raw` give back the
 * whole parsed record ({@link expandGuarantee}); a typical row is `{}`.
 */

/** Guarantee fields held by typed columns (`guarantees` table). */
const GUARANTEE_COLUMNS = new Set([
  'idx',
  'status',
  'productName',
  'nftCardImg',
  'refUserId',
  'refOrderId',
  'refOrderDetailId',
  'refProductCode',
  'refCategoryCode',
  'refBrandCode',
  'registeredAt',
  'modifiedAt',
])
/** Of those, the ones whose column stores `''` for null (so null must be written down). */
const GUARANTEE_NOT_NULL = ['nftCardImg', 'registeredAt'] as const

/** Inspection fields held by typed columns (`inspections` table). */
const INSPECTION_COLUMNS = new Set([
  'idx',
  'inspectionNum',
  'inspectionStatus',
  'inspectionResult',
  'productName',
  'refUserId',
  'refOrderId',
  'refOrderDetailId',
  'refProductCode',
  'registeredAt',
  'modifiedAt',
])
const INSPECTION_NOT_NULL = [
  'refUserId',
  'refOrderId',
  'refOrderDetailId',
  'refProductCode',
  'registeredAt',
] as const

/** Null, undefined, `[]` and `{}` are not worth storing. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') {
    for (const key in value) if (Object.hasOwn(value, key)) return false
    return true
  }
  return false
}

function compact(record: object, columns: ReadonlySet<string>, notNull: readonly string[]): string {
  const entries: [string, unknown][] = []
  const fields = record as Record<string, unknown>
  for (const key of notNull) if (fields[key] === null) entries.push([key, null])
  for (const key of Object.keys(fields)) {
    if (columns.has(key)) continue
    const value = fields[key]
    if (!isEmpty(value)) entries.push([key, value])
  }
  if (entries.length === 0) return '{}'
  // fromEntries: a `__proto__` key stays a plain own property.
  return JSON.stringify(Object.fromEntries(entries))
}

/** The `raw` column of a guarantee: what its typed columns do not hold. */
export function guaranteeRaw(record: GuaranteeRecord): string {
  return compact(record, GUARANTEE_COLUMNS, GUARANTEE_NOT_NULL)
}

/** The `raw` column of an inspection: what its typed columns do not hold. */
export function inspectionRaw(record: InspectionRecord): string {
  return compact(record, INSPECTION_COLUMNS, INSPECTION_NOT_NULL)
}

/** The columns of a `guarantees` row (as `SELECT *` gives them). */
export interface GuaranteeColumns {
  readonly idx: number
  readonly status: string
  readonly product_name: string
  readonly card_url: string
  readonly ref_user_id: string | null
  readonly ref_order_id: string | null
  readonly ref_order_detail_id: string | null
  readonly ref_product_code: string | null
  readonly ref_category_code: string | null
  readonly ref_brand_code: string | null
  readonly registered_at: string
  readonly modified_at: string | null
  readonly raw: string
}

/** The columns of an `inspections` row (as `SELECT *` gives them). */
export interface InspectionColumns {
  readonly idx: number
  readonly inspection_num: string
  readonly status: string | null
  readonly result: string | null
  readonly product_name: string
  readonly ref_user_id: string
  readonly ref_order_id: string
  readonly ref_order_detail_id: string
  readonly ref_product_code: string
  readonly registered_at: string
  readonly modified_at: string | null
  readonly raw: string
}

/** The whole parsed guarantee back from a row: absent optional fields are null. */
export function expandGuarantee(row: GuaranteeColumns): Record<string, unknown> {
  return {
    idx: row.idx,
    status: row.status,
    productName: row.product_name,
    nftCardImg: row.card_url,
    refUserId: row.ref_user_id,
    refOrderId: row.ref_order_id,
    refOrderDetailId: row.ref_order_detail_id,
    refProductCode: row.ref_product_code,
    refCategoryCode: row.ref_category_code,
    refBrandCode: row.ref_brand_code,
    refEtcData1: null,
    refEtcData2: null,
    refEtcData3: null,
    registeredAt: row.registered_at,
    modifiedAt: row.modified_at,
    guaranteeToken: null,
    raw: {},
    warnings: [],
    ...(JSON.parse(row.raw) as Record<string, unknown>),
  }
}

/** The whole parsed inspection back from a row: absent optional fields are null. */
export function expandInspection(row: InspectionColumns): Record<string, unknown> {
  return {
    idx: row.idx,
    inspectionNum: row.inspection_num,
    inspectionStatus: row.status,
    inspectionResult: row.result,
    productName: row.product_name,
    refUserId: row.ref_user_id,
    refOrderId: row.ref_order_id,
    refOrderDetailId: row.ref_order_detail_id,
    refProductCode: row.ref_product_code,
    registeredAt: row.registered_at,
    modifiedAt: row.modified_at,
    raw: {},
    warnings: [],
    ...(JSON.parse(row.raw) as Record<string, unknown>),
  }
}

/** The `guarantees` columns of {@link guaranteeSearchFields}, in the same order. */
export const GUARANTEE_SEARCH_COLUMNS = [
  'product_name',
  'ref_user_id',
  'ref_order_id',
  'ref_order_detail_id',
  'ref_product_code',
  'ref_category_code',
  'ref_brand_code',
] as const

/** The `inspections` columns of {@link inspectionSearchFields}, in the same order. */
export const INSPECTION_SEARCH_COLUMNS = [
  'product_name',
  'inspection_num',
  'ref_user_id',
  'ref_order_id',
  'ref_order_detail_id',
  'ref_product_code',
] as const

/** The searchable fields of a guarantee, in index order. */
export function guaranteeSearchFields(
  g: Pick<
    GuaranteeRecord,
    | 'productName'
    | 'refUserId'
    | 'refOrderId'
    | 'refOrderDetailId'
    | 'refProductCode'
    | 'refCategoryCode'
    | 'refBrandCode'
  >,
): (string | null | undefined)[] {
  return [
    g.productName,
    g.refUserId,
    g.refOrderId,
    g.refOrderDetailId,
    g.refProductCode,
    g.refCategoryCode,
    g.refBrandCode,
  ]
}

/** The searchable fields of an inspection, in index order. */
export function inspectionSearchFields(
  i: Pick<
    InspectionRecord,
    | 'productName'
    | 'inspectionNum'
    | 'refUserId'
    | 'refOrderId'
    | 'refOrderDetailId'
    | 'refProductCode'
  >,
): (string | null | undefined)[] {
  return [
    i.productName,
    i.inspectionNum,
    i.refUserId,
    i.refOrderId,
    i.refOrderDetailId,
    i.refProductCode,
  ]
}

/**
 * The indexed text of a record and a short hash of it (`search_key`),
 * prefixed with {@link SEARCH_FORMAT}.
 */
export function searchOf(fields: readonly (string | null | undefined)[]): {
  doc: SearchDocument
  key: string
} {
  const doc = searchDocument(fields)
  const hash = createHash('md5').update(`${doc.t}\u0001${doc.c}`).digest('base64url')
  return { doc, key: SEARCH_FORMAT + hash }
}
