import { isMessageKey } from '../../../shared/i18n'
import type { MessageKey } from './i18n.svelte'

/** The reader's reasons (core `api/records.ts`) in plain words; any other reason is shown as sent. */
const REASONS: Readonly<Record<string, MessageKey>> = {
  missing: 'rejected.reason.missing',
  'missing or not an integer': 'rejected.reason.notInteger',
  'not an object': 'rejected.reason.notObject',
  refused: 'rejected.reason.refused',
}

/** The catalog key of a refusal reason, or null for one the app does not know (shown as sent). */
export function reasonKey(reason: string): MessageKey | null {
  return REASONS[reason] ?? null
}

/**
 * The catalog key naming an API field (the label the lists, the detail pane
 * and the CSV share), or null (the API name is shown). The service's other
 * spelling `registeredAtAt` is the same field.
 */
export function fieldKey(field: string): MessageKey | null {
  const key = `field.${field === 'registeredAtAt' ? 'registeredAt' : field}`
  return isMessageKey(key) ? key : null
}
