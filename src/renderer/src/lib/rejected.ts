import type { MessageKey } from './i18n.svelte'

/** The reader's reasons (core `api/records.ts`) in plain words; any other reason is shown as sent. */
const REASONS: Readonly<Record<string, MessageKey>> = {
  missing: 'rejected.reason.missing',
  'missing or not an integer': 'rejected.reason.notInteger',
  'not an object': 'rejected.reason.notObject',
  refused: 'rejected.reason.refused',
}

/** API field names staff know by another name; any other field is shown as its API name. */
const FIELDS: Readonly<Record<string, MessageKey>> = {
  idx: 'detail.idx',
  inspectionNum: 'detail.inspectionNum',
  productName: 'detail.product',
  status: 'detail.status',
  registeredAt: 'detail.registered',
  registeredAtAt: 'detail.registered',
  modifiedAt: 'detail.modified',
  refUserId: 'detail.member',
  refOrderId: 'detail.order',
  refOrderDetailId: 'detail.orderLine',
  refProductCode: 'detail.productCode',
  refCategoryCode: 'detail.categoryCode',
  refBrandCode: 'detail.brandCode',
}

/** The catalog key of a refusal reason, or null for one the app does not know (shown as sent). */
export function reasonKey(reason: string): MessageKey | null {
  return REASONS[reason] ?? null
}

/** The catalog key naming an API field, or null (the API name is shown). */
export function fieldKey(field: string): MessageKey | null {
  return Object.hasOwn(FIELDS, field) ? FIELDS[field]! : null
}
