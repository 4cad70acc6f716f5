/** UI languages: Korean first (the users are Korean), English second. */
export const LOCALES = ['ko', 'en'] as const
/** One of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number]
