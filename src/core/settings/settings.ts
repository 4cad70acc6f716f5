import { existsSync, renameSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import {
  profileIdSchema,
  requestTimeoutSecondsSchema,
  serviceUrlSchema,
  timeZoneSchema,
  teamServerSchema,
} from '../../shared/profile-schemas'
import { PARTNER_KINDS } from '../../shared/domain'
import { DEFAULT_AGING_DAYS } from '../../shared/changes'
import { DEFAULT_LOCALE, LOCALES } from '../../shared/i18n'
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../shared/notifications'
import {
  agingDaysSchema,
  clockTimeSchema,
  liveIntervalSchema,
  liveWindowDaysSchema,
} from '../../shared/profile-schemas'
import { LIVE_INTERVAL_MINUTES, LIVE_WINDOW_DAYS } from '../../shared/live'
import {
  closeToTrayDefault,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_TIME_ZONE,
  SANDBOX_PROFILE_ID,
  THEMES,
  type SettingsNotice,
} from '../../shared/profiles'
import { MAX_PROFILE_NAME_CHARS, stripUnsafeText } from '../../shared/text-rules'
import { PAGED_RESOURCES } from '../../shared/resources'
import { listFilterSchema } from '../../shared/list-filter'
import { viewNameSchema } from '../../shared/saved-views'
import type { OpenSettingsFile, SettingsFile } from './settings-file'
import { DEFAULT_LOCK_IDLE_SECONDS, lockIdleSecondsSchema } from '../../shared/lock'

/**
 * The settings layout this build writes.
 * @internal
 */
export const SETTINGS_VERSION = 2

/** File name (without `.json`) of the settings in the data folder. */
const SETTINGS_NAME = 'settings'

/**
 * A partner profile as stored: no secret fields (they live in the keychain).
 * A name with control or text-direction characters (an old or hand-edited
 * file) loses them on load rather than the whole profile; an empty result
 * falls back to the id.
 */
const storedProfileSchema = z
  .object({
    id: profileIdSchema,
    name: z.string().min(1).max(1000),
    baseUrl: serviceUrlSchema,
    staticUrl: serviceUrlSchema,
    partnerId: z.string().min(1).max(200),
    redirectUri: z.string().max(2000),
    timeZone: timeZoneSchema.catch(DEFAULT_TIME_ZONE),
    /** Added after version 1 without a new layout: a file without it (or with a bad value) gets the default. */
    timeoutSeconds: requestTimeoutSecondsSchema.catch(DEFAULT_REQUEST_TIMEOUT_SECONDS),
    /** Production or test; an unreadable value counts as production (the careful choice). */
    kind: z.enum(PARTNER_KINDS).catch('production'),
    /** The team server (docs/team.md); an unreadable one is dropped rather than the profile. */
    team: teamServerSchema.optional().catch(undefined),
  })
  .transform((profile) => ({
    ...profile,
    name: stripUnsafeText(profile.name, MAX_PROFILE_NAME_CHARS) || profile.id,
  }))

/** A stored partner profile. */
export type StoredProfile = z.infer<typeof storedProfileSchema>

/** A saved view as stored (docs/renderer.md "Saved views"). */
const storedViewSchema = z.object({
  id: z.uuid(),
  resource: z.enum(PAGED_RESOURCES),
  name: viewNameSchema,
  filter: listFilterSchema,
})

/** Keeps the entries `schema` accepts: one damaged entry of a hand-edited file costs only itself. */
function validEntries<T extends z.ZodType>(schema: T) {
  return z
    .array(z.unknown())
    .catch([])
    .transform((items) =>
      items.flatMap((item) => {
        const parsed = schema.safeParse(item)
        return parsed.success ? [parsed.data as z.output<T>] : []
      }),
    )
}

/**
 * The settings document. Unknown keys are dropped on load (`z.object`
 * strips them), so a secret that somehow got into the file is not carried
 * on: settings never hold a secret.
 */
const settingsSchema = z.object({
  schemaVersion: z.literal(SETTINGS_VERSION),
  /** The profile that opens at start (the last one used). */
  activeProfileId: profileIdSchema.default(SANDBOX_PROFILE_ID),
  profiles: z.array(storedProfileSchema).default([]),
  /** The name review marks are signed with (empty: unsigned). */
  reviewerName: z
    .string()
    .max(80)
    .transform((name) => stripUnsafeText(name, 80))
    .catch('')
    .default(''),
  /** Minutes a wallet-link window may stay open before the flow ends `timed_out`. */
  walletTimeoutMinutes: z.number().int().min(1).max(120).catch(10).default(10),
  /** Colour theme; an unreadable value falls back to following the system. */
  theme: z.enum(THEMES).catch('system').default('system'),
  /**
   * The UI language, read by the renderer at start and by the shell for its
   * dialogs. Added without a new layout: a file without it (or with a bad
   * value) gets Korean, the default.
   */
  language: z.enum(LOCALES).catch(DEFAULT_LOCALE).default(DEFAULT_LOCALE),
  /**
   * Aging thresholds in days (docs/store-and-sync.md "Changes feed and
   * aging"): a guarantee waiting to be issued, an inspection in shipping.
   * Added without a new layout: a missing or unreadable value gets its default.
   */
  agingDays: z
    .object({
      guaranteeReady: agingDaysSchema.catch(DEFAULT_AGING_DAYS.guaranteeReady),
      inspectionShipping: agingDaysSchema.catch(DEFAULT_AGING_DAYS.inspectionShipping),
    })
    .catch({ ...DEFAULT_AGING_DAYS })
    .default({ ...DEFAULT_AGING_DAYS }),
  /** The live schedule (docs/live.md). Added without a new layout, like `agingDays`. */
  live: z
    .object({
      intervalMinutes: liveIntervalSchema.catch(LIVE_INTERVAL_MINUTES.default),
      windowDays: liveWindowDaysSchema.catch(LIVE_WINDOW_DAYS.default),
      /** Every account with usable credentials is kept current, not only the active one. */
      allAccounts: z.boolean().catch(false).default(false),
    })
    .catch({
      intervalMinutes: LIVE_INTERVAL_MINUTES.default,
      windowDays: LIVE_WINDOW_DAYS.default,
      allAccounts: false,
    })
    .default({
      intervalMinutes: LIVE_INTERVAL_MINUTES.default,
      windowDays: LIVE_WINDOW_DAYS.default,
      allAccounts: false,
    }),
  /** Notifications (docs/live.md). Added without a new layout; an unreadable part gets its default. */
  notifications: z
    .object({
      enabled: z.boolean().catch(DEFAULT_NOTIFICATION_SETTINGS.enabled),
      kinds: z.record(z.string(), z.boolean()).catch({ ...DEFAULT_NOTIFICATION_SETTINGS.kinds }),
      quietHours: z.object({ from: clockTimeSchema, to: clockTimeSchema }).nullable().catch(null),
      details: z.boolean().catch(DEFAULT_NOTIFICATION_SETTINGS.details),
      digestAt: clockTimeSchema.catch(DEFAULT_NOTIFICATION_SETTINGS.digestAt),
    })
    .catch(structuredClone(DEFAULT_NOTIFICATION_SETTINGS))
    .default(structuredClone(DEFAULT_NOTIFICATION_SETTINGS)),
  /**
   * The desktop shell's choices (docs/live.md "Tray, badge and start-up"). Added without a
   * new layout; closing to the tray defaults by platform (`closeToTrayDefault`).
   */
  desktop: z
    .object({
      closeToTray: z.boolean().catch(closeToTrayDefault(process.platform)),
      startAtLogin: z.boolean().catch(false),
    })
    .catch({ closeToTray: closeToTrayDefault(process.platform), startAtLogin: false })
    .default({ closeToTray: closeToTrayDefault(process.platform), startAtLogin: false }),
  /**
   * Seconds without input before the app locks (0: never on idle); it locks
   * only when a PIN is set (docs/security.md "The app lock"). Added without a
   * new layout: a missing or unreadable value gets 10 minutes.
   */
  lockIdleSeconds: lockIdleSecondsSchema
    .catch(DEFAULT_LOCK_IDLE_SECONDS)
    .default(DEFAULT_LOCK_IDLE_SECONDS),
  /**
   * The sidebar collapsed to its short forms (the button or Ctrl+B). Added
   * without a new layout: a missing or unreadable value leaves it open.
   */
  sidebarCollapsed: z.boolean().catch(false).default(false),
  /**
   * Whether an app-lock PIN is set (its hash is in the keychain, never
   * here), so a start without one opens at once and a start with one stays
   * locked even when the keychain cannot be read. Added without a new layout.
   */
  lockPinSet: z.boolean().catch(false).default(false),
  /** Saved views of the lists, in the order saved. Added without a new layout, like `agingDays`. */
  savedViews: validEntries(storedViewSchema).default([]),
  /** The last filter of each list, restored at start; an unreadable one is dropped. */
  lastFilters: z
    .object({
      inspections: listFilterSchema.optional().catch(undefined),
      guarantees: listFilterSchema.optional().catch(undefined),
    })
    .catch({})
    .default({}),
})

/** The settings document. */
export type Settings = z.infer<typeof settingsSchema>

/**
 * One step of the settings layout: turns version `to - 1` into version `to`.
 * @internal
 */
export interface SettingsMigration {
  readonly to: number
  migrate(doc: Record<string, unknown>): Record<string, unknown>
}

/**
 * Numbered migrations, applied in order from the file's `schemaVersion`.
 * Version 0 is a file without a version (an empty file `conf` created, or
 * one edited by hand): its known keys are kept and the rest is dropped by
 * the schema. Add a step here whenever {@link settingsSchema} changes shape.
 */
const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [
  {
    to: 1,
    migrate: (doc) => ({
      ...(typeof doc['activeProfileId'] === 'string'
        ? { activeProfileId: doc['activeProfileId'] }
        : {}),
      profiles: Array.isArray(doc['profiles'])
        ? doc['profiles'].map((profile: unknown) =>
            profile && typeof profile === 'object'
              ? { timeZone: DEFAULT_TIME_ZONE, ...profile }
              : profile,
          )
        : [],
    }),
  },
  {
    // Profiles gain a kind (production / test); existing ones are taken as production,
    // so a wallet flow on them still asks first. The theme starts by following the system.
    to: 2,
    migrate: (doc) => ({
      ...doc,
      profiles: Array.isArray(doc['profiles'])
        ? doc['profiles'].map((profile: unknown) =>
            profile && typeof profile === 'object' ? { kind: 'production', ...profile } : profile,
          )
        : doc['profiles'],
      theme: 'system',
    }),
  },
]

/** Raised for a file written by a newer version of the app; core keeps it aside. */
class NewerSettingsError extends Error {}

/**
 * Brings a document up to {@link SETTINGS_VERSION} through the numbered steps.
 * @internal
 */
export function migrateSettings(
  doc: Record<string, unknown>,
  migrations: readonly SettingsMigration[] = SETTINGS_MIGRATIONS,
  target: number = SETTINGS_VERSION,
): Record<string, unknown> {
  const raw = doc['schemaVersion']
  let version = typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? raw : 0
  if (version > target) throw new NewerSettingsError(`settings version ${version} > ${target}`)
  let current = doc
  while (version < target) {
    const step = migrations.find((migration) => migration.to === version + 1)
    if (!step) throw new Error(`no settings migration to version ${version + 1}`)
    current = { ...step.migrate(current), schemaVersion: step.to }
    version = step.to
  }
  return current
}

/** Options of {@link openSettings}. */
export interface OpenSettingsOptions {
  readonly dataDir: string
  readonly open: OpenSettingsFile
  readonly now?: () => Date
  readonly log?: (message: string) => void
}

/**
 * The app's settings: validated, migrated, and always openable. A file that
 * is not JSON, fails the schema, or comes from a newer app is renamed to
 * `settings.corrupt-<time>.json` (or `.newer-`) beside it, fresh defaults
 * are used, and a notice tells the user where the old file is.
 */
export class SettingsService {
  readonly #file: SettingsFile
  readonly notices: readonly SettingsNotice[]
  #value: Settings

  private constructor(file: SettingsFile, value: Settings, notices: SettingsNotice[]) {
    this.#file = file
    this.#value = value
    this.notices = notices
  }

  /** Opens the settings in `dataDir`, recovering from a damaged file. */
  static open(options: OpenSettingsOptions): SettingsService {
    const now = options.now ?? (() => new Date())
    const log = options.log ?? ((message: string) => console.warn(message))
    const notices: SettingsNotice[] = []
    const attempt = (): { file: SettingsFile; value: Settings; changed: boolean } => {
      const file = options.open(options.dataDir, SETTINGS_NAME)
      const raw = file.read()
      const migrated = migrateSettings(raw)
      const value = settingsSchema.parse(migrated)
      return { file, value, changed: JSON.stringify(raw) !== JSON.stringify(value) }
    }
    let opened: ReturnType<typeof attempt>
    try {
      opened = attempt()
    } catch (error) {
      const kind = error instanceof NewerSettingsError ? 'settings_newer' : 'settings_reset'
      const path = join(options.dataDir, `${SETTINGS_NAME}.json`)
      const stamp = now().toISOString().replace(/[:.]/g, '-')
      const keptAs = `${SETTINGS_NAME}.${kind === 'settings_newer' ? 'newer' : 'corrupt'}-${stamp}.json`
      if (existsSync(path)) renameSync(path, join(dirname(path), keptAs))
      log(
        `[settings] ${basename(path)} could not be used (${error instanceof Error ? error.name : 'error'}); kept as ${keptAs} and reset to defaults`,
      )
      notices.push({ kind, keptAs })
      opened = attempt()
    }
    const service = new SettingsService(opened.file, opened.value, notices)
    if (opened.changed) service.#persist()
    return service
  }

  /** Absolute path of the settings file. */
  get path(): string {
    return this.#file.path
  }

  /** The current settings (a copy). */
  get(): Settings {
    return structuredClone(this.#value)
  }

  /** Applies a change, validates the result, and writes it. */
  update(change: (draft: Settings) => void): Settings {
    const draft = structuredClone(this.#value)
    change(draft)
    this.#value = settingsSchema.parse(draft)
    this.#persist()
    return this.get()
  }

  #persist(): void {
    this.#file.write({ ...this.#value })
  }
}
