import {
  FREE_PIN_ATTEMPTS,
  isOpenWhileLocked,
  type LockAttempt,
  type LockReason,
  type LockStatus,
} from '../../shared/lock'
import { AppError } from '../app-error'
import { hashPin, parsePinRecord, verifyPin, type PinRecord } from './pin-hash'

/**
 * The wait after the first wrong entry past {@link FREE_PIN_ATTEMPTS}; each further one doubles it.
 * @internal
 */
export const FIRST_WAIT_MS = 30_000
/** The longest wait between two entries. */
const MAX_WAIT_MS = 60 * 60_000

/**
 * The wait before the next entry after `failures` wrong ones: none for the first five.
 * @internal
 */
export function waitAfter(failures: number): number {
  if (failures < FREE_PIN_ATTEMPTS) return 0
  return Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures - FREE_PIN_ATTEMPTS, 20))
}

/** Where the lock keeps its entry: the vault's keychain entry of its own. */
interface LockEntryStore {
  lockEntry(): Promise<string | null>
  setLockEntry(value: string): Promise<void>
  deleteLockEntry(): Promise<void>
}

/** Options of {@link AppLock}. */
export interface AppLockOptions {
  readonly store: LockEntryStore
  /** Seconds without input before locking (0: never on idle), read from the settings each time. */
  readonly idleSeconds: () => number
  /**
   * Whether a PIN is set, kept in the settings (no secret: the hash stays in
   * the keychain), so a start without one never waits for the keychain.
   */
  readonly pinFlag: { get(): boolean; set(value: boolean): void }
  readonly now: () => Date
  /** A forgotten PIN's reset by the active account's API secret. */
  readonly secretReset: {
    /** False while the built-in Sandbox, whose secret is public, is active beside other accounts. */
    available(): boolean
    /** Whether `secret` is the active account's API secret (constant time, in the vault). */
    matches(secret: string): Promise<boolean>
  }
  /** Deletes every account's cached data and stored key and secret (the other reset). */
  readonly eraseData: () => Promise<void>
  /** Runs as the app locks, before anyone hears of it (open wallet flows are cancelled). */
  readonly onLock?: () => void
  /** Secret-free log lines. */
  readonly log?: (message: string) => void
  /**
   * scrypt's N for new PINs; the app leaves it at `PIN_SCRYPT.N`. Only the
   * tests of the lock's decisions lower it, so a hundred tries stay quick.
   */
  readonly pinCost?: number
}

/** The message of every channel refused while locked. */
const LOCKED_MESSAGE = 'The app is locked: enter the PIN to continue.'

/**
 * The app lock (docs/security.md "The app lock"). It decides everything:
 * whether the app is locked, the idle timer (the hosts report input through
 * {@link activity}), which channels answer while locked ({@link guard}), the
 * PIN check with a growing wait after five wrong entries, and the two
 * resets of a forgotten PIN. With a PIN set, the app starts locked, so
 * quitting and starting again opens nothing.
 *
 * PIN operations run one at a time: parallel guesses cannot pass the wait.
 */
export class AppLock {
  readonly #options: AppLockOptions
  readonly #listeners = new Set<(status: LockStatus) => void>()
  /** The entry: a record, `damaged` (unreadable: it matches nothing), or null (no PIN). */
  #record: PinRecord | 'damaged' | null = null
  /** Whether {@link #record} is known; until then (or after a failed read) a PIN counts as set. */
  #loaded = false
  #locked = true
  #reason: LockReason | null = 'start'
  #lastActivity: number
  #timer: ReturnType<typeof setTimeout> | null = null
  #queue: Promise<unknown> = Promise.resolve()
  readonly #ready: Promise<void>

