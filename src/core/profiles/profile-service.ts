import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import type { z } from 'zod'
import type { ProfileSummary } from '../../shared/domain'
import type { profileInputSchema, secretInputSchema } from '../../shared/profile-schemas'
import {
  credentialOrigins,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_TIME_ZONE,
  movesService,
  SANDBOX_PROFILE_ID,
  type ConnectionTestResult,
  type CredentialStatus,
  type ProfileList,
  type ProfileView,
  type TeamServerView,
} from '../../shared/profiles'
import { PartnerClient, type CredentialSource, type Credentials } from '../api/client'
import type { FetchLike } from '../api/http'
import { AppError } from '../app-error'
import { storeFileFor } from '../store/paths'
import { teamTlsMode } from '../team/tls-mode'
import type { SettingsService, StoredProfile } from '../settings/settings'
import { lastFour, type Vault } from '../vault/vault'
import { describeConnectionError } from './connection-test'

/** The profile the app works on, with the way to get its credentials (held in main only). */
export interface ActiveProfile {
  readonly summary: ProfileSummary
  readonly staticUrl: string
  readonly redirectUri: string
  /** Deadline of one request, headers and body together. */
  readonly timeoutMs: number
  readonly credentials: CredentialSource
  /** The team server it shares marks through, or null (docs/team.md). */
  readonly team: TeamServerView | null
}

/** The built-in "Sandbox" profile: the embedded sandbox and its demo credentials. */
export interface BuiltinProfile {
  readonly name: string
  readonly baseUrl: string
  readonly staticUrl: string
  readonly partnerId: string
  readonly redirectUri: string
  readonly credentials: Credentials
}

/** Options of {@link ProfileService}. */
export interface ProfileServiceOptions {
  readonly settings: SettingsService
  readonly vault: Vault
  readonly sandbox: BuiltinProfile
  readonly fetch: FetchLike
  /** The data folder; cached data of a profile is `cache/<id>.sqlite` in it. */
  readonly dataDir: string
  /** Called after the active profile changed (rebuild what depends on it); awaited. */
  readonly onActiveChange: (active: ActiveProfile) => Promise<void> | void
  /** Called after the list or the active profile changed (tell the views). */
  readonly onListChange?: (activeId: string) => void
  /**
   * Called while a profile is removed, after it left the list and before its cache is deleted:
   * whatever holds its cache file open closes it (a background account); awaited.
   */
  readonly onRemoving?: (id: string) => Promise<void> | void
  /** Registers each secret read so that logs and messages can redact it. */
  readonly onSecret?: (credentials: Credentials) => void
  readonly testTimeoutMs?: number
}

/** Arguments of `profiles.save` after parsing. */
export type ProfileInput = z.output<typeof profileInputSchema>
/** Arguments of `profiles.setSecret` after parsing. */
export type SecretInput = z.output<typeof secretInputSchema>

/**
 * Partner profiles: the built-in Sandbox plus the ones the user adds. Owns
 * which one is active (remembered in settings, so the last used one opens at
 * start) and gives the client its target and credentials.
 */
export class ProfileService {
  readonly #options: ProfileServiceOptions
  /** The lifecycle queue: save, setSecret, select, remove and the core's close run one at a time. */
  #tail: Promise<unknown> = Promise.resolve()

  constructor(options: ProfileServiceOptions) {
    this.#options = options
  }

  /** The id of the active profile; falls back to the Sandbox when the stored one is gone. */
  get activeId(): string {
    const { activeProfileId, profiles } = this.#options.settings.get()
    return profiles.some((profile) => profile.id === activeProfileId)
      ? activeProfileId
      : SANDBOX_PROFILE_ID
  }

  /** The active profile with its credential source. */
  active(): ActiveProfile {
    return this.#activeOf(this.activeId)
  }

  /** A profile (the active one or another) with its credential source; the Sandbox for an unknown id. */
  profileOf(id: string): ActiveProfile {
    return this.#activeOf(id)
  }

