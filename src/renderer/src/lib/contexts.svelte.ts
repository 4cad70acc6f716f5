import { createContext } from 'svelte'
import { DEFAULT_TIME_ZONE } from '../../../shared/profiles'
import type { Client } from './client'
import { formatInstant } from './format'
import type { Locale } from './i18n.svelte'

const [getClient, setClient] = createContext<Client>()

/** The typed client of the nearest ancestor that provided one. */
export const useClient = getClient
/** Provides the typed client to the component tree. */
export const provideClient = setClient

/** Number formats by locale, made once: footers and counts format on every page that arrives. */
const NUMBER_FORMATS: Record<string, Intl.NumberFormat> = {}

/** BCP 47 tag per UI language, for numbers and dates. */
const LOCALE_TAGS: Record<Locale, string> = { ko: 'ko-KR', en: 'en-US' }

/**
 * The one place the profile's time zone and the UI's locale come from: every
 * number and instant the views show is formatted here.
 */
export class Formats {
  readonly #zone: () => string | undefined
  readonly #locale: () => Locale

  constructor(zone: () => string | undefined, locale: () => Locale) {
    this.#zone = zone
    this.#locale = locale
  }

  /** The profile's IANA time zone (the service's wall clock). */
  get timeZone(): string {
    return this.#zone() ?? DEFAULT_TIME_ZONE
  }

  /** BCP 47 locale of the UI language. */
  get locale(): string {
    return LOCALE_TAGS[this.#locale()]
  }

  /** A count in the UI's locale (`12,345`). */
  number = (value: number): string => {
    const locale = this.locale
    NUMBER_FORMATS[locale] ??= new Intl.NumberFormat(locale)
    return NUMBER_FORMATS[locale].format(value)
  }

  /** An ISO instant as wall-clock time in the profile's zone. */
  instant = (iso: string): string => formatInstant(iso, this.timeZone)
}

const [getFormats, setFormats] = createContext<Formats>()

/** The formats of the nearest ancestor that provided them. */
export const useFormats = getFormats
/** Provides the formats to the component tree. */
export const provideFormats = setFormats
