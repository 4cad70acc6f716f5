import { createContext } from 'svelte'
import type { LiveAccountsStatus, LiveStatus } from '../../../shared/live'
import type { ErrorData } from '../../../shared/errors'
import type { Client } from './client'

/**
 * The live schedule as the status bar sees it (docs/live.md): its status,
 * followed from the `live.status` event, and pause / resume. The page also
 * tells core what it knows (the network, the window shown again) through
 * `live.signal`, which is how the web host feeds the schedule.
 */
export class LiveState {
  status = $state.raw<LiveStatus | null>(null)
  /** The other accounts kept current (every-account mode), or null before the first answer. */
  accounts = $state.raw<LiveAccountsStatus | null>(null)
  /** The error of the last pause or resume, if it failed. */
  error = $state.raw<ErrorData | null>(null)
  /** A clock that moves once a minute, so "next poll" texts stay right. */
  now = $state(Date.now())
  readonly #client: Client

  constructor(client: Client) {
    this.#client = client
  }

  /** Loads the status and follows it; returns the cleanup (for `$effect`). */
  connect(): () => void {
    void this.#client.attempt('live.status', {}).then((answer) => {
      if (answer.ok) this.status = answer.value
    })
    void this.#client.attempt('live.accounts', {}).then((answer) => {
      if (answer.ok) this.accounts = answer.value
    })
    const off = this.#client.on('live.status', (status) => {
      this.status = status
      this.now = Date.now()
    })
    const offAccounts = this.#client.on('live.accounts', (accounts) => {
      this.accounts = accounts
    })
    const tick = setInterval(() => (this.now = Date.now()), 30_000)
    return () => {
      off()
      offAccounts()
      clearInterval(tick)
    }
  }

  /**
   * Feeds core the window shown again and, when `network` (the web host: Electron's shell
   * watches the network itself), the page's online state; returns the cleanup.
   */
  watchPage(network: boolean, target: Window = window): () => void {
    const signal = (args: { online?: boolean; visible?: boolean }): void =>
      void this.#client.attempt('live.signal', args).then((answer) => {
        if (answer.ok) this.status = answer.value
      })
    const online = (): void => signal({ online: true })
    const offline = (): void => signal({ online: false })
    const visibility = (): void =>
      signal({ visible: target.document.visibilityState === 'visible' })
    if (network) {
      target.addEventListener('online', online)
      target.addEventListener('offline', offline)
    }
    target.document.addEventListener('visibilitychange', visibility)
    return () => {
      target.removeEventListener('online', online)
      target.removeEventListener('offline', offline)
      target.document.removeEventListener('visibilitychange', visibility)
    }
  }

  /** Pauses background syncs for `minutes`. */
  async pause(minutes: number): Promise<void> {
    await this.#apply(this.#client.attempt('live.pause', { minutes }))
  }

  /** Ends a pause; the schedule polls at once. */
  async resume(): Promise<void> {
    await this.#apply(this.#client.attempt('live.resume', {}))
  }

  async #apply(
    call: Promise<{ ok: true; value: LiveStatus } | { ok: false; error: ErrorData }>,
  ): Promise<void> {
    const answer = await call
    this.error = answer.ok ? null : answer.error
    if (answer.ok) this.status = answer.value
    this.now = Date.now()
  }
}

const [getLive, provideLive] = createContext<LiveState>()

/** Provides the live state to the component tree. */
export const setLive = provideLive

/** The live state of the nearest ancestor that set one. */
export const useLive = getLive
