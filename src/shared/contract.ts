import { z } from 'zod'
import type { ChannelName, EventName } from './channels'
import type { AppInfo, BrandSearchResult } from './domain'
import type { Result } from './errors'

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
} satisfies Record<ChannelName, z.ZodType>

/** Result type of each channel. */
export interface ChannelResults {
  'app.info': AppInfo
  'brands.search': BrandSearchResult
  'brands.refresh': BrandSearchResult
}

/** Payload of each event. */
export interface EventPayloads {
  /** A resource's local data changed; views showing it reload. */
  'data.changed': { readonly resource: 'brands' }
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
