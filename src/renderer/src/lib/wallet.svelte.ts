import { getContext, setContext } from 'svelte'
import type { ChannelArgs } from '../../../shared/contract'
import type { ErrorData } from '../../../shared/errors'
import {
  walletNeedsConfirmation,
  type WalletOutcome,
  type WalletStarted,
} from '../../../shared/wallet'
import type { MessageKey } from './i18n.svelte'
import type { Client } from './client'

/** What staff ask for: a flow, its member, and for a sync the guarantee and maybe its token. */
export type WalletRequest = ChannelArgs<'wallet.start'>

/** How often the web host's popup is checked for being closed. */
const POPUP_POLL_MS = 400

/**
 * The running wallet-link flow and the last outcome, shared by the Wallet
 * view and the buttons in the details. It never holds the flow's address:
 * in Electron main opens the window; in the web host the popup opens the
 * web host's own `/wallet/open/<flowId>`, which redirects it.
 */
export class WalletState {
  running = $state.raw<WalletStarted | null>(null)
  last = $state.raw<WalletOutcome | null>(null)
  error = $state.raw<ErrorData | null>(null)
  /** A request waiting for the production confirmation. */
  confirming = $state.raw<WalletRequest | null>(null)
  /** A sync that needs its token typed (none stored for that guarantee). */
  needsToken = $state.raw<WalletRequest | null>(null)
  /** Bumped at every ended flow, so history lists reload. */
  version = $state(0)
  /** The active profile's kind (production asks first). */
  profileKind = $state('sandbox')
  readonly #client: Client
  #popup: Window | null = null
  #poll: ReturnType<typeof setInterval> | null = null

  constructor(client: Client) {
    this.#client = client
  }

  /** Listens for outcomes and picks up a flow already running; returns the cleanup. */
  connect(): () => void {
    void this.#client.attempt('wallet.history', { limit: 1 }).then((result) => {
      if (result.ok) this.running = result.value.running ?? null
    })
    const off = this.#client.on('wallet.outcome', (outcome) => {
      this.last = outcome
      if (this.running?.flowId === outcome.flowId) this.running = null
      this.#closePopup()
      this.version += 1
    })
    // Links another member ran arrive from the team server: the history is asked again.
    const offPulled = this.#client.on('wallet.historyChanged', () => (this.version += 1))
    const leaving = () => this.#pageGone()
    window.addEventListener('pagehide', leaving)
    return () => {
      off()
      offPulled()
      window.removeEventListener('pagehide', leaving)
      this.#stopPolling()
    }
  }

  /**
   * Web host: the page is going away (its tab closed, or it navigated off)
   * while its popup flow runs. Nothing would notice the popup close any
   * more, so the flow is cancelled now (a keepalive request) and its popup
   * closed, rather than left "running" until its timeout.
   */
  #pageGone(): void {
    const flow = this.running
    if (!flow || flow.opener !== 'popup') return
    void this.#client.attempt('wallet.cancel', { flowId: flow.flowId, closed: true })
    this.#closePopup()
  }

  /** Starts a flow; on a production profile it first asks (see {@link confirm}). */
  async start(request: WalletRequest): Promise<void> {
    this.error = null
    if (walletNeedsConfirmation(this.profileKind) && !request.confirmed) {
      this.confirming = request
      return
    }
    this.confirming = null
    const result = await this.#client.attempt('wallet.start', request)
    if (!result.ok) {
      this.error = result.error
      if (request.flow === 'sync' && !request.token && result.error.code === 'invalid_argument') {
        this.needsToken = request
      }
      return
    }
    this.needsToken = null
    this.running = result.value
    this.last = null
    if (result.value.opener === 'popup') this.#openPopup(result.value.flowId)
  }

  /** The user confirmed the production flow waiting in {@link confirming}. */
  async confirm(): Promise<void> {
    const request = this.confirming
    if (request) await this.start({ ...request, confirmed: true })
  }

  /** Ends the running flow as cancelled. */
  async cancel(): Promise<void> {
    const flow = this.running
    if (flow) await this.#client.attempt('wallet.cancel', { flowId: flow.flowId })
  }

  /**
   * Web host: opens the popup on the web host's own opener route (still
   * within the click's user activation). A blocked popup cancels the flow.
   */
  #openPopup(flowId: string): void {
    const popup = window.open(
      `/wallet/open/${encodeURIComponent(flowId)}`,
      'wallet-link',
      'popup,width=520,height=760',
    )
    if (!popup) {
      void this.#client.attempt('wallet.cancel', { flowId, closed: true })
      return
    }
    this.#popup = popup
    this.#stopPolling()
    this.#poll = setInterval(() => {
      if (!popup.closed) return
      this.#stopPolling()
      this.#popup = null
      if (this.running?.flowId === flowId) {
        void this.#client.attempt('wallet.cancel', { flowId, closed: true })
      }
    }, POPUP_POLL_MS)
  }

  #closePopup(): void {
    this.#stopPolling()
    this.#popup?.close()
    this.#popup = null
  }

  #stopPolling(): void {
    if (this.#poll !== null) clearInterval(this.#poll)
    this.#poll = null
  }
}

/** The message key of an outcome, in plain words. */
export function outcomeKey(outcome: WalletOutcome['outcome']): MessageKey {
  return `wallet.outcome.${outcome}`
}

/**
 * A reason in plain words: a blocked origin is named as it is; failure and
 * cancel codes have their own sentences; an HTTP status is filled in.
 */
export function reasonText(
  t: (key: MessageKey, values?: Record<string, string | number>) => string,
  outcome: WalletOutcome['outcome'],
  reason: string | null,
): string | null {
  if (reason === null) return null
  if (outcome === 'blocked') return t('wallet.reason.blocked', { origin: reason })
  const http = /^http-(\d{3})$/.exec(reason)
  if (http) return t('wallet.reason.http', { status: http[1] ?? '' })
  switch (reason) {
    case 'closed':
    case 'staff':
    case 'service':
    case 'tls':
    case 'offline':
    case 'unreachable':
    case 'refused':
      return t(`wallet.reason.${reason}`)
    default:
      return t('wallet.reason.other', { code: reason })
  }
}

const KEY = Symbol('wallet')

/** Provides the wallet state to the component tree. */
export function setWallet(wallet: WalletState): WalletState {
  return setContext(KEY, wallet)
}

/** The wallet state of the nearest ancestor that set one. */
export function useWallet(): WalletState {
  return getContext<WalletState>(KEY)
}
