import { z } from 'zod'
import type { ChannelName, EventName } from './channels'
import type { AppInfo, BrandSearchResult } from './domain'
import type { Result } from './errors'
import type {
  ConnectionTestResult,
  CredentialStatus,
  ProfileList,
  ProfileView,
  SettingsView,
} from './profiles'
import { profileIdSchema, profileInputSchema, secretInputSchema } from './profile-schemas'

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
  /** Settings notices (e.g. a damaged file was reset) and where the file is. */
  'settings.get': z.strictObject({}),
} satisfies Record<ChannelName, z.ZodType>

/** Result type of each channel. */
export interface ChannelResults {
  'app.info': AppInfo
  'brands.search': BrandSearchResult
  'brands.refresh': BrandSearchResult
  'profiles.list': ProfileList
  'profiles.save': ProfileView
  'profiles.setSecret': CredentialStatus
  'profiles.remove': ProfileList
  'profiles.select': ProfileList
  'profiles.test': ConnectionTestResult
  'settings.get': SettingsView
}

/** Payload of each event. */
export interface EventPayloads {
  /** A resource's local data changed; views showing it reload. */
  'data.changed': { readonly resource: 'brands' }
  /** The profile list or the active profile changed; views reload. */
  'profiles.changed': { readonly activeId: string }
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
