import { z } from 'zod'
import { LIVE_INTERVAL_MINUTES, LIVE_WINDOW_DAYS } from './live'
import { CLOCK_TIME } from './notifications'
import { serverTextSchema } from './server-text-schema'
import { PARTNER_KINDS } from './domain'
import { MAX_AGING_DAYS } from './changes'
import { LOCALES } from './locales'
import { DEFAULT_TIME_ZONE, PROFILE_ID_PATTERN, THEMES } from './profiles'
import { MAX_PROFILE_NAME_CHARS, textProblem, type TextProblem } from './text-rules'
import { lockIdleSecondsSchema } from './lock'

/** Longest API key or secret accepted over IPC; the vault's own 2 KB guard applies after. */
export const MAX_SECRET_CHARS = 4096

/** A profile id: also a file name, so nothing but lowercase letters, digits, `_` and `-`. */
export const profileIdSchema = z.string().regex(PROFILE_ID_PATTERN, 'not a profile id')

const TEXT_PROBLEM_MESSAGES: Record<Exclude<TextProblem, 'too_long'>, string> = {
  empty: 'must not be empty',
  control: 'must not contain control characters (such as NUL, tab or newline)',
  bidi: 'must not contain text-direction control characters (such as U+202E)',
}

/**
 * A one-line name shown in the app (profile name, partner id, reviewer
 * name): refused when it holds control or text-direction characters,
 * normalised to NFC and trimmed, at most `max` characters. The issue's
 * `params` say which {@link TextProblem} it was (and `max`), so a form can
 * word it in its own language.
 */
export function plainTextSchema(max: number, options: { allowEmpty?: boolean } = {}) {
  return z.string().transform((value, ctx) => {
    const problem = textProblem(value, max)
    if (problem && !(problem === 'empty' && options.allowEmpty)) {
      ctx.addIssue({
        code: 'custom',
        message:
          problem === 'too_long'
            ? `is longer than ${max} characters`
            : TEXT_PROBLEM_MESSAGES[problem],
        params: { problem, max },
      })
      return z.NEVER
    }
    return value.normalize('NFC').trim()
  })
}

/** Host names (as `URL.hostname` spells them) of this computer: plain http is allowed only to these. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * True for an https address, or http on this computer only (a local
 * sandbox), never with a user name or password; `bare` also refuses a query
 * and a fragment.
 */
function isSafeAddress(value: string, bare: boolean): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.username || url.password || (bare && (url.search || url.hash))) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * A service address: https, or http on this computer only (a local sandbox).
 * No user name or password in it, no query or fragment: credentials travel
 * in headers, never in the URL.
 */
export const serviceUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine(
    (value) => isSafeAddress(value, true),
    'must be an https address (http only for 127.0.0.1 or localhost), without user, query or fragment',
  )

/**
 * Abbreviations staff type for a zone, as the IANA zone they mean. Only
 * those of one meaning (`CST` is China's and America's: not here).
 */
const ZONE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  KST: 'Asia/Seoul',
  JST: 'Asia/Tokyo',
  HKT: 'Asia/Hong_Kong',
  SGT: 'Asia/Singapore',
}

/** An IANA time zone the platform knows, e.g. `Asia/Seoul`; `KST` and its like are read as their zone. */
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .transform((value) => ZONE_ABBREVIATIONS[value.toUpperCase()] ?? value)
  .refine((value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value })
      return true
    } catch {
      return false
    }
  }, 'unknown time zone')

/**
 * Where the wallet flow returns: https, or http on this computer only (the
 * sandbox), as for the service's addresses; a query is allowed.
 */
const redirectUriSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine(
    (value) => isSafeAddress(value, false),
    'must be an https address (http only for 127.0.0.1 or localhost), without user',
  )

/** Deadline of one request (headers and body), in whole seconds: 1 s to 5 minutes. */
export const requestTimeoutSecondsSchema = z.number().int().min(1).max(300)

/**
 * A profile's team server (docs/team.md): where the team's PostgreSQL is and
 * the member's own login role. The password is not here: it goes to the
 * keychain through `team.setPassword`. TLS is verified unless the host is
 * this computer; `plain` is refused for any other host.
 */
