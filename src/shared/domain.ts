import type { ErrorData } from './errors'

/** A luxury brand from the service's brand list (operation 3). */
export interface Brand {
  readonly idx: number
  /** Korean name; several brands may share one. */
  readonly name: string
  /** English name with the service's trailing whitespace removed. */
  readonly englishName: string
}

/** Where the data of an answer came from and how fresh it is. */
export interface Freshness {
  /** When the data was last fetched from the service (ISO time), or null if never. */
  readonly fetchedAt: string | null
  /** `live`: fetched for this answer; `cache`: from the local copy. */
  readonly source: 'live' | 'cache'
  /** Set when the last refresh failed and the answer comes from the local copy. */
  readonly staleBecause?: ErrorData
}

/** A brand as listed in the UI. */
export interface BrandRow extends Brand {
  /** How many brands in the whole list share this Korean name (1 when it is unique). */
  readonly sameNameCount: number
}

/** Answer of `brands.search`. */
export interface BrandSearchResult {
  readonly items: readonly BrandRow[]
  /** Number of brands known in all, before the query filtered them. */
  readonly total: number
  readonly freshness: Freshness
}

/** The active profile as the renderer sees it: never a secret. */
export interface ProfileSummary {
  readonly id: string
  readonly name: string
  readonly kind: 'sandbox' | 'partner'
  readonly baseUrl: string
  readonly partnerId: string
  /** IANA zone of the service's timestamps. */
  readonly timeZone: string
}

/** Answer of `app.info`. */
export interface AppInfo {
  readonly name: string
  readonly version: string
  /** `electron` or `web` (the development and test host). */
  readonly host: 'electron' | 'web'
  readonly profile: ProfileSummary
}
