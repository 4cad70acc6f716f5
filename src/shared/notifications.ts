import type { PagedResourceName } from './resources'

/**
 * Notifications (docs/live.md "Notifications"): decided in core, shown by
 * the host (Electron's `Notification`, the browser's in the web host).
 */

/**
 * The kinds core decides itself (other parts of the app add theirs: an open
 * set): `resultFlagged` (a result arrived that is not `정품`),
 * `resultChanged` (a result changed after it was set), `guaranteeCancelled`,
 * `agingDigest` (the daily digest of records past an aging threshold),
 * `syncFailing` (background sync failing for more than 30 minutes, or a
 * credential error); and the team side's `mentioned` (another member's note
 * mentions this member, docs/team.md "Mentions").
 */

/** The result label that needs no notification. */
export const AUTHENTIC_RESULT = '정품'

/** `HH:MM`, 24-hour. */
export const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/

/** What staff choose about notifications (settings `notifications`). */
export interface NotificationSettings {
  /** Notifications at all (the web host asks the browser's permission when turned on). */
  readonly enabled: boolean
  /** Each kind on or off; a kind not named is on. */
  readonly kinds: Readonly<Record<string, boolean>>
  /** No notification from `from` up to `to` (`HH:MM`, the profile's zone; may span midnight); null: none. */
  readonly quietHours: { readonly from: string; readonly to: string } | null
  /** Names and products in a notification, or counts only. */
  readonly details: boolean
  /** When the daily aging digest is posted (`HH:MM`, the profile's zone). */
  readonly digestAt: string
}

/** Defaults a shop would choose: results and sync failure on, the digest off, details on. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  kinds: {
    resultFlagged: true,
    resultChanged: true,
    guaranteeCancelled: true,
    agingDigest: false,
    syncFailing: true,
    mentioned: true,
  },
  quietHours: null,
  details: true,
  digestAt: '09:00',
}

/** Payload of the `notification.posted` event: one grouped notification. */
export interface PostedNotification {
  readonly id: string
  readonly kind: string
  /** When it was decided (ISO). */
  readonly at: string
  /** Records it is about (0 for the sync's health). */
  readonly count: number
  /** In the UI's language, e.g. "가품 3건". */
  readonly title: string
  /** The first product and how many more ("샤넬 클래식 플랩 외 2건"), or counts only. */
  readonly body: string
  /** Whether `body` names records (the details setting). */
  readonly details: boolean
  /** What a click opens: the record (one), or the Changes view filtered to them (several). */
  readonly records: readonly { readonly resource: PagedResourceName; readonly idx: number }[]
  /**
   * The account it is about when that is not the active one (every-account mode,
   * docs/live.md): its title names it, and a click switches to it first.
   */
  readonly account?: { readonly id: string; readonly name: string }
}
