import { createHash, timingSafeEqual } from 'node:crypto'
import type { CredentialStatus } from '../../shared/profiles'
import type { Credentials } from '../api/client'
import { AppError, isAppError } from '../app-error'
import {
  KEYCHAIN_TIMEOUT_MS,
  SIZE_HINT,
  classifyKeychainError,
  toKeychainError,
  withKeychainTimeout,
} from './keychain-errors'
import { MemoryStore } from './memory-store'
import type { SecureStore } from './secure-store'

/** The keychain service name the app's entries live under (tests use their own). */
const KEYCHAIN_SERVICE = 'Appraisal Desk'

/**
 * Largest entry written to the keychain, in UTF-8 bytes. Windows' Credential
 * Manager holds at most 2560 bytes per blob and fails with "The stub received
 * bad data" above it (docs/faults.md F21); 2 KB leaves room for its own framing.
 * @internal
 */
export const MAX_ENTRY_BYTES = 2048

/** Options of {@link Vault}. */
export interface VaultOptions {
  /** The OS keychain (keytar in the app). */
  readonly keychain: SecureStore
  readonly service?: string
  readonly timeoutMs?: number
  readonly platform?: NodeJS.Platform
  /** Secret-free log lines (which backend failed and how). */
  readonly log?: (message: string) => void
}

/**
 * The credential vault: one keychain entry per profile holding its API key
 * and secret and the origins they were entered for, plus a session-only
 * memory store for when the user chooses it. Secrets stay here and in the
 * client; callers outside main learn only a {@link CredentialStatus}. There
 * is no plaintext fallback on disk.
 *
 * Key binding (docs/security.md): the vault hands a key and secret out only
 * for the origins kept in their entry, whatever the settings file says. An
 * entry written before entries carried origins is bound to the origins of
 * its first use and rewritten with them.
 */
export class Vault {
  readonly #keychain: SecureStore
  readonly #session = new MemoryStore()
  readonly #service: string
  readonly #timeoutMs: number
  readonly #platform: NodeJS.Platform
  readonly #log: (message: string) => void
  /** Credentials read once are kept in memory for the client, with their origins; dropped on change. */
  readonly #cache = new Map<string, Bound>()
  /** Team server passwords read once, by profile id. */
  readonly #teamCache = new Map<string, string>()

  constructor(options: VaultOptions) {
    this.#keychain = options.keychain
    this.#service = options.service ?? KEYCHAIN_SERVICE
    this.#timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS
    this.#platform = options.platform ?? process.platform
    this.#log = options.log ?? ((message) => console.warn(message))
  }

  /**
   * The profile's credentials for a request to `origins` (the profile's
   * service and image host, see `credentialOrigins`); throws
   * `no_credentials` when none are stored or they were entered for other
   * origins, `keychain_locked` or `keychain_unavailable`.
   */
  async get(profileId: string, origins: readonly string[]): Promise<Credentials> {
    const found = await this.#boundTo(profileId, origins)
    if (!found) {
      throw new AppError(
        'no_credentials',
        'No API key and secret are stored for this profile. Enter them under Accounts.',
      )
    }
    if (found === 'elsewhere') throw elsewhereError()
    return found.credentials
  }

