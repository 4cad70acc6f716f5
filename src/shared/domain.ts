import type { ErrorData } from './errors'
import type { BRAND_FIELDS, GUARANTEE_FIELDS, INSPECTION_FIELDS, RecordOf } from './record-fields'

/** A luxury brand from the service's brand list (operation 3), as declared in `BRAND_FIELDS`. */
export type Brand = RecordOf<typeof BRAND_FIELDS>

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
  /**
   * The list was never fetched: the answer is empty, not "no match". A fetch
   * has been started in the background; `data.changed` tells when it lands.
   */
  readonly notLoaded?: boolean
}

/** What a partner account connects to; staff see it as a colour bar (production red, test blue). */
export const PARTNER_KINDS = ['production', 'test'] as const
/** One of {@link PARTNER_KINDS}. */
export type PartnerKind = (typeof PARTNER_KINDS)[number]
/** A profile's kind: the built-in sandbox (demo data) or a partner account's environment. */
type ProfileKind = 'sandbox' | PartnerKind

/** The active profile as the renderer sees it: never a secret. */
export interface ProfileSummary {
  readonly id: string
  readonly name: string
  readonly kind: ProfileKind
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

/** Guarantee issuance states, the values of the guarantee list's `nftStatus` filter. */
export const GUARANTEE_STATES = ['ready', 'complete', 'cancel'] as const
/** One of {@link GUARANTEE_STATES}. */
export type GuaranteeState = (typeof GUARANTEE_STATES)[number]

/**
 * The status label the service sends with each issuance state: data the
 * records carry, not display text. The spec shows only `발급완료`
 * (complete); `발급대기` and `발급취소` are the sandbox's choice, which the
 * app's filter chips follow.
 */
export const GUARANTEE_STATE_LABELS: Readonly<Record<GuaranteeState, string>> = {
  ready: '발급대기',
  complete: '발급완료',
  cancel: '발급취소',
}

/** The issuance state of a status label the service sends, or null for a label of none (the inverse of {@link GUARANTEE_STATE_LABELS}). */
export function guaranteeStateOf(label: string | null): GuaranteeState | null {
  return label === null ? null : (STATE_OF_LABEL.get(label) ?? null)
}

const STATE_OF_LABEL: ReadonlyMap<string, GuaranteeState> = new Map(
  GUARANTEE_STATES.map((state) => [GUARANTEE_STATE_LABELS[state], state]),
)

/**
 * The service's own filters of its two lists (operations 1 and 2), every
 * field optional: `status` is the inspection list's status label,
 * `nftStatus` the guarantee list's issuance state.
 */
export interface PartnerFilter {
  readonly refUserId?: string
  readonly status?: string
  readonly nftStatus?: GuaranteeState
  /** Inclusive first registration day, `YYYY-MM-DD`. */
  readonly from?: string
  /** Inclusive last registration day, `YYYY-MM-DD`. */
  readonly to?: string
}

/** Paging and sort of a list request: registration time, newest (`latest`) or oldest first. */
interface PartnerPaging {
  /** 1-based; the service defaults to 1. */
  readonly page?: number
  /** The service defaults to 10 and caps it at a maximum the spec does not show. */
  readonly pageSize?: number
  readonly sort?: 'latest' | 'oldest'
}

/** Filters and paging of the guarantee list (operation 1). */
export type GuaranteeQuery = Omit<PartnerFilter, 'status'> & PartnerPaging

/** Filters and paging of the inspection list (operation 2). */
export type InspectionQuery = Omit<PartnerFilter, 'nftStatus'> & PartnerPaging

/** What every parsed partner record carries besides its typed fields. */
interface RecordExtras {
  /**
   * The fields the service sent that the app does not know, exactly as sent
   * (an own-property object built without assignment, so `__proto__` or
   * `constructor` keys stay plain data). Stored beside the typed columns so
   * nothing the service sends is lost.
   */
  readonly raw: Readonly<Record<string, unknown>>
  /**
   * What the parser had to correct, one short line each, e.g. both timestamp
   * spellings sent with different values, or a timestamp that is not a date.
   * Empty for a clean record.
   */
  readonly warnings: readonly string[]
}

/**
 * A guarantee (operation 1), normalised: absent optional fields are `null`,
 * timestamps are `YYYY-MM-DD HH:MM:SS` wall-clock times as the service sends
 * them (zone not shown by the spec), or `null` with a warning when the value
 * was not a date.
 */
export interface Guarantee extends RecordOf<typeof GUARANTEE_FIELDS>, RecordExtras {}

/**
 * An inspection (operation 2), normalised like {@link Guarantee}. Either
 * timestamp spelling (`registeredAt` or `registeredAtAt`, `modifiedAt` or
 * `modifiedAtAt`) ends up in `registeredAt` / `modifiedAt`.
 */
export interface Inspection extends RecordOf<typeof INSPECTION_FIELDS>, RecordExtras {}

/** An item of a page that missed a required field: reported, never silently dropped. */
export interface RejectedItem {
  /** Position in the page's `data` array. */
  readonly position: number
  /** The item's `idx` when it had a readable one. */
  readonly idx: number | null
  /** What was wrong, as JSON paths with a reason, e.g. `data[3].productName: missing`. */
  readonly problems: readonly string[]
  /** The first wrong field (`productName`), or `''` when the item itself was wrong (not an object). */
  readonly field: string
  /** Why that field was refused, e.g. `missing`. */
  readonly reason: string
  /** The item as sent, as JSON, cut to {@link REJECTED_RAW_MAX} characters. */
  readonly raw: string
  /** True when `raw` was cut. */
  readonly rawTruncated: boolean
}

/** The most characters of a refused item's JSON that are kept. */
export const REJECTED_RAW_MAX = 4096

/** One page of the guarantee or inspection list, parsed. */
export interface ListPage<T> {
  /** `total` of the envelope: matching records on the service. */
  readonly total: number
  /** `page` of the envelope (the requested page when the service left it out). */
  readonly page: number
  /** Number of entries in the page's `data`, accepted or not. */
  readonly received: number
  /** `pageSize` of the envelope, when the service echoes it (the spec shows no such field). */
  readonly pageSize?: number
  readonly items: readonly T[]
  /** Number of entries that missed a required field (`rejects.length`). */
  readonly rejected: number
  readonly rejects: readonly RejectedItem[]
}