  /** Every profile (Sandbox first) with whether credentials are stored; never a secret. */
  async list(): Promise<ProfileList> {
    const stored = this.#options.settings.get().profiles
    const statuses = await Promise.all(
      stored.map((profile) => this.#options.vault.status(profile.id, credentialOrigins(profile))),
    )
    const views: ProfileView[] = [
      this.#sandboxView(),
      ...stored.map((profile, index) => viewOf(profile, statuses[index] ?? { state: 'missing' })),
    ]
    return { profiles: views, activeId: this.activeId }
  }

  /**
   * Runs `task` after every lifecycle step queued before it (a failed step
   * does not stop the queue) and answers its result.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task)
    this.#tail = result.catch(() => undefined)
    return result
  }

  /** Adds (no id) or edits a profile; editing the active one re-targets the client. */
  save(input: ProfileInput): Promise<ProfileView> {
    return this.exclusive(() => this.#save(input))
  }

  async #save(input: ProfileInput): Promise<ProfileView> {
    if (input.id === SANDBOX_PROFILE_ID) {
      throw new AppError('invalid_argument', 'The built-in Sandbox profile cannot be edited.')
    }
    const id = input.id ?? `p-${randomBytes(6).toString('hex')}`
    const before = this.#options.settings.get().profiles.find((existing) => existing.id === id)
    const profile: StoredProfile = {
      id,
      name: input.name,
      baseUrl: input.baseUrl,
      staticUrl: input.staticUrl,
      partnerId: input.partnerId,
      redirectUri: input.redirectUri,
      timeZone: input.timeZone,
      timeoutSeconds:
        input.timeoutSeconds ?? before?.timeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS,
      kind: input.kind,
      ...teamOf(input.team === undefined ? before?.team : (input.team ?? undefined)),
    }
    if (input.id !== undefined && !before) {
      throw new AppError('not_found', 'That profile no longer exists.')
    }
    // The key and secret were given for the old hosts: they are deleted before the new address
    // is written, and a failed delete (a locked keychain) leaves the old address in place.
    if (before && movesService(before, profile)) await this.#options.vault.delete(id)
    // The team password belongs to one role on one server, reached one way: it goes with them.
    if (before?.team && movesTeam(before.team, profile.team)) {
      await this.#options.vault.deleteTeamPassword(id)
    }
    this.#options.settings.update((draft) => {
      const index = draft.profiles.findIndex((existing) => existing.id === id)
      if (input.id !== undefined && index < 0) {
        throw new AppError('not_found', 'That profile no longer exists.')
      }
      if (index < 0) draft.profiles.push(profile)
      else draft.profiles[index] = profile
    })
    if (id === this.activeId) await this.#options.onActiveChange(this.active())
    this.#options.onListChange?.(this.activeId)
    return viewOf(profile, await this.#options.vault.status(id, credentialOrigins(profile)))
  }

  /** Stores or replaces a profile's key and/or secret; answers only the status. */
  setSecret(input: SecretInput): Promise<CredentialStatus> {
    return this.exclusive(() => this.#setSecret(input))
  }

  async #setSecret(input: SecretInput): Promise<CredentialStatus> {
    const profile = this.#storedOrThrow(input.id)
    // Registered before anything can fail, so no later message can echo them.
    this.#options.onSecret?.({ apiKey: input.apiKey ?? '', apiSecret: input.apiSecret ?? '' })
    const status = await this.#options.vault.set(
      input.id,
      { apiKey: input.apiKey, apiSecret: input.apiSecret },
      { sessionOnly: input.sessionOnly, origins: credentialOrigins(profile) },
    )
    if (input.id === this.activeId) await this.#options.onActiveChange(this.active())
    this.#options.onListChange?.(this.activeId)
    return status
  }

  /** Makes a profile active and remembers it for the next start. */
  select(id: string): Promise<ProfileList> {
    return this.exclusive(() => this.#select(id))
  }

  async #select(id: string): Promise<ProfileList> {
    if (id !== SANDBOX_PROFILE_ID) this.#storedOrThrow(id)
    this.#options.settings.update((draft) => {
      draft.activeProfileId = id
    })
    await this.#options.onActiveChange(this.active())
    this.#options.onListChange?.(this.activeId)
    return this.list()
  }

  /**
   * Removes a profile and its keychain entry; with `deleteCache` (the user
   * confirmed it) also its cached data. The active profile is switched to the
   * Sandbox first, so its cache file is closed before it is deleted.
   */
  remove(id: string, deleteCache: boolean): Promise<ProfileList> {
    return this.exclusive(() => this.#remove(id, deleteCache))
  }

  async #remove(id: string, deleteCache: boolean): Promise<ProfileList> {
    if (id === SANDBOX_PROFILE_ID) {
      throw new AppError('invalid_argument', 'The built-in Sandbox profile cannot be removed.')
    }
    this.#storedOrThrow(id)
    await this.#options.vault.delete(id)
    const wasActive = id === this.activeId
    this.#options.settings.update((draft) => {
      draft.profiles = draft.profiles.filter((profile) => profile.id !== id)
      if (draft.activeProfileId === id) draft.activeProfileId = SANDBOX_PROFILE_ID
    })
    if (wasActive) await this.#options.onActiveChange(this.active())
    await this.#options.onRemoving?.(id)
    if (deleteCache) await deleteCacheFiles(this.#options.dataDir, id)
    this.#options.onListChange?.(this.activeId)
    return this.list()
  }

  /** Calls the brand list with the profile's credentials and says in plain words what happened. */
  async test(id: string): Promise<ConnectionTestResult> {
    const profile = id === SANDBOX_PROFILE_ID ? null : this.#storedOrThrow(id)
    const target = this.#activeOf(profile ? profile.id : SANDBOX_PROFILE_ID)
    const client = new PartnerClient({
      fetch: this.#options.fetch,
      target: { baseUrl: target.summary.baseUrl, partnerId: target.summary.partnerId },
      credentials: target.credentials,
      timeoutMs: this.#options.testTimeoutMs ?? 15_000,
    })
    try {
      const { items } = await client.listBrands()
      return { outcome: 'ok', brandCount: items.length }
    } catch (error) {
      return describeConnectionError(error)
    }
  }

  #storedOrThrow(id: string): StoredProfile {
    const found = this.#options.settings.get().profiles.find((profile) => profile.id === id)
    if (!found) throw new AppError('not_found', 'That profile no longer exists.')
    return found
  }

  #activeOf(id: string): ActiveProfile {
    const stored = this.#options.settings.get().profiles.find((profile) => profile.id === id)
    if (!stored) {
      const sandbox = this.#options.sandbox
      return {
        summary: sandboxSummary(sandbox),
        staticUrl: sandbox.staticUrl,
        redirectUri: sandbox.redirectUri,
        timeoutMs: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000,
        credentials: () => Promise.resolve(this.#registered(sandbox.credentials)),
        team: null,
      }
    }
    return {
      summary: summaryOf(stored),
      staticUrl: stored.staticUrl,
      redirectUri: stored.redirectUri,
      timeoutMs: stored.timeoutSeconds * 1000,
      credentials: async () =>
        this.#registered(await this.#options.vault.get(stored.id, credentialOrigins(stored))),
      team: stored.team ?? null,
    }
  }

  #registered(credentials: Credentials): Credentials {
    this.#options.onSecret?.(credentials)
    return credentials
  }

  #sandboxView(): ProfileView {
    const sandbox = this.#options.sandbox
    return {
      ...sandboxSummary(sandbox),
      staticUrl: sandbox.staticUrl,
      redirectUri: sandbox.redirectUri,
      timeoutSeconds: DEFAULT_REQUEST_TIMEOUT_SECONDS,
      credentials: { state: 'builtin', keyLast4: lastFour(sandbox.credentials.apiKey) },
    }
  }
}