  /**
   * Whether credentials usable for `origins` are stored and where, with the
   * key's last four characters; never throws. Credentials entered for other
   * origins count as missing (with a `no_credentials` error saying why).
   */
  async status(profileId: string, origins: readonly string[]): Promise<CredentialStatus> {
    try {
      const found = await this.#boundTo(profileId, origins)
      if (!found) return { state: 'missing' }
      if (found === 'elsewhere') return { state: 'missing', error: elsewhereError().toData() }
      return { state: this.#shown(found.where), keyLast4: lastFour(found.credentials.apiKey) }
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      return {
        state: appError.code === 'keychain_locked' ? 'locked' : 'unavailable',
        error: appError.toData(),
      }
    }
  }

  /**
   * Stores or replaces a profile's key and/or secret. With `sessionOnly` they
   * stay in memory until quit; otherwise they go to the keychain, and a
   * keychain failure is thrown (with the fix in its message) so the user can
   * choose session-only explicitly. Answers the new status.
   */
  async set(
    profileId: string,
    update: { apiKey?: string | undefined; apiSecret?: string | undefined },
    options: { origins: readonly string[]; sessionOnly?: boolean | undefined },
  ): Promise<CredentialStatus> {
    const origins = normalOrigins(options.origins)
    if (origins.length === 0) {
      throw new AppError('invalid_argument', 'The profile names no service to bind the key to.')
    }
    // Half of a pair entered for other origins is not reused for these.
    const read = update.apiKey && update.apiSecret ? null : await this.#read(profileId)
    const current = read && (read.origins === null || covers(read.origins, origins)) ? read : null
    const apiKey = update.apiKey ?? current?.credentials.apiKey
    const apiSecret = update.apiSecret ?? current?.credentials.apiSecret
    if (!apiKey || !apiSecret) {
      throw new AppError('invalid_argument', 'Enter both the API key and the API secret.')
    }
    const value = entryOf({ apiKey, apiSecret }, origins)
    if (Buffer.byteLength(value, 'utf8') > MAX_ENTRY_BYTES) {
      throw new AppError(
        'too_large',
        `The API key and secret together are longer than ${MAX_ENTRY_BYTES} bytes. ${SIZE_HINT}`,
      )
    }
    const account = accountOf(profileId)
    if (options.sessionOnly) {
      await this.#session.set(this.#service, account, value)
      this.#cache.set(profileId, { credentials: { apiKey, apiSecret }, origins })
      return { state: 'session', keyLast4: lastFour(apiKey) }
    }
    try {
      await this.#keychainCall(this.#keychain.set(this.#service, account, value))
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} set failed: ${appError.code}`)
      throw appError
    }
    await this.#session.delete(this.#service, account)
    this.#cache.set(profileId, { credentials: { apiKey, apiSecret }, origins })
    return { state: this.#shown('keychain'), keyLast4: lastFour(apiKey) }
  }

  /**
   * Where the user is told a secret is kept: a "keychain" that lives in memory
   * (the web host without the system keychain) keeps it for this session only,
   * and the Accounts card must not claim the keychain holds it.
   */
  #shown(where: 'keychain' | 'session'): 'keychain' | 'session' {
    return where === 'keychain' && this.#keychain.backend === 'memory' ? 'session' : where
  }

  /**
   * Removes a profile's credentials from memory and the keychain. Any
   * keychain failure (locked, unreachable, or one it does not explain) is
   * thrown: the entry may still be there, and callers must not go on as if
   * it were gone.
   */
  async delete(profileId: string): Promise<void> {
    const account = accountOf(profileId)
    this.#cache.delete(profileId)
    this.#teamCache.delete(profileId)
    await this.#session.delete(this.#service, account)
    try {
      await this.#keychainCall(this.#keychain.delete(this.#service, account))
      await this.#keychainCall(this.#keychain.delete(this.#service, teamAccountOf(profileId)))
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} delete failed: ${appError.code}`)
      throw appError
    }
  }

  /**
   * Stores a profile's team server password in the keychain, in an entry of
   * its own (docs/team.md); it never reaches settings or the renderer. With
   * `sessionOnly` it stays in memory until quit (no keychain, or a locked
   * one), as a session-only API key does.
   */
  async setTeamPassword(
    profileId: string,
    password: string,
    options: { sessionOnly?: boolean } = {},
  ): Promise<void> {
    if (Buffer.byteLength(password, 'utf8') > MAX_ENTRY_BYTES) {
      throw new AppError('too_large', `The password is longer than ${MAX_ENTRY_BYTES} bytes.`)
    }
    if (options.sessionOnly) {
      this.#teamCache.set(profileId, password)
      return
    }
    try {
      await this.#keychainCall(
        this.#keychain.set(this.#service, teamAccountOf(profileId), password),
      )
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} set failed: ${appError.code}`)
      throw appError
    }
    this.#teamCache.set(profileId, password)
  }

  /**
   * Removes a profile's team server password from memory and the keychain
   * (the profile no longer has that team server, or it names another
   * server, role or trust). Any keychain failure is thrown, as in
   * {@link delete}.
   */
  async deleteTeamPassword(profileId: string): Promise<void> {
    this.#teamCache.delete(profileId)
    try {
      await this.#keychainCall(this.#keychain.delete(this.#service, teamAccountOf(profileId)))
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} delete failed: ${appError.code}`)
      throw appError
    }
  }

  /** A profile's team server password, or null when none is stored. */
  async teamPassword(profileId: string): Promise<string | null> {
    const cached = this.#teamCache.get(profileId)
    if (cached !== undefined) return cached
    let password: string | null
    try {
      password = await this.#keychainCall(
        this.#keychain.get(this.#service, teamAccountOf(profileId)),
      )
    } catch (error) {
      throw toKeychainError(error, this.#platform)
    }
    if (password !== null) this.#teamCache.set(profileId, password)
    return password
  }

  /**
   * Whether `apiSecret` is the profile's stored API secret, compared in
   * constant time (SHA-256 digests of both, so their lengths leak nothing
   * either); false when none is stored. A forgotten app-lock PIN is reset
   * this way (docs/security.md "The app lock").
   */
  async matchesSecret(profileId: string, apiSecret: string): Promise<boolean> {
    const found = await this.#read(profileId)
    if (!found) return false
    return sameText(found.credentials.apiSecret, apiSecret)
  }

  /**
   * The app lock's entry (docs/security.md "The app lock"): the PIN's salted
   * slow hash with its parameters, in a keychain entry of its own (never in
   * settings); null when no PIN is set.
   */
  async lockEntry(): Promise<string | null> {
    try {
      return await this.#keychainCall(this.#keychain.get(this.#service, LOCK_ACCOUNT))
    } catch (error) {
      throw toKeychainError(error, this.#platform)
    }
  }

  /** Stores or replaces the app lock's entry; a keychain failure is thrown (no PIN without a keychain). */
  async setLockEntry(value: string): Promise<void> {
    if (Buffer.byteLength(value, 'utf8') > MAX_ENTRY_BYTES) {
      throw new AppError('too_large', `The lock entry is longer than ${MAX_ENTRY_BYTES} bytes.`)
    }
    try {
      await this.#keychainCall(this.#keychain.set(this.#service, LOCK_ACCOUNT, value))
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} set failed: ${appError.code}`)
      throw appError
    }
  }

  /** Removes the app lock's entry (the PIN was removed or reset). */
  async deleteLockEntry(): Promise<void> {
    try {
      await this.#keychainCall(this.#keychain.delete(this.#service, LOCK_ACCOUNT))
    } catch (error) {
      throw toKeychainError(error, this.#platform)
    }
  }

  /** Profile ids with an entry in the keychain (to find orphans). */
  async storedProfileIds(): Promise<string[]> {
    const entries = await this.#keychainCall(this.#keychain.find(this.#service))
    return entries
      .map((entry) => entry.account)
      .filter((account) => account.startsWith(ACCOUNT_PREFIX))
      .map((account) => account.slice(ACCOUNT_PREFIX.length))
  }

  /**
   * The profile's entry when it is bound to every one of `origins`,
   * `'elsewhere'` when it was entered for others, null when there is none.
   * An entry without origins (written before entries carried them) is bound
   * here to `origins` and rewritten; see docs/security.md for why.
   */
  async #boundTo(
    profileId: string,
    origins: readonly string[],
  ): Promise<Found | 'elsewhere' | null> {
    const wanted = normalOrigins(origins)
    const found = await this.#read(profileId)
    if (!found) return null
    if (found.origins === null) return this.#bindLegacy(profileId, found, wanted)
    if (wanted.length === 0 || !covers(found.origins, wanted)) {
      this.#log(
        `[vault] the key of profile ${profileId} was entered for ${found.origins.join(' ')}; refused for ${wanted.join(' ') || '(no origin)'}`,
      )
      return 'elsewhere'
    }
    return found
  }

  async #bindLegacy(
    profileId: string,
    found: Found,
    origins: string[],
  ): Promise<Found | 'elsewhere'> {
    if (origins.length === 0) return 'elsewhere'
    const bound: Found = { ...found, origins }
    this.#cache.set(profileId, { credentials: found.credentials, origins })
    const value = entryOf(found.credentials, origins)
    const account = accountOf(profileId)
    if (found.where === 'session') {
      await this.#session.set(this.#service, account, value)
      return bound
    }
    try {
      await this.#keychainCall(this.#keychain.set(this.#service, account, value))
      this.#log(`[vault] the key of profile ${profileId} is now bound to ${origins.join(' ')}`)
    } catch (error) {
      // Bound in memory for this run; the entry is bound again on the next start.
      const appError = toKeychainError(error, this.#platform)
      this.#log(
        `[vault] ${this.#keychain.backend} could not bind profile ${profileId}: ${appError.code}`,
      )
    }
    return bound
  }

  async #read(profileId: string): Promise<Found | null> {
    const account = accountOf(profileId)
    const session = await this.#session.get(this.#service, account)
    if (session !== null) {
      const entry = parseEntry(session)
      if (entry) return { ...entry, where: 'session' }
    }
    const cached = this.#cache.get(profileId)
    if (cached) return { ...cached, where: 'keychain' }

    let raw: string | null
    try {
      raw = await this.#keychainCall(this.#keychain.get(this.#service, account))
    } catch (error) {
      if (!isAppError(error) && classifyKeychainError(error) === 'undecryptable') {
        await this.#discard(profileId, 'could not be decrypted')
        return null
      }
      const appError = toKeychainError(error, this.#platform)
      this.#log(`[vault] ${this.#keychain.backend} get failed: ${appError.code}`)
      throw appError
    }
    if (raw === null) return null
    const entry = parseEntry(raw)
    if (!entry) {
      await this.#discard(profileId, 'is not readable')
      return null
    }
    if (entry.origins) this.#cache.set(profileId, { ...entry, origins: entry.origins })
    return { ...entry, where: 'keychain' }
  }

  /**
   * An entry that cannot be read (docs/faults.md F22: the keychain's backend
   * changed, the entry was damaged) is treated as no credentials and deleted,
   * so the user is asked to enter them again instead of failing forever.
   */
  async #discard(profileId: string, why: string): Promise<void> {
    this.#log(
      `[vault] the ${this.#keychain.backend} entry of profile ${profileId} ${why} (platform ${this.#platform}); deleted, credentials must be entered again`,
    )
    try {
      await this.#keychainCall(this.#keychain.delete(this.#service, accountOf(profileId)))
    } catch {
      // Best effort: the entry is ignored either way and overwritten on the next save.
    }
  }

  #keychainCall<T>(call: Promise<T>): Promise<T> {
    return withKeychainTimeout(call, this.#timeoutMs, this.#platform)
  }
}