export const teamServerSchema = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]_-]+$/, 'a host name or IP address'),
  port: z.number().int().min(1).max(65535).default(5432),
  database: z.string().trim().min(1).pipe(serverTextSchema(63)),
  role: z.string().trim().min(1).pipe(serverTextSchema(63)),
  /** A PEM file of the CA to trust instead of the system's. */
  caFile: z.string().trim().min(1).max(4096).optional(),
  /** Absent: TLS, except plain on this computer. */
  tls: z.enum(['verify-full', 'plain']).optional(),
})

/** Arguments of `profiles.save`: no secret fields (those go through `profiles.setSecret`). */
export const profileInputSchema = z.strictObject({
  /** Absent for a new profile. */
  id: profileIdSchema.optional(),
  name: plainTextSchema(MAX_PROFILE_NAME_CHARS),
  baseUrl: serviceUrlSchema,
  staticUrl: serviceUrlSchema,
  partnerId: plainTextSchema(200),
  redirectUri: redirectUriSchema,
  timeZone: timeZoneSchema.default(DEFAULT_TIME_ZONE),
  /** Absent: keep the profile's current deadline (30 s for a new one). */
  timeoutSeconds: requestTimeoutSecondsSchema.optional(),
  /** Production or test environment (production asks before a wallet flow). */
  kind: z.enum(PARTNER_KINDS).default('production'),
  /** The team server; absent: keep the current one; null: none. */
  team: teamServerSchema.nullable().optional(),
})

/** Arguments of `profiles.setSecret`: either or both of the key and secret. */
export const secretInputSchema = z.strictObject({
  id: profileIdSchema,
  apiKey: z.string().trim().min(1).max(MAX_SECRET_CHARS).optional(),
  apiSecret: z.string().trim().min(1).max(MAX_SECRET_CHARS).optional(),
  /** Keep them in memory until the app quits instead of the keychain (the user chose it). */
  sessionOnly: z.boolean().default(false),
})

/** An aging threshold: whole days, 1 to {@link MAX_AGING_DAYS}. */
export const agingDaysSchema = z.number().int().min(1).max(MAX_AGING_DAYS)

/** Arguments of `settings.set`: the preferences to change (absent ones stay). */
/** A time of day, `HH:MM` (24-hour). */
export const clockTimeSchema = z.string().regex(CLOCK_TIME)

/** The poll interval in whole minutes. */
export const liveIntervalSchema = z
  .number()
  .int()
  .min(LIVE_INTERVAL_MINUTES.min)
  .max(LIVE_INTERVAL_MINUTES.max)
/** Days the hourly re-read covers. */
export const liveWindowDaysSchema = z
  .number()
  .int()
  .min(LIVE_WINDOW_DAYS.min)
  .max(LIVE_WINDOW_DAYS.max)

export const settingsInputSchema = z.strictObject({
  theme: z.enum(THEMES).optional(),
  /** The sidebar collapsed to its short forms. */
  sidebarCollapsed: z.boolean().optional(),
  /** The UI language, also used by the native dialogs. */
  language: z.enum(LOCALES).optional(),
  reviewerName: plainTextSchema(MAX_PROFILE_NAME_CHARS, { allowEmpty: true }).optional(),
  /** Aging thresholds in days; an absent rule keeps its value. */
  agingDays: z
    .strictObject({
      guaranteeReady: agingDaysSchema.optional(),
      inspectionShipping: agingDaysSchema.optional(),
    })
    .optional(),
  /** The live schedule (docs/live.md); an absent field keeps its value. */
  live: z
    .strictObject({
      intervalMinutes: liveIntervalSchema.optional(),
      windowDays: liveWindowDaysSchema.optional(),
      /** Keep every account with usable credentials current, not only the active one. */
      allAccounts: z.boolean().optional(),
    })
    .optional(),
  /** The desktop shell (docs/live.md); an absent field keeps its value. */
  desktop: z
    .strictObject({
      closeToTray: z.boolean().optional(),
      startAtLogin: z.boolean().optional(),
    })
    .optional(),
  /** Notifications (docs/live.md); an absent field keeps its value. */
  notifications: z
    .strictObject({
      enabled: z.boolean().optional(),
      kinds: z.record(z.string().regex(/^[a-zA-Z]{1,40}$/), z.boolean()).optional(),
      quietHours: z
        .strictObject({ from: clockTimeSchema, to: clockTimeSchema })
        .nullable()
        .optional(),
      details: z.boolean().optional(),
      digestAt: clockTimeSchema.optional(),
    })
    .optional(),
  /** Seconds without input before the app locks (0: never on idle; it locks only with a PIN). */
  lockIdleSeconds: lockIdleSecondsSchema.optional(),
})
