import { createContext } from 'svelte'
import type { ErrorData } from '../../../shared/errors'
import type { LockStatus } from '../../../shared/lock'
import type { Client } from './client'

/** Input reaches core at most this often (the idle timer lives there; docs/security.md "The app lock"). */
const ACTIVITY_REPORT_MS = 5000

/** The input events that count as someone at the desk. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const

/**
 * The app lock as the renderer sees it: core decides (locked, the idle
 * timer, the wait after wrong entries); this holds its last status, asks
 * core to lock or unlock, and reports the page's input, throttled.
 */
export class LockState {
  /** Null until core first answers: nothing of the desk is shown before. */
  status = $state.raw<LockStatus | null>(null)
  /** The error of the last call that failed (a keychain problem, a wrong current PIN). */
  error = $state.raw<ErrorData | null>(null)
  readonly #client: Client
  #lastReport = 0

  constructor(client: Client) {
    this.#client = client
  }

  /** Whether the desk may show: core said it is not locked. */
  get open(): boolean {
    return this.status !== null && !this.status.locked
  }

  /** Loads the status and follows `lock.changed`; returns the cleanup (for `$effect`). */
  connect(): () => void {
    const off = this.#client.on('lock.changed', (status) => {
      this.status = status
    })
    void this.refresh()
    return off
  }

  /** Asks core for the status again. */
  async refresh(): Promise<void> {
    const answer = await this.#client.attempt('lock.status', {})
    if (answer.ok) this.status = answer.value
    else this.error = answer.error
  }

  /** Lock now (Ctrl+L, the menu, the palette). */
  async lockNow(): Promise<void> {
    this.#take(await this.#client.attempt('lock.now', {}))
  }

  /** Tries the PIN; answers whether it unlocked (a wrong one or a wait stays in `status`/`error`). */
  async unlock(pin: string): Promise<boolean> {
    const answer = await this.#client.attempt('lock.unlock', { pin })
    this.error = answer.ok ? null : answer.error
    if (!answer.ok) return false
    this.status = answer.value.status
    return answer.value.unlocked
  }

  /** Sets or changes the PIN. */
  async setPin(pin: string, current: string | undefined): Promise<boolean> {
    return this.#take(
      await this.#client.attempt('lock.setPin', current === undefined ? { pin } : { pin, current }),
    )
  }

  /** Removes the PIN. */
  async removePin(current: string): Promise<boolean> {
    return this.#take(await this.#client.attempt('lock.removePin', { current }))
  }

  /** A forgotten PIN, reset by the active account's API secret. */
  async resetWithSecret(apiSecret: string): Promise<boolean> {
    return this.#take(await this.#client.attempt('lock.resetWithSecret', { apiSecret }))
  }

  /** A forgotten PIN, reset by erasing every account's local data. */
  async resetByErasing(): Promise<boolean> {
    return this.#take(await this.#client.attempt('lock.resetByErasing', { confirm: true }))
  }

  /**
   * Reports the page's input to core while the desk is open, at most once
   * per {@link ACTIVITY_REPORT_MS}; returns the cleanup (for `$effect`).
   */
  watchActivity(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
    const report = (): void => {
      if (!this.open) return
      const now = Date.now()
      if (now - this.#lastReport < ACTIVITY_REPORT_MS) return
      this.#lastReport = now
      void this.#client.attempt('lock.activity', {})
    }
    for (const name of ACTIVITY_EVENTS) target.addEventListener(name, report, { passive: true })
    return () => {
      for (const name of ACTIVITY_EVENTS) target.removeEventListener(name, report)
    }
  }

  #take(answer: { ok: true; value: LockStatus } | { ok: false; error: ErrorData }): boolean {
    this.error = answer.ok ? null : answer.error
    if (answer.ok) this.status = answer.value
    return answer.ok
  }
}

const [getLock, provideLock] = createContext<LockState>()

/** Provides the lock state to the component tree. */
export const setLock = provideLock
/** The lock state of the nearest ancestor that set one. */
export const useLock = getLock
