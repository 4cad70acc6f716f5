/**
 * The one declaration of each record kind the app keeps: every field's API
 * name, its column and SQL type, how the API reader reads it, whether it is
 * searched, indexed or listed, and how a missing value is stored. The API
 * reader, the store's column lists, upsert and row mapping, and the record
 * and row types all derive from these lists, so adding a field is one line
 * here plus one migration adding its column.
 *
 * Plain data (no node, no electron): the renderer's row types derive from it too.
 */

/**
 * How the API reader reads a field: `integer` (a number or a string of
 * digits; required), `required` text (the item is rejected without it),
 * `expected` text (the spec says always; null with a warning when absent),
 * `optional` text, or a timestamp under either spelling (`name`/`nameAt`),
 * `timestamp` rejecting an item with neither spelling, `timestamp?` not.
 */
type FieldRead = 'integer' | 'required' | 'expected' | 'optional' | 'timestamp' | 'timestamp?'

/**
 * Where a field's value lives and what null becomes: `never` (never null;
 * NOT NULL column), `column` (a nullable column), `blank` (a NOT NULL column
 * storing `''` for null, which the raw JSON then notes; rows show `''`),
 * `blank-null` (stored like `blank`, rows show null), `raw` (no column: kept
 * only in the raw JSON).
 */
type FieldNull = 'never' | 'column' | 'blank' | 'blank-null' | 'raw'

/** One field of a record kind. */
export interface FieldSpec {
  /** The field's name in the API answer and in the parsed record. */
  readonly api: string
  /** Its column; `''` for a field kept only in the raw JSON (`null: 'raw'`). */
  readonly column: string
  readonly sql: 'INTEGER' | 'TEXT'
  readonly read: FieldRead
  readonly null: FieldNull
  /** Part of the text search (in declaration order). */
  readonly searched?: boolean
  /** Leads an index of its table (filters and sorting use it). */
  readonly indexed?: boolean
  /** Its name in the listed row the renderer gets; absent: not listed. */
  readonly row?: string
}

