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
  idx: 'field.idx',
  inspectionNum: 'field.inspectionNum',
  productName: 'field.productName',
  status: 'field.status',
  registeredAt: 'field.registeredAt',
  registeredAtAt: 'field.registeredAt',
  modifiedAt: 'field.modifiedAt',
  refUserId: 'field.refUserId',
  refOrderId: 'field.refOrderId',
  refOrderDetailId: 'field.refOrderDetailId',
  refProductCode: 'field.refProductCode',
  refCategoryCode: 'field.refCategoryCode',
  refBrandCode: 'field.refBrandCode',
}

/** The catalog key of a refusal reason, or null for one the app does not know (shown as sent). */
export function reasonKey(reason: string): MessageKey | null {
  return REASONS[reason] ?? null
}

/** The catalog key naming an API field, or null (the API name is shown). */
export function fieldKey(field: string): MessageKey | null {
  return Object.hasOwn(FIELDS, field) ? FIELDS[field]! : null
}
