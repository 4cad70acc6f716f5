import { createContext } from 'svelte'
import type { ErrorData } from '../../../shared/errors'
import {
  DEFAULT_LOCALE,
  message,
  type InputsArg,
  type Locale,
  type MessageKey,
} from '../../../shared/i18n'
import { SERVICE_LABEL_MESSAGES } from './status'

export type { Locale, MessageKey } from '../../../shared/i18n'

/**
 * Where the chosen language lives. The app hands in its preferences (core
 * settings, shared with the native dialogs); on its own (tests) it is kept here.
 */
export interface LocaleStore {
  readonly locale: Locale
  setLocale(locale: Locale): void
}

class LocalLocale implements LocaleStore {
  locale = $state<Locale>(DEFAULT_LOCALE)

  setLocale(locale: Locale): void {
    this.locale = locale
  }
}

/** The UI language and message lookup, shared through context. */
export class I18n {
  readonly #store: LocaleStore

  constructor(store: LocaleStore = new LocalLocale()) {
    this.#store = store
  }

  /** The current language (reactive: reading it subscribes). */
  get locale(): Locale {
    return this.#store.locale
  }

  set locale(locale: Locale) {
    this.setLocale(locale)
  }

  /** Switches language; the store keeps the choice. */
  setLocale(locale: Locale): void {
    this.#store.setLocale(locale)
    globalThis.document?.documentElement.setAttribute('lang', locale)
  }

  /** The message for `key` in the current language, its placeholders filled. */
  t = <K extends MessageKey>(key: K, ...inputs: InputsArg<K>): string =>
    message(this.locale, key, ...inputs)

  /** A status or result label of the service in the current language; unknown labels as sent. */
  label = (text: string): string => {
    const key = SERVICE_LABEL_MESSAGES[text]
    return key === undefined ? text : this.t(key)
  }

  /**
   * The user-facing sentence for an error: what happened, from its reason
   * where core named one, else from its code (the compiler checks the keys).
   */
  errorText = (error: ErrorData): string =>
    error.reason === undefined
      ? this.t(`error.${error.code}`)
      : message(this.locale, `error.reason.${error.reason}`, (error.values ?? {}) as never)

  /**
   * An error's details under "자세히 / Details", in the window's language:
   * what to do, the service's HTTP status where it answered one, and core's
   * own (English) words only in an English window; they are in the log too.
   */
  errorDetails = (error: ErrorData): string =>
    [
      error.reason === undefined
        ? this.t(`error.hint.${error.code}`)
        : message(this.locale, `error.reasonHint.${error.reason}`, (error.values ?? {}) as never),
      error.status === undefined ? null : this.t('error.detail.status', { status: error.status }),
      this.locale === 'en' && error.message.trim() !== ''
        ? this.t('error.detail.original', { text: error.message })
        : null,
    ]
      .filter((line) => line !== null)
      .join('\n')
}

const [getI18n, provideI18n] = createContext<I18n>()

/** Provides the i18n object to the component tree. */
export const setI18n = provideI18n

/** The i18n object of the nearest ancestor that set one. */
export const useI18n = getI18n