/** A guarantee (operation 1): the `guarantees` table. */
// prettier-ignore
export const GUARANTEE_FIELDS = [
  { api: 'idx', column: 'idx', sql: 'INTEGER', read: 'integer', null: 'never', row: 'idx' },
  /** Issuance label as sent (`발급완료` …); any label is kept. */
  { api: 'status', column: 'status', sql: 'TEXT', read: 'required', null: 'never', indexed: true, row: 'status' },
  { api: 'productName', column: 'product_name', sql: 'TEXT', read: 'required', null: 'never', searched: true, row: 'productName' },
  /** Card image URL on the static host; null (with a warning) when the service left it out. */
  { api: 'nftCardImg', column: 'card_url', sql: 'TEXT', read: 'expected', null: 'blank', row: 'cardUrl' },
  { api: 'refUserId', column: 'ref_user_id', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refUserId' },
  { api: 'refOrderId', column: 'ref_order_id', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refOrderId' },
  { api: 'refOrderDetailId', column: 'ref_order_detail_id', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refOrderDetailId' },
  { api: 'refProductCode', column: 'ref_product_code', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refProductCode' },
  { api: 'refCategoryCode', column: 'ref_category_code', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refCategoryCode' },
  { api: 'refBrandCode', column: 'ref_brand_code', sql: 'TEXT', read: 'optional', null: 'column', searched: true, row: 'refBrandCode' },
  { api: 'refEtcData1', column: 'ref_etc_data1', sql: 'TEXT', read: 'optional', null: 'column' },
  { api: 'refEtcData2', column: 'ref_etc_data2', sql: 'TEXT', read: 'optional', null: 'column' },
  { api: 'refEtcData3', column: 'ref_etc_data3', sql: 'TEXT', read: 'optional', null: 'column' },
  /** `YYYY-MM-DD HH:MM:SS` as the service sends it; null when it was not a date. */
  { api: 'registeredAt', column: 'registered_at', sql: 'TEXT', read: 'timestamp', null: 'blank-null', indexed: true, row: 'registeredAt' },
  /** Null when never modified. */
  { api: 'modifiedAt', column: 'modified_at', sql: 'TEXT', read: 'timestamp?', null: 'column', row: 'modifiedAt' },
  /** The sync token, when the service includes it in the item (the spec puts it in a detail operation). */
  { api: 'guaranteeToken', column: '', sql: 'TEXT', read: 'optional', null: 'raw' },
] as const satisfies readonly FieldSpec[]

/** An inspection (operation 2): the `inspections` table. */
// prettier-ignore
export const INSPECTION_FIELDS = [
  { api: 'idx', column: 'idx', sql: 'INTEGER', read: 'integer', null: 'never', row: 'idx' },
  { api: 'productName', column: 'product_name', sql: 'TEXT', read: 'required', null: 'never', searched: true, row: 'productName' },
  /** Observed as 12 digits. */
  { api: 'inspectionNum', column: 'inspection_num', sql: 'TEXT', read: 'required', null: 'never', searched: true, row: 'inspectionNum' },
  /** Absent on some items: null then. Any label is kept. */
  { api: 'inspectionStatus', column: 'status', sql: 'TEXT', read: 'optional', null: 'column', indexed: true, row: 'status' },
  /** Present only on some `배송완료` items. */
  { api: 'inspectionResult', column: 'result', sql: 'TEXT', read: 'optional', null: 'column', row: 'result' },
  /** The spec says these four are always present; null (with a warning) when one is not. */
  { api: 'refUserId', column: 'ref_user_id', sql: 'TEXT', read: 'expected', null: 'blank', searched: true, row: 'refUserId' },
  { api: 'refOrderId', column: 'ref_order_id', sql: 'TEXT', read: 'expected', null: 'blank', searched: true, row: 'refOrderId' },
  { api: 'refOrderDetailId', column: 'ref_order_detail_id', sql: 'TEXT', read: 'expected', null: 'blank', searched: true, row: 'refOrderDetailId' },
  { api: 'refProductCode', column: 'ref_product_code', sql: 'TEXT', read: 'expected', null: 'blank', searched: true, row: 'refProductCode' },
  { api: 'registeredAt', column: 'registered_at', sql: 'TEXT', read: 'timestamp', null: 'blank-null', indexed: true, row: 'registeredAt' },
  { api: 'modifiedAt', column: 'modified_at', sql: 'TEXT', read: 'timestamp?', null: 'column', row: 'modifiedAt' },
] as const satisfies readonly FieldSpec[]

/**
 * A brand of the brand list (operation 3): the `brands` table, in the
 * service's order (read by `brandSchema`; the list is searched in memory).
 */
// prettier-ignore
export const BRAND_FIELDS = [
  { api: 'idx', column: 'idx', sql: 'INTEGER', read: 'integer', null: 'never', row: 'idx' },
  /** Korean name; several brands may share one. */
  { api: 'name', column: 'name', sql: 'TEXT', read: 'required', null: 'never', searched: true, row: 'name' },
  /** English name with the service's trailing whitespace removed. */
  { api: 'englishName', column: 'english_name', sql: 'TEXT', read: 'required', null: 'never', searched: true, row: 'englishName' },
] as const satisfies readonly FieldSpec[]

type Base<F extends FieldSpec> = F['sql'] extends 'INTEGER' ? number : string

/** A field's value in a parsed record. */
type RecordValue<F extends FieldSpec> = Base<F> | (F['null'] extends 'never' ? never : null)

/** A field's value in a listed row. */
type RowValue<F extends FieldSpec> =
  Base<F> | (F['null'] extends 'column' | 'blank-null' ? null : never)

/** The typed fields of a parsed record of a kind (every declared field). */
export type RecordOf<Fs extends readonly FieldSpec[]> = {
  readonly [F in Fs[number] as F['api']]: RecordValue<F>
}

/** The declared part of a listed row of a kind (the fields with a `row` name). */
export type RowOf<Fs extends readonly FieldSpec[]> = {
  readonly [F in Fs[number] as F extends { readonly row: string } ? F['row'] : never]: RowValue<F>
}

/**
 * True for a field a record given to the store may leave out (null then):
 * one kept only in the raw JSON, or one the API may leave out that no list
 * shows (`refEtcData1..3`).
 */
type MayBeLeftOut<F extends FieldSpec> = F['null'] extends 'raw'
  ? true
  : F extends { readonly row: string }
    ? false
    : F['read'] extends 'optional'
      ? true
      : false

/** A record as the store takes it: every field with a column, those it {@link MayBeLeftOut} optional. */
export type StoreRecordOf<Fs extends readonly FieldSpec[]> = {
  readonly [F in Fs[number] as MayBeLeftOut<F> extends true ? never : F['api']]: RecordValue<F>
} & {
  readonly [F in Fs[number] as MayBeLeftOut<F> extends true ? F['api'] : never]?: RecordValue<F>
}
