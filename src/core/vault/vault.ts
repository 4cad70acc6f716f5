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
 * and secret, plus a session-only memory store for when the user chooses it.
 * Secrets stay here and in the client; callers outside main learn only a
 * {@link CredentialStatus}. There is no plaintext fallback on disk.
 */
export class Vault {
  readonly #keychain: SecureStore
  readonly #session = new MemoryStore()
  readonly #service: string
  readonly #timeoutMs: number
  readonly #platform: NodeJS.Platform
  readonly #log: (message: string) => void
  /** Credentials read once are kept in memory for the client; dropped on change. */
  readonly #cache = new Map<string, Credentials>()
  /** Team server passwords read once, by profile id. */
  readonly #teamCache = new Map<string, string>()

  constructor(options: VaultOptions) {
    this.#keychain = options.keychain
    this.#service = options.service ?? KEYCHAIN_SERVICE
    this.#timeoutMs = options.timeoutMs ?? KEYCHAIN_TIMEOUT_MS
    this.#platform = options.platform ?? process.platform
    this.#log = options.log ?? ((message) => console.warn(message))
  }

  /** The profile's credentials; throws `no_credentials`, `keychain_locked` or `keychain_unavailable`. */
  async get(profileId: string): Promise<Credentials> {
    const found = await this.#read(profileId)
    if (!found) {
      throw new AppError(
        'no_credentials',
        'No API key and secret are stored for this profile. Enter them under Accounts.',
      )
    }
    return found.credentials
  }

  /** Whether credentials are stored and where, with the key's last four characters; never throws. */
  async status(profileId: string): Promise<CredentialStatus> {
    try {
      const found = await this.#read(profileId)
      if (!found) return { state: 'missing' }
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
    options: { sessionOnly?: boolean } = {},
  ): Promise<CredentialStatus> {
    const current = update.apiKey && update.apiSecret ? null : await this.#read(profileId)
    const apiKey = update.apiKey ?? current?.credentials.apiKey
    const apiSecret = update.apiSecret ?? current?.credentials.apiSecret
    if (!apiKey || !apiSecret) {
      throw new AppError('invalid_argument', 'Enter both the API key and the API secret.')
    }
    const value = JSON.stringify({ v: 1, apiKey, apiSecret })
    if (Buffer.byteLength(value, 'utf8') > MAX_ENTRY_BYTES) {
      throw new AppError(
        'too_large',
        `The API key and secret together are longer than ${MAX_ENTRY_BYTES} bytes. ${SIZE_HINT}`,
      )
    }
    const account = accountOf(profileId)
    if (options.sessionOnly) {
      await this.#session.set(this.#service, account, value)
      this.#cache.set(profileId, { apiKey, apiSecret })
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
    this.#cache.set(profileId, { apiKey, apiSecret })
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
   * Removes a profile's credentials from memory and the keychain. A keychain
   * that does not exist holds nothing to remove; a locked one is reported so
   * the entry is not silently left behind.
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
      if (appError.code === 'keychain_unavailable') return
      throw appError
    }
  }

  /**
   * Stores a profile's team server password in the keychain, in an entry of
   * its own (docs/team.md); it never reaches settings or the renderer.
   */
  async setTeamPassword(profileId: string, password: string): Promise<void> {
    if (Buffer.byteLength(password, 'utf8') > MAX_ENTRY_BYTES) {
      throw new AppError('too_large', `The password is longer than ${MAX_ENTRY_BYTES} bytes.`)
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
   * (the profile no longer has that team server, or it names another host
   * or role). A keychain that does not exist holds nothing to remove.
   */
  async deleteTeamPassword(profileId: string): Promise<void> {
    this.#teamCache.delete(profileId)
    try {
      await this.#keychainCall(this.#keychain.delete(this.#service, teamAccountOf(profileId)))
    } catch (error) {
      const appError = toKeychainError(error, this.#platform)
      if (appError.code === 'keychain_unavailable') return
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

  async #read(profileId: string): Promise<Found | null> {
    const account = accountOf(profileId)
    const session = await this.#session.get(this.#service, account)
    if (session !== null) {
      const credentials = parseEntry(session)
      if (credentials) return { credentials, where: 'session' }
    }
    const cached = this.#cache.get(profileId)
    if (cached) return { credentials: cached, where: 'keychain' }

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
    const credentials = parseEntry(raw)
    if (!credentials) {
      await this.#discard(profileId, 'is not readable')
      return null
    }
    this.#cache.set(profileId, credentials)
    return { credentials, where: 'keychain' }
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
  readonly where: 'keychain' | 'session'
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

function parseEntry(raw: string): Credentials | null {
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
      return { apiKey: parsed.apiKey, apiSecret: parsed.apiSecret }
    }
  } catch {
    // not our JSON: unreadable
  }
  return null
}
