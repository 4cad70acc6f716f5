import type { ChangeDetail, ChangeFacts, FieldChange } from './changes'
import { isMessageKey, message, type Locale } from './i18n'

/**
 * What a changes-feed entry says, in words: the Changes view shows these
 * lines and the feed's export (`changes.export`) writes them, so both say
 * the same thing. Status and result labels go through `label` (the screen
 * names known labels in the UI's language; the export keeps them as sent).
 */

/** A label as it is written: `label` of the text, or "none" for a missing one. */
function valueText(
  locale: Locale,
  value: string | number | null,
  label: (text: string) => string,
): string {
  if (value === null || value === '') return message(locale, 'changes.none')
  return typeof value === 'number' ? String(value) : label(value)
}

/** A field's name as the screen shows it (`field.<name>`), or its API name. */
function fieldName(locale: Locale, field: string): string {
  const key = `field.${field}`
  return isMessageKey(key) ? message(locale, key) : field
}

/** One line of a `fields` entry: the field, its old and its new value. */
function fieldLine(locale: Locale, change: FieldChange): string {
  const keep = (text: string): string => text
  return message(locale, 'changes.text.field', {
    field: fieldName(locale, change.field),
    before: valueText(locale, change.before, keep),
    after: valueText(locale, change.after, keep),
  })
}

/** The lines of an entry: one per change it holds, and one per field of a `fields` change. */
export function changeLines(
  locale: Locale,
  detail: ChangeDetail,
  label: (text: string) => string = (text) => text,
): string[] {
  return [detail, ...(detail.also ?? [])].flatMap((facts) => factLines(locale, facts, label))
}

/** The lines of one kind of change. */
function factLines(locale: Locale, detail: ChangeFacts, label: (text: string) => string): string[] {
  const moved = (before: string | null, after: string | null) => ({
    before: valueText(locale, before, label),
    after: valueText(locale, after, label),
  })
  switch (detail.kind) {
    case 'baseline':
      return [message(locale, 'changes.text.baseline', { n: detail.records })]
    case 'new':
      return [
        detail.status === null
          ? message(locale, 'changes.text.newBare')
          : message(locale, 'changes.text.new', { status: label(detail.status) }),
      ]
    case 'status':
      return [message(locale, 'changes.text.status', moved(detail.before, detail.after))]
    case 'result':
      return [message(locale, 'changes.text.result', moved(detail.before, detail.after))]
    case 'state':
      return [message(locale, 'changes.text.state', moved(detail.beforeLabel, detail.afterLabel))]
    case 'gone':
      return [message(locale, 'changes.text.gone')]
    case 'back':
      return [message(locale, 'changes.text.back')]
    case 'fields':
      return detail.fields.map((change) => fieldLine(locale, change))
    case 'mention':
      return [message(locale, 'changes.text.mention', { name: detail.by, note: detail.note })]
  }
}