interface Found {
  readonly credentials: Credentials
  /** The origins the entry is bound to; null for an entry written before entries carried them. */
  readonly origins: readonly string[] | null
  readonly where: 'keychain' | 'session'
}

interface Bound {
  readonly credentials: Credentials
  readonly origins: readonly string[]
}

/** The error for credentials entered for another address. */
function elsewhereError(): AppError {
  return new AppError(
    'no_credentials',
    'The stored API key and secret were entered for another address than this profile now names. Enter them again under Accounts.',
  )
}

/** Origins as URL parsing writes them (scheme, host, port), sorted and without repeats. */
function normalOrigins(origins: readonly string[]): string[] {
  const normal = new Set<string>()
  for (const origin of origins) {
    try {
      const parsed = new URL(origin).origin
      if (parsed !== 'null') normal.add(parsed)
    } catch {
      // not an address: binds to nothing
    }
  }
  return [...normal].sort()
}

/** True when every origin of `wanted` is one of `bound`. */
function covers(bound: readonly string[], wanted: readonly string[]): boolean {
  return wanted.length > 0 && wanted.every((origin) => bound.includes(origin))
}

/** A keychain entry: key, secret and the origins they were entered for. */
function entryOf(credentials: Credentials, origins: readonly string[]): string {
  return JSON.stringify({ v: 2, ...credentials, origins })
}

