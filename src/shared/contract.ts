import { z } from 'zod'
import { LIST_LIMIT } from './list-limit'
import { DEFAULT_LOCALE, LOCALES } from './locales'
import type { ChannelName, EventName } from './channels'
import {
  REVIEW_MARKS,
  RUN_MODES,
  type GuaranteeRow,
  type InspectionRow,
  type QueryPage,
  type RejectedPage,
  type ReviewMark,
  type SyncProgress,
  type SyncStatus,
} from './lists'
import { PAGED_RESOURCES, SYNC_RESOURCES, type SyncResourceName } from './resources'
import {
  CHANGE_KINDS,
  type AgingCounts,
  type ChangePage,
  type RecordPlace,
  type RecordTimeline,
} from './changes'
import { GUARANTEE_STATES, type AppInfo, type BrandSearchResult } from './domain'
import type { ErrorData, Result } from './errors'
import type { Dashboard } from './dashboard'
import { EXPORT_FORMATS, type ExportResult } from './export'
import { RECONCILE_KINDS, type ReconcilePage } from './reconcile'
import { viewSaveSchema, type SavedViewList } from './saved-views'
import { LIVE_MAX_PAUSE_MINUTES, type LiveAccountsStatus, type LiveStatus } from './live'
import type { PostedNotification } from './notifications'
import { listFilterSchema, listFilterShape } from './list-filter'
import type {
  ConnectionTestResult,
  CredentialStatus,
  ProfileList,
  ProfileView,
  SettingsView,
} from './profiles'
import {
  MAX_SECRET_CHARS,
  profileIdSchema,
  profileInputSchema,
  secretInputSchema,
  settingsInputSchema,
} from './profile-schemas'
import { pinSchema, type LockAttempt, type LockStatus } from './lock'
import type {
  ReviewHistoryEntry,
  SetAsideEvent,
  TeamMembers,
  PresenceView,
  TeamStatusView,
  TeamTestResult,
} from './team'
import { REVIEW_NOTE_MAX_CHARS } from './server-text'
import { serverTextSchema } from './server-text-schema'
import type { ReviewsSetManyResult, ReviewsUndoResult } from './reviews'
import {
  WALLET_FLOWS,
  WALLET_OUTCOMES,
  type WalletExportResult,
  type WalletHistoryPage,
  type WalletOutcome,
  type WalletStarted,
} from './wallet'

/** The language of an export's headers and labels. */
const exportLanguage = z.enum(LOCALES).default(DEFAULT_LOCALE)

/** An export's file: an Excel workbook unless CSV is asked for. */
const exportFormat = z.enum(EXPORT_FORMATS).default('xlsx')

/** Keyset paging of a list query. */
const pagingShape = {
  limit: z.number().int().min(1).max(LIST_LIMIT.max).default(LIST_LIMIT.default),
  /** `nextCursor` of the previous page. */
  cursor: z.string().max(512).optional(),
}

/** Arguments of `inspections.query`: the list filter (`list-filter.ts`) and keyset paging. */
const listQuerySchema = listFilterSchema.extend(pagingShape)
/** Arguments of `guarantees.query`: a list filter and the API's issuance state (`nftStatus`). */
const guaranteeQuerySchema = listQuerySchema.extend({
  state: z.enum(GUARANTEE_STATES).optional(),
})
/** A list query as the core receives it, defaults filled in. */
export type ListQuery = z.output<typeof listQuerySchema>
/** A guarantee list query as the core receives it, defaults filled in. */
export type GuaranteeListQuery = z.output<typeof guaranteeQuerySchema>

/** One stored record of a list, by its `idx`. */
const recordRef = z.strictObject({
  resource: z.enum(PAGED_RESOURCES),
  idx: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
})

