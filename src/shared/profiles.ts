import type { NotificationSettings } from './notifications'
import type { AgingRule } from './changes'
import type { ErrorData } from './errors'
import type { ProfileSummary } from './domain'
import type { Locale } from './i18n'

/** Default time zone label of the service's timestamps (the spec does not say; see README). */
export const DEFAULT_TIME_ZONE = 'Asia/Seoul'

/** Default deadline of one request to the service, headers and body together, in seconds. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30

/** The id of the built-in demo profile. */
export const SANDBOX_PROFILE_ID = 'sandbox'

/** Profile ids are also file names (`cache/<id>.sqlite`), so they are short and plain. */
export const PROFILE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * Where a profile's API key and secret are, as the renderer may know it:
 * never the secret itself, at most the key's last four characters.
 * - `keychain`: in the OS keychain; `session`: in memory until the app quits;
 * - `builtin`: the embedded sandbox's demo credentials;
 * - `missing`: none stored; `unavailable`/`locked`: the keychain could not be read.
 */
type CredentialState = 'keychain' | 'session' | 'builtin' | 'missing' | 'unavailable' | 'locked'

/** Whether a profile has credentials, and the API key's last four characters when it does. */
export interface CredentialStatus {
  readonly state: CredentialState
  readonly keyLast4?: string
  /** Why the keychain could not be read (for `unavailable` and `locked`). */
  readonly error?: ErrorData
}

/** A profile as the Accounts screen shows it: everything but the secrets. */
export interface ProfileView extends ProfileSummary {
  /** `{static_url}` of the spec: the card-image host. */
  readonly staticUrl: string
  /** The page the wallet-link flows end on. */
  readonly redirectUri: string
  /** Deadline of one request to the service, headers and body together, in seconds. */
  readonly timeoutSeconds: number
  readonly credentials: CredentialStatus
  /** The team server, when the profile shares with one (never its password). */
  readonly team?: TeamServerView | null
}

/** A profile's team server as the Accounts screen shows it. */
export interface TeamServerView {
  readonly host: string
  readonly port: number
  readonly database: string
  readonly role: string
  readonly caFile?: string | undefined
  readonly tls?: 'verify-full' | 'plain' | undefined
}

/** Answer of `profiles.list`, `profiles.select` and `profiles.remove`. */
export interface ProfileList {
  readonly profiles: readonly ProfileView[]
  readonly activeId: string
}

/** What "Test connection" found, in words the Accounts screen can show. */
export type ConnectionOutcome =
  | 'ok'
  | 'wrong_credentials'
  | 'wrong_partner'
  | 'not_found'
  | 'unreachable'
  | 'timeout'
  | 'tls'
  | 'service_error'
  | 'bad_response'
  | 'no_credentials'
  | 'keychain'

/** Answer of `profiles.test`. */
export interface ConnectionTestResult {
  readonly outcome: ConnectionOutcome
  /** Number of brands the service listed, when the call worked. */
  readonly brandCount?: number
  /** The underlying error, when it did not work (secret-free). */
  readonly error?: ErrorData
}

/** A notice about settings the user should see once (e.g. a damaged file was reset). */
export interface SettingsNotice {
  readonly kind: 'settings_reset' | 'settings_newer'
  /** File name the damaged or newer settings were kept under, in the data folder. */
  readonly keptAs: string
}

/** Colour themes: follow the system, or always light / dark. */
export const THEMES = ['system', 'light', 'dark'] as const
/** One of {@link THEMES}. */
export type ThemeName = (typeof THEMES)[number]

/** Answer of `settings.get` and `settings.set`. */
export interface SettingsView {
  readonly notices: readonly SettingsNotice[]
  /** The settings file's path, so a user can find the kept-aside copy. */
  readonly path: string
  /** The data folder: settings, the offline caches and card images. */
  readonly dataDir: string
  readonly theme: ThemeName
  /** The UI language; the native dialogs speak it too. */
  readonly language: Locale
  /** The name review marks are signed with (empty: unsigned). */
  readonly reviewerName: string
  /** Aging thresholds in days (`aging.counts`). */
  readonly agingDays: Readonly<Record<AgingRule, number>>
  /**
   * The live schedule: poll interval in minutes, days the hourly step re-reads, and whether
   * every account is kept current or only the active one (docs/live.md).
   */
  readonly live: {
    readonly intervalMinutes: number
    readonly windowDays: number
    readonly allAccounts: boolean
  }
  /** Notifications: on or off, each kind, quiet hours, details or counts, the digest's time. */
  readonly notifications: NotificationSettings
  /** The desktop shell's choices (Electron; the web host has none). */
  readonly desktop: DesktopSettings
  /** Seconds without input before the app locks (0: never on idle). */
  readonly lockIdleSeconds: number
  /** The sidebar collapsed to its short forms (a narrow window collapses it whatever this says). */
  readonly sidebarCollapsed: boolean
}

/** What the desktop shell does with its window and at login (docs/live.md "Tray, badge and start-up"). */
export interface DesktopSettings {
  /** Closing the window keeps the app syncing in the tray; Quit always quits. */
  readonly closeToTray: boolean
  /** The app starts when staff log in to the computer (off by default). */
  readonly startAtLogin: boolean
}

/**
 * Closing to the tray by default where a tray is always there to come back
 * through: Windows (the notification area) and macOS (the menu bar; a Mac
 * app keeps running with its windows closed anyway). Not on Linux, whose
 * desktops (GNOME among them) may show no tray at all: a closed window
 * there could leave an app running that staff cannot reach.
 */
export function closeToTrayDefault(platform: string): boolean {
  return platform === 'win32' || platform === 'darwin'
}

/**
 * True when an edit points the profile's service or image host at another
 * origin (scheme, host or port). Its stored key and secret are then
 * dropped, so staff enter them again for the new host; a path change on the
 * same origin keeps them. The Accounts form warns before such a save.
 */
export function movesService(
  before: { readonly baseUrl: string; readonly staticUrl: string },
  after: { readonly baseUrl: string; readonly staticUrl: string },
): boolean {
  return (
    originOf(before.baseUrl) !== originOf(after.baseUrl) ||
    originOf(before.staticUrl) !== originOf(after.staticUrl)
  )
}

/**
 * The origins a profile's key and secret are bound to: its service's and
 * its image host's (docs/security.md, "Key binding"). The vault hands the
 * credentials out only for these.
 */
export function credentialOrigins(profile: {
  readonly baseUrl: string
  readonly staticUrl: string
}): string[] {
  return [...new Set([originOf(profile.baseUrl), originOf(profile.staticUrl)])].sort()
}

function originOf(address: string): string {
  try {
    return new URL(address).origin
  } catch {
    return address
  }
}
