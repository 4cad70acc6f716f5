import * as messages from './messages/messages/_index.js'
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales'

/**
 * Messages of both languages, compiled by Paraglide JS from `messages/ko.json`
 * and `messages/en.json` (`npm run i18n`) into plain functions: no parser and
 * no `eval` at run time, so the renderer's CSP holds. Renderer, core (CSV
 * headers) and main (native dialogs) all take their text from here.
 */

// In a module of their own, so what needs only the languages does not load every message.
export { DEFAULT_LOCALE, LOCALES, type Locale }

type Catalog = typeof messages
/** A message key, as written in the message files. */
export type MessageKey = keyof Catalog & string
/** The placeholders a message takes, by name (checked by the compiler). */
type MessageInputs<K extends MessageKey> = NonNullable<Parameters<Catalog[K]>[0]>
/** The inputs argument of {@link message}: optional for a message without placeholders. */
export type InputsArg<K extends MessageKey> =
  Record<string, never> extends MessageInputs<K>
    ? [inputs?: MessageInputs<K>]
    : [inputs: MessageInputs<K>]

type AnyMessage = (inputs: object, options: { locale: Locale }) => string

/** The text of message `key` in `locale`, its placeholders filled (plurals chosen by count). */
export function message<K extends MessageKey>(
  locale: Locale,
  key: K,
  ...[inputs]: InputsArg<K>
): string {
  return (messages[key] as AnyMessage)(inputs ?? {}, { locale })
}

/** Whether `value` names one of the app's languages. */
export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value)
}

/** Whether `key` names a message (for keys built from data, such as a record's field name). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(messages, key)
}