/**
 * True when the team server is removed, or now names another host, port,
 * database or login role, or is trusted another way (CA file, TLS mode):
 * the password was given for that one connection only.
 */
function movesTeam(before: TeamServerView, after: TeamServerView | undefined): boolean {
  return (
    !after ||
    before.host !== after.host ||
    before.port !== after.port ||
    before.database !== after.database ||
    before.role !== after.role ||
    (before.caFile ?? '') !== (after.caFile ?? '') ||
    teamTlsMode(before) !== teamTlsMode(after)
  )
}

function sandboxSummary(sandbox: BuiltinProfile): ProfileSummary {
  return {
    id: SANDBOX_PROFILE_ID,
    name: sandbox.name,
    kind: 'sandbox',
    baseUrl: sandbox.baseUrl,
    partnerId: sandbox.partnerId,
    timeZone: DEFAULT_TIME_ZONE,
  }
}

function summaryOf(profile: StoredProfile): ProfileSummary {
  return {
    id: profile.id,
    name: profile.name,
    kind: profile.kind,
    baseUrl: profile.baseUrl,
    partnerId: profile.partnerId,
    timeZone: profile.timeZone,
  }
}

function viewOf(profile: StoredProfile, credentials: CredentialStatus): ProfileView {
  return {
    ...summaryOf(profile),
    staticUrl: profile.staticUrl,
    redirectUri: profile.redirectUri,
    timeoutSeconds: profile.timeoutSeconds,
    credentials,
    team: profile.team ?? null,
  }
}

/** The stored profile's `team` field: left out when there is none. */
function teamOf(team: TeamServerView | undefined): { team?: TeamServerView } {
  return team ? { team } : {}
}

/** The cache files of a profile: `<dataDir>/cache/<id>.sqlite` and its WAL and shared-memory files. */
export function cacheFilesOf(dataDir: string, profileId: string): string[] {
  const db = storeFileFor(dataDir, profileId)
  return [db, `${db}-wal`, `${db}-shm`]
}

async function deleteCacheFiles(dataDir: string, profileId: string): Promise<void> {
  await Promise.all(cacheFilesOf(dataDir, profileId).map((file) => rm(file, { force: true })))
}