const ACCOUNT_PREFIX = 'profile:'

/** The keychain account of the app lock's PIN hash: one for the app, beside the profiles'. */
const LOCK_ACCOUNT = 'app-lock'

/** Constant-time equality of two texts: their SHA-256 digests are compared, so lengths do not matter. */
export function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

/** The keychain account of a profile's team server password. */
function teamAccountOf(profileId: string): string {
  return `team:${profileId}`
}

function accountOf(profileId: string): string {
  return `${ACCOUNT_PREFIX}${profileId}`
}

/** The key's last four characters: all the renderer may see of it. */
export function lastFour(apiKey: string): string {
  return apiKey.length > 8 ? apiKey.slice(-4) : ''
}

function parseEntry(raw: string): Omit<Found, 'where'> | null {
  try {
    const parsed = JSON.parse(raw) as unknown
    if (
      parsed &&
      typeof parsed === 'object' &&
      'apiKey' in parsed &&
      'apiSecret' in parsed &&
      typeof parsed.apiKey === 'string' &&
      typeof parsed.apiSecret === 'string' &&
      parsed.apiKey &&
      parsed.apiSecret
    ) {
      const credentials = { apiKey: parsed.apiKey, apiSecret: parsed.apiSecret }
      if (!('origins' in parsed)) return { credentials, origins: null }
      // An entry with origins that are not a list of addresses binds to nothing.
      const origins = Array.isArray(parsed.origins)
        ? normalOrigins(parsed.origins.filter((origin) => typeof origin === 'string'))
        : []
      return { credentials, origins }
    }
  } catch {
    // not our JSON: unreadable
  }
  return null
}
