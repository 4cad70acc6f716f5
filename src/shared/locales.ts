/** UI languages: Korean first (the users are Korean), English second. */
export const LOCALES = ['ko', 'en'] as const
/** One of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number]

/** The language of a new install, a settings file without one, and an export that names none. */
export const DEFAULT_LOCALE: Locale = 'ko'