/** Filters of the wallet-link history (`wallet.history`, `wallet.export`). */
const walletFilter = {
  flow: z.enum(WALLET_FLOWS).optional(),
  outcome: z.enum(WALLET_OUTCOMES).optional(),
  member: z.string().trim().min(1).max(200).optional(),
  guaranteeIdx: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
}

/**
 * The IPC contract, declared once. Each channel has an argument schema (its
 * arguments arrive as `unknown` and are parsed before use) and a result type.
 * Main, preload, web host and renderer all derive their types from here.
 */
export const argSchemas = {
  /** Name, version and the active profile (no secrets). */
  'app.info': z.strictObject({}),
  /** Search the brand list; Korean, initial consonants or English, case-insensitive. */
  'brands.search': z.strictObject({
    query: z.string().max(200).default(''),
  }),
  /** Fetch the brand list from the service again. */
  'brands.refresh': z.strictObject({}),
  /** Start syncing (in the background); `auto` resumes, or runs full until one pass finished. */
  'sync.start': z.strictObject({
    resources: z.array(z.enum(SYNC_RESOURCES)).min(1).max(SYNC_RESOURCES.length).optional(),
    mode: z.enum(RUN_MODES).default('auto'),
  }),
  /** Cancel running syncs; what was stored stays, a full pass resumes later. */
  'sync.cancel': z.strictObject({}),
  /** Sync status of every resource. */
  'sync.status': z.strictObject({}),
  /** Records a sync refused, newest first, with why and as sent; a resource filter is optional. */
  'sync.rejected': z.strictObject({
    resource: z.enum(PAGED_RESOURCES).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    /** `nextBefore` of the previous page. */
    before: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  /** A page of stored inspections for a filter, with counts per status and freshness. */
  'inspections.query': listQuerySchema,
  /** A page of stored guarantees; `state` is the API's issuance state (`nftStatus`). */
  'guarantees.query': guaranteeQuerySchema,
  /** Sets a record's review mark and note (the reviewer's name comes from the settings). */
  'reviews.set': z.strictObject({
    resource: z.enum(PAGED_RESOURCES),
    idx: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    mark: z.enum(REVIEW_MARKS),
    /** Omitted: the stored note stays. Checked as the team server takes text (docs/team.md "Limits"). */
    note: serverTextSchema(REVIEW_NOTE_MAX_CHARS).optional(),
  }),
  /**
   * Sets the mark and/or the note of many records in one action (one local
   * transaction, one batch of team events): the records by idx, or every row
   * of a list filter (`filter`, its paging ignored). Undone by `reviews.undo`.
   */
  'reviews.setMany': z
    .strictObject({
      resource: z.enum(PAGED_RESOURCES),
      idxs: z
        .array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
        .min(1)
        .max(5000)
        .optional(),
      filter: guaranteeQuerySchema.optional(),
      mark: z.enum(REVIEW_MARKS).optional(),
      note: serverTextSchema(REVIEW_NOTE_MAX_CHARS).optional(),
    })
    .refine((args) => (args.idxs === undefined) !== (args.filter === undefined), {
      message: 'give either idxs or a filter',
      path: ['idxs'],
    })
    .refine((args) => args.mark !== undefined || args.note !== undefined, {
      message: 'give a mark, a note or both',
      path: ['mark'],
    }),
  /** Takes back this session's last mark, assignment or bulk action, as new events that restore each record. */
  'reviews.undo': z.strictObject({}),
  /**
   * Assigns records to a member of the team (its login role) or to nobody
   * (null), by idx or every row of a list filter, in one action (one local
   * transaction, one event per record that changes). Needs a team server.
   * Undone by `reviews.undo` (docs/team.md "Assignment").
   */
  'assignments.set': z
    .strictObject({
      resource: z.enum(PAGED_RESOURCES),
      idxs: z
        .array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
        .min(1)
        .max(5000)
        .optional(),
      filter: guaranteeQuerySchema.optional(),
      assignee: z.string().min(1).pipe(serverTextSchema(63)).nullable(),
    })
    .refine((args) => (args.idxs === undefined) !== (args.filter === undefined), {
      message: 'give either idxs or a filter',
      path: ['idxs'],
    }),
  /**
   * The changes feed, newest first: what each sync found new, moved, set,
   * gone or back, each entry with its record (`resource` + `idx`). Filter by
   * kinds and list; page with `before` (`nextBefore` of the previous page).
   */
  'changes.list': z.strictObject({
    resource: z.enum(PAGED_RESOURCES).optional(),
    kinds: z.array(z.enum(CHANGE_KINDS)).min(1).max(CHANGE_KINDS.length).optional(),
    limit: z.number().int().min(1).max(500).default(100),
    before: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  }),
  /** Marks feed entries seen: these `ids`, or every entry up to and including `upTo`. */
  'changes.markSeen': z.union([
    z.strictObject({
      ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).min(1).max(1000),
    }),
    z.strictObject({ upTo: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }),
  ]),
  /** The feed for a filter (kinds, list), newest first, as a workbook or CSV. */
  'changes.export': z.strictObject({
    resource: z.enum(PAGED_RESOURCES).optional(),
    kinds: z.array(z.enum(CHANGE_KINDS)).min(1).max(CHANGE_KINDS.length).optional(),
    lang: exportLanguage,
    format: exportFormat,
  }),
  /** Entries of the feed not marked seen yet (the navigation's count). */
  'changes.unseen': z.strictObject({}),
  /** A record's statuses with the time and sync that first saw each, and its feed entries. */
  'records.timeline': recordRef,
  /** Where a record is listed (to open it on its list), or null when its list does not show it. */
  'records.locate': recordRef,
  /** Records flagged by each aging rule (thresholds from the settings `agingDays`). */
  'aging.counts': z.strictObject({}),
  /**
   * The whole list for a filter and sort as a workbook or CSV (every field and
   * the review marks): saved through a dialog in the app, a download in the web host.
   */
  'lists.export': z.strictObject({
    resource: z.enum(PAGED_RESOURCES),
    ...listFilterShape,
    /** Guarantees only: the API's issuance state. */
    state: z.enum(GUARANTEE_STATES).optional(),
    lang: exportLanguage,
    format: exportFormat,
  }),
  /** Every profile with its credential status (never a secret) and the active one. */
  'profiles.list': z.strictObject({}),
  /** Adds a profile (no `id`) or edits one; answers the saved profile. */
  'profiles.save': profileInputSchema,
  /** Stores or replaces a profile's API key and/or secret; answers only whether one is stored. */
  'profiles.setSecret': secretInputSchema,
  /** Removes a profile and its keychain entry; its cached data only when `deleteCache` (after the user confirmed). */
  'profiles.remove': z.strictObject({
    id: profileIdSchema,
    deleteCache: z.boolean().default(false),
  }),
  /** Makes a profile the active one (remembered for the next start). */
  'profiles.select': z.strictObject({ id: profileIdSchema }),
  /** Calls the brand list with the profile's credentials and says what happened. */
  'profiles.test': z.strictObject({ id: profileIdSchema }),
  /** Preferences (theme, reviewer's name), notices (e.g. a damaged file was reset) and where the files are. */
  'settings.get': z.strictObject({}),
  /** Why a card image was not shown (e.g. too large to show safely), or null when nothing is known. */
  'images.status': z.strictObject({ url: z.string().min(1).max(4096) }),
  /** Changes preferences (theme, reviewer's name); answers the settings as `settings.get` does. */
  'settings.set': settingsInputSchema,
  /**
   * Opens a wallet-link flow: pre-sync a member, or sync one guarantee (its
   * token from the store when absent). Production profiles need `confirmed`.
   */
  'wallet.start': z
    .strictObject({
      flow: z.enum(WALLET_FLOWS),
      refUserId: z.string().trim().min(1).pipe(serverTextSchema(200)),
      guaranteeIdx: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      token: z.string().trim().max(1000).optional(),
      confirmed: z.boolean().default(false),
    })
    .refine((args) => args.flow === 'pre-sync' || args.guaranteeIdx !== undefined, {
      message: 'a sync needs guaranteeIdx',
      path: ['guaranteeIdx'],
    }),
  /** Ends a running flow as cancelled; `closed` when its popup was closed (web host). */
  'wallet.cancel': z.strictObject({
    flowId: z.uuid(),
    closed: z.boolean().default(false),
  }),
  /** Past flows of the active profile, newest first, and the running one. */
  'wallet.history': z.strictObject({
    ...walletFilter,
    limit: z.number().int().min(1).max(1000).default(200),
  }),
  /** The filtered history as a workbook or CSV: a save dialog in Electron, a download in the web host. */
  'wallet.export': z.strictObject({
    ...walletFilter,
    lang: exportLanguage,
    format: exportFormat,
  }),
  /** Records that do not add up, by kind, member and order line, with totals per kind. */
  'reconcile.list': z.strictObject({
    kind: z.enum(RECONCILE_KINDS).optional(),
    /** Member ids that start with this (filtered as staff type). */
    member: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(500).default(50),
    /** `nextCursor` of the previous page. */
    cursor: z.string().max(1024).optional(),
  }),
  /** Every record of the reconciliation filter, one a line, as a workbook or CSV. */
  'reconcile.export': z.strictObject({
    kind: z.enum(RECONCILE_KINDS).optional(),
    member: z.string().min(1).max(200).optional(),
    lang: exportLanguage,
    format: exportFormat,
  }),
  /**
   * Counts per status of each list with this week against the last, records
   * registered per day or week (this period against the last), and the
   * reconciliation totals; each number with the list filter that reproduces it.
   */
  'dashboard.get': z.strictObject({ bucket: z.enum(['day', 'week']).default('day') }),
  /** Connects to a profile's team server: server version, schema version, the role's team (docs/team.md). */
  'team.test': z.strictObject({ id: profileIdSchema }),
  /** The active profile's team state: none, connected, or offline with what waits and why. */
  'team.status': z.strictObject({}),
  /** Stores a profile's team server password in the keychain (never in settings); answers the new state. */
  'team.setPassword': z.strictObject({
    id: profileIdSchema,
    password: z.string().min(1).max(MAX_SECRET_CHARS),
    /** Kept in memory until quit, not in the keychain (none, or a locked one). */
    sessionOnly: z.boolean().optional(),
  }),
  /** The user looked at a record another member changed while they were away: clears its flag. */
  'team.ackChanged': z.strictObject({
    resource: z.enum(PAGED_RESOURCES),
    idx: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  /** Every review event of one record, oldest first (who, when, mark, note). */
  'reviews.history': z.strictObject({
    resource: z.enum(PAGED_RESOURCES),
    idx: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  /** This member's login role and the people whose marks the lists can be filtered by. */
  'team.members': z.strictObject({}),
  /** The events the team server refused for their content, set aside, oldest first, with why. */
  'team.setAside': z.strictObject({}),
  /** Drops events set aside (they are never sent); answers the new state. */
  'team.discard': z.strictObject({ ids: z.array(z.uuid()).min(1).max(10_000) }),
  /**
   * The record this member has open in the detail pane (null: none), shown to
   * the other members of the team while it stays open; nothing is stored or
   * queued (docs/team.md "Presence"). Answers who else has which record open.
   * `{}` counts as null: the web host sends a missing argument as `{}`.
   */
  'presence.set': z.union([recordRef, z.null(), z.strictObject({})]),
  /** Who else on the team has which record open now (empty without a team server). */
  'presence.list': z.strictObject({}),
  /** Saved views of the lists and the last filter of each (docs/renderer.md "Saved views"). */
  'views.list': z.strictObject({}),
  /** Saves a list's filter under a name (no `id`), or renames or re-filters a saved view. */
  'views.save': viewSaveSchema,
  /** Removes a saved view. */
  'views.remove': z.strictObject({ id: z.uuid() }),
  /** Keeps the filter a list shows now; the list opens with it at the next start. */
  'views.setLast': z.strictObject({
    resource: z.enum(PAGED_RESOURCES),
    filter: listFilterSchema,
  }),
  /** The live schedule: next poll, pause, last outcome and the step running (docs/live.md). */
  'live.status': z.strictObject({}),
  /** No background sync for `minutes` (an hour, until tomorrow …). */
  'live.pause': z.strictObject({
    minutes: z.number().int().min(1).max(LIVE_MAX_PAUSE_MINUTES),
  }),
  /** Ends a pause and polls at once. */
  'live.resume': z.strictObject({}),
  /** What the page knows of the machine (web host): online, and whether the window is shown. */
  /** The other accounts kept current (settings `live.allAccounts`): how many, and the last failure. */
  'live.accounts': z.strictObject({}),
  'live.signal': z.strictObject({
    online: z.boolean().optional(),
    visible: z.boolean().optional(),
  }),
  /** Whether a PIN is set, whether the app is locked, why, and any wait after wrong entries. */
  'lock.status': z.strictObject({}),
  /** Locks the app now (Ctrl+L, the menu, the palette); does nothing without a PIN. */
  'lock.now': z.strictObject({}),
  /** The page saw input (throttled by the page): the idle time starts again. */
  'lock.activity': z.strictObject({}),
  /** Unlocks with the PIN; a wrong one counts, and after five each makes the next wait longer. */
  'lock.unlock': z.strictObject({ pin: z.string().min(1).max(1000) }),
  /** Sets or changes the PIN or password (`current` needed when one is set); kept as a slow hash in the keychain. */
  'lock.setPin': z.strictObject({
    pin: pinSchema,
    current: z.string().min(1).max(1000).optional(),
  }),
  /** Removes the PIN (with the current one): the app no longer locks. */
  'lock.removePin': z.strictObject({ current: z.string().min(1).max(1000) }),
  /** A forgotten PIN: the active account's API secret removes it and unlocks. */
  'lock.resetWithSecret': z.strictObject({ apiSecret: z.string().min(1).max(MAX_SECRET_CHARS) }),
  /**
   * A forgotten PIN: deletes every account's cached data and stored key and
   * secret, then removes the PIN and unlocks (`confirm` must be true).
   */
  'lock.resetByErasing': z.strictObject({ confirm: z.literal(true) }),
} satisfies Record<ChannelName, z.ZodType>

/** Result type of each channel. */
interface ChannelResults {
  'app.info': AppInfo
  'brands.search': BrandSearchResult
  'brands.refresh': BrandSearchResult
  'sync.start': SyncStatus
  'sync.cancel': SyncStatus
  'sync.status': SyncStatus
  'sync.rejected': RejectedPage
  'inspections.query': QueryPage<InspectionRow>
  'guarantees.query': QueryPage<GuaranteeRow>
  'reviews.set': ReviewMark
  'reviews.setMany': ReviewsSetManyResult
  'reviews.undo': ReviewsUndoResult
  'assignments.set': ReviewsSetManyResult
  'changes.list': ChangePage
  'changes.markSeen': { readonly marked: number; readonly unseen: number }
  'changes.unseen': { readonly unseen: number }
  'changes.export': ExportResult
  'records.timeline': RecordTimeline
  'records.locate': RecordPlace | null
  'aging.counts': AgingCounts
  'lists.export': ExportResult
  'profiles.list': ProfileList
  'profiles.save': ProfileView
  'profiles.setSecret': CredentialStatus
  'profiles.remove': ProfileList
  'profiles.select': ProfileList
  'profiles.test': ConnectionTestResult
  'settings.get': SettingsView
  'images.status': { readonly problem: ErrorData | null }
  'settings.set': SettingsView
  'wallet.start': WalletStarted
  'wallet.cancel': { readonly cancelled: boolean }
  'wallet.history': WalletHistoryPage
  'wallet.export': WalletExportResult
  'reconcile.list': ReconcilePage
  'reconcile.export': ExportResult
  'dashboard.get': Dashboard
  'team.test': TeamTestResult
  'team.status': TeamStatusView
  'team.setPassword': TeamStatusView
  'team.ackChanged': { readonly cleared: boolean }
  'reviews.history': readonly ReviewHistoryEntry[]
  'team.members': TeamMembers
  'team.setAside': readonly SetAsideEvent[]
  'team.discard': TeamStatusView
  'presence.set': PresenceView
  'presence.list': PresenceView
  'views.list': SavedViewList
  'views.save': SavedViewList
  'views.remove': SavedViewList
  'views.setLast': SavedViewList
  'live.status': LiveStatus
  'live.pause': LiveStatus
  'live.resume': LiveStatus
  'live.signal': LiveStatus
  'live.accounts': LiveAccountsStatus
  'lock.status': LockStatus
  'lock.now': LockStatus
  'lock.activity': Readonly<Record<string, never>>
  'lock.unlock': LockAttempt
  'lock.setPin': LockStatus
  'lock.removePin': LockStatus
  'lock.resetWithSecret': LockStatus
  'lock.resetByErasing': LockStatus
}

/** Payload of each event. */
export interface EventPayloads {
  /** A resource's local data changed; views showing it reload. */
  'data.changed': { readonly resource: SyncResourceName }
  /** Progress of a running sync: records fetched, total, pages, rate, time left. */
  'sync.progress': SyncProgress
  /** The profile list or the active profile changed; views reload. */
  'profiles.changed': { readonly activeId: string }
  /** A wallet-link flow ended (never a URL or a key). */
  'wallet.outcome': WalletOutcome
  /** A command of the registry (src/shared/commands.ts) chosen in the application menu. */
  'command.run': { readonly id: string }
  /** The active profile's team state changed (status bar). */
  'team.status': TeamStatusView
  /** The Wallet history gained links other members ran (pulled from the team server). */
  'wallet.historyChanged': Readonly<Record<string, never>>
  /** The live schedule's status changed (status bar). */
  'live.status': LiveStatus
  /** What the status bar says of the other accounts kept current changed. */
  'live.accounts': LiveAccountsStatus
  /** A notification core decided (docs/live.md "Notifications"): the host shows it. */
  'notification.posted': PostedNotification
  /** Electron's shell: staff clicked a notification; the window opens what it is about. */
  'notification.open': PostedNotification
  /** The app locked or unlocked, or its PIN or idle time changed. */
  'lock.changed': LockStatus
  /** Who else on the team has which record open changed (docs/team.md "Presence"). */
  'presence.changed': PresenceView
}

/** What the caller passes (defaults may be left out). */
export type ChannelArgs<C extends ChannelName> = z.input<(typeof argSchemas)[C]>
/** What a handler receives after parsing. */
export type ParsedArgs<C extends ChannelName> = z.output<(typeof argSchemas)[C]>
/** What a handler returns. */
export type ChannelResult<C extends ChannelName> = ChannelResults[C]

/** The one object the preload exposes as `window.api` (and the web host emulates). */
export interface AppApi {
  invoke<C extends ChannelName>(channel: C, args: ChannelArgs<C>): Promise<Result<ChannelResult<C>>>
  /** Subscribe to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void
}

// Compile-time proof that the three maps name the same channels and events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const channelsMatch: Same<keyof typeof argSchemas, ChannelName> &
  Same<keyof ChannelResults, ChannelName> &
  Same<keyof EventPayloads, EventName> = true
void channelsMatch