  constructor(options: AppLockOptions) {
    this.#options = options
    this.#lastActivity = options.now().getTime()
    if (options.pinFlag.get()) {
      // A PIN was set: locked until the keychain answers, and locked if it cannot (fails closed).
      this.#ready = this.#serial(async () => {
        try {
          await this.#load()
        } catch (error) {
          this.#log(`[lock] the lock entry could not be read at start: ${codeOf(error)}`)
          return
        }
        if (this.#record === null) this.#setUnlocked()
        else this.#schedule()
      }).then(() => this.#emit())
    } else {
      // No PIN was set: the app opens at once, whatever the keychain does (docs/faults.md F19). An
      // entry found there all the same (settings reset or replaced) locks the app as it should.
      this.#record = null
      this.#loaded = true
      this.#setUnlocked()
      this.#ready = Promise.resolve()
      void this.#serial(async () => {
        const raw = await options.store.lockEntry()
        if (raw === null || this.#record !== null) return
        this.#record = parsePinRecord(raw) ?? 'damaged'
        options.pinFlag.set(true)
        this.#log('[lock] a PIN was found in the keychain though the settings had none')
        this.lockNow('start')
      }).catch((error: unknown) => {
        this.#log(`[lock] the lock entry could not be checked at start: ${codeOf(error)}`)
      })
    }
  }

  /** Resolves once the start's keychain read is done (the app is then locked or not). */
  ready(): Promise<void> {
    return this.#ready
  }

  /** Whether the app is locked now (notifications read it to show counts only). */
  isLocked(): boolean {
    return this.#locked
  }

  /** Hears every change of the lock's state; returns the unsubscribe. */
  subscribe(listener: (status: LockStatus) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Refuses a channel while locked (the router calls it before every
   * handler): only {@link isOpenWhileLocked} channels answer. Waits for the
   * start's keychain read, so nothing answers before the lock knows.
   */
  async guard(channel: string): Promise<void> {
    if (isOpenWhileLocked(channel)) return
    await this.#ready
    if (this.#locked) throw new AppError('locked', LOCKED_MESSAGE)
  }

  /** The state as the renderer sees it. */
  status(): LockStatus {
    const record = this.#record
    const retryAt = record !== null && record !== 'damaged' ? record.retryAt : null
    const waiting = retryAt !== null && Date.parse(retryAt) > this.#options.now().getTime()
    return {
      pinSet: record !== null || !this.#loaded,
      locked: this.#locked,
      reason: this.#locked ? this.#reason : null,
      idleSeconds: this.#options.idleSeconds(),
      failures: record !== null && record !== 'damaged' ? record.failures : 0,
      retryAt: waiting ? retryAt : null,
      secretResetAvailable: this.#options.secretReset.available(),
    }
  }

  /** Locks now (Lock now, the OS locking or sleeping, idle time); without a PIN nothing happens. */
  lockNow(reason: LockReason): LockStatus {
    if (this.#locked || (this.#loaded && this.#record === null)) return this.status()
    this.#locked = true
    this.#reason = reason
    this.#clearTimer()
    try {
      this.#options.onLock?.()
    } finally {
      this.#log(`[lock] locked (${reason})`)
      this.#emit()
    }
    return this.status()
  }

  /** Input in the window: the idle time starts again. Ignored while locked. */
  activity(): void {
    if (this.#locked) return
    this.#lastActivity = this.#options.now().getTime()
    this.#schedule()
  }

  /** The idle time in the settings changed: the timer follows it. */
  idleChanged(): void {
    this.#schedule()
    this.#emit()
  }

  /**
   * Unlocks with the PIN. A wrong one is counted (in the keychain entry, so a
   * restart does not clear it); from the fifth on, each makes the next entry
   * wait ({@link waitAfter}). An entry during a wait is refused unchecked
   * with `locked` and `retryAt`.
   */
  unlock(pin: string): Promise<LockAttempt> {
    return this.#serial(async () => {
      if (!this.#loaded) await this.#load()
      if (!this.#locked) return { unlocked: true, status: this.status() }
      if (this.#record === null) {
        this.#setUnlocked()
        this.#emit()
        return { unlocked: true, status: this.status() }
      }
      this.#refuseWhileWaiting()
      if (await this.#matches(pin)) {
        await this.#clearFailures()
        this.#setUnlocked()
        this.#log('[lock] unlocked')
        this.#emit()
        return { unlocked: true, status: this.status() }
      }
      await this.#countFailure()
      this.#emit()
      return { unlocked: false, status: this.status() }
    })
  }

  /** Sets or changes the PIN; with one set, `current` must match it (a wrong one counts). */
  setPin(pin: string, current: string | undefined): Promise<LockStatus> {
    return this.#serial(async () => {
      if (!this.#loaded) await this.#load()
      await this.#checkCurrent(current)
      const record = await hashPin(pin, this.#options.pinCost)
      await this.#options.store.setLockEntry(JSON.stringify(record))
      this.#record = record
      this.#loaded = true
      this.#options.pinFlag.set(true)
      this.#lastActivity = this.#options.now().getTime()
      this.#schedule()
      this.#log('[lock] PIN set')
      this.#emit()
      return this.status()
    })
  }

  /** Removes the PIN with the current one: the app no longer locks. */
  removePin(current: string): Promise<LockStatus> {
    return this.#serial(async () => {
      if (!this.#loaded) await this.#load()
      await this.#checkCurrent(current)
      await this.#forget()
      this.#log('[lock] PIN removed')
      this.#emit()
      return this.status()
    })
  }

  /** A forgotten PIN: the active account's API secret removes it and unlocks (a wrong one counts). */
  resetWithSecret(secret: string): Promise<LockStatus> {
    return this.#serial(async () => {
      if (!this.#options.secretReset.available()) {
        throw new AppError(
          'invalid_argument',
          "The built-in Sandbox's secret is public: erase the local data to reset the PIN instead.",
        )
      }
      this.#refuseWhileWaiting()
      if (!(await this.#options.secretReset.matches(secret))) {
        await this.#countFailure()
        this.#emit()
        throw new AppError('locked', 'That is not the active account\u2019s API secret.', {
          ...this.#retryOption(),
        })
      }
      await this.#forget()
      this.#log('[lock] PIN reset with the API secret')
      this.#emit()
      return this.status()
    })
  }

  /** A forgotten PIN: every account's cached data and stored key and secret are deleted, then the PIN. */
  resetByErasing(): Promise<LockStatus> {
    return this.#serial(async () => {
      await this.#options.eraseData()
      await this.#forget()
      this.#log('[lock] PIN reset by erasing the local data')
      this.#emit()
      return this.status()
    })
  }

  /** Stops the idle timer (the app is closing). */
  close(): void {
    this.#clearTimer()
  }

  async #load(): Promise<void> {
    const raw = await this.#options.store.lockEntry()
    this.#record = raw === null ? null : (parsePinRecord(raw) ?? 'damaged')
    this.#loaded = true
    if (this.#record === 'damaged') this.#log('[lock] the lock entry is unreadable; reset the PIN')
  }

  async #matches(pin: string): Promise<boolean> {
    const record = this.#record
    if (record === null) return true
    if (record === 'damaged') return false
    return verifyPin(pin, record)
  }

  async #checkCurrent(current: string | undefined): Promise<void> {
    if (this.#record === null) return
    this.#refuseWhileWaiting()
    if (current !== undefined && (await this.#matches(current))) {
      await this.#clearFailures()
      return
    }
    await this.#countFailure()
    this.#emit()
    throw new AppError('locked', 'The current PIN is wrong.', this.#retryOption())
  }

  #refuseWhileWaiting(): void {
    const retry = this.#retryOption()
    if (retry.retryAt !== undefined) {
      throw new AppError('locked', 'Too many wrong entries: wait before trying again.', retry)
    }
  }

  #retryOption(): { retryAt?: string } {
    const retryAt = this.status().retryAt
    return retryAt === null ? {} : { retryAt }
  }

  async #countFailure(): Promise<void> {
    const record = this.#record
    if (record === null || record === 'damaged') return
    const failures = record.failures + 1
    const wait = waitAfter(failures)
    const next: PinRecord = {
      ...record,
      failures,
      retryAt: wait > 0 ? new Date(this.#options.now().getTime() + wait).toISOString() : null,
    }
    this.#record = next
    this.#log(`[lock] wrong entry ${failures}${wait > 0 ? `, next in ${wait / 1000} s` : ''}`)
    await this.#store(next)
  }

  async #clearFailures(): Promise<void> {
    const record = this.#record
    if (record === null || record === 'damaged' || record.failures === 0) return
    const next: PinRecord = { ...record, failures: 0, retryAt: null }
    this.#record = next
    await this.#store(next)
  }

  /** Writes the counters; a keychain failure keeps them in memory (the wait still holds until quit). */
  async #store(record: PinRecord): Promise<void> {
    try {
      await this.#options.store.setLockEntry(JSON.stringify(record))
    } catch (error) {
      this.#log(`[lock] the wrong-entry count could not be stored: ${codeOf(error)}`)
    }
  }

  async #forget(): Promise<void> {
    await this.#options.store.deleteLockEntry()
    this.#record = null
    this.#loaded = true
    this.#options.pinFlag.set(false)
    this.#setUnlocked()
  }

  #setUnlocked(): void {
    this.#locked = false
    this.#reason = null
    this.#lastActivity = this.#options.now().getTime()
    this.#schedule()
  }

  #schedule(): void {
    this.#clearTimer()
    const idleMs = this.#options.idleSeconds() * 1000
    if (this.#locked || this.#record === null || idleMs <= 0) return
    const due = this.#lastActivity + idleMs
    const timer = setTimeout(
      () => {
        this.#timer = null
        if (this.#options.now().getTime() >= due) this.lockNow('idle')
        else this.#schedule()
      },
      Math.max(0, due - this.#options.now().getTime()),
    )
    timer.unref?.()
    this.#timer = timer
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }

  #emit(): void {
    const status = this.status()
    for (const listener of this.#listeners) {
      try {
        listener(status)
      } catch (error) {
        this.#log(`[lock] a listener failed: ${codeOf(error)}`)
      }
    }
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(task, task)
    this.#queue = result.catch(() => undefined)
    return result
  }

  #log(message: string): void {
    this.#options.log?.(message)
  }
}

function codeOf(error: unknown): string {
  return error instanceof AppError ? error.code : error instanceof Error ? error.name : 'error'
}
