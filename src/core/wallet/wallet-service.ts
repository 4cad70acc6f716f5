import { randomUUID } from 'node:crypto'
import type {
  WalletFlowKind,
  WalletHistoryPage,
  WalletOutcome,
  WalletStarted,
} from '../../shared/wallet'
import { walletNeedsConfirmation } from '../../shared/wallet'
import { preSyncUrl, syncUrl } from '../api/wallet-urls'
import { AppError } from '../app-error'
import type { EventBus } from '../events'
import type { ActiveProfile } from '../profiles/profile-service'
import type { StoreClient } from '../owner/store-owner'
import type { WalletHistoryFilter } from '../store/queries/wallet-history'
import {
  WalletFlowMachine,
  type WalletEnd,
  type WalletEvent,
  type WalletVerdict,
} from './flow-machine'

/** Default time a flow may stay open: 10 minutes. */
export const DEFAULT_WALLET_TIMEOUT_MS = 10 * 60 * 1000

/**
 * Web host: how long a popup flow outlives the last open page of the app
 * (a reload comes back within it) before it ends as closed.
 * @internal
 */
export const PAGE_GONE_GRACE_MS = 15_000

/** The window title of every flow: fixed text, never the page's title or address. */
const WALLET_WINDOW_TITLE = '지갑 연동 · Wallet link — Appraisal Desk'

/**
 * One running flow as a host sees it. `url` carries the API key: a host
 * loads it and nothing else (never a title, a log line or an answer).
 */
export interface WalletFlowHandle {
  readonly id: string
  readonly url: string
  readonly title: string
  /** A non-persistent partition (no `persist:`), unique per flow: its cookies die with it. */
  readonly partition: string
  /** The service's origins: the only ones the window's page may send a request to. */
  readonly allowedOrigins: readonly string[]
  /** Feeds one window event to the flow's state machine. */
  feed(event: WalletEvent): WalletVerdict
  /** Settles once, when the flow ends (the host then closes its window). */
  readonly ended: Promise<WalletEnd>
}

/** A host that shows the service's page in a window of its own (Electron main). */
export interface WalletWindowHost {
  open(flow: WalletFlowHandle): void
}

/** What `wallet.start` receives after parsing. */
export interface WalletStartInput {
  readonly flow: WalletFlowKind
  readonly refUserId: string
  readonly guaranteeIdx?: number | undefined
  readonly token?: string | undefined
  /** The user confirmed a flow on a production profile. */
  readonly confirmed: boolean
}

/** Options of {@link WalletService}. */
export interface WalletServiceOptions {
  readonly events: EventBus
  readonly profile: () => ActiveProfile
  /** The active profile's database owner. */
  readonly store: () => StoreClient
  readonly now: () => Date
  readonly log: (message: string) => void
  /** Removes every known secret from text (the redactor). */
  readonly redact: (text: string) => string
  /** The flow timeout in milliseconds (a setting; read at each start). */
  readonly timeoutMs: () => number
}

interface RunningFlow {
  readonly handle: WalletFlowHandle
  readonly machine: WalletFlowMachine
  readonly started: WalletStarted
  readonly timer: NodeJS.Timeout
  readonly settle: (end: WalletEnd) => void
  /** The popup's address, handed out once (web host). */
  popupUrl: string | null
}

/**
 * Owns the wallet-link flows: builds the address in core, runs one flow at
 * a time through its state machine, times it out, records its end in the
 * profile's history and announces it as `wallet.outcome`. Hosts only carry
 * window events in (`feed`), so the same rules hold in Electron and the web
 * host.
 */
export class WalletService {
  readonly #options: WalletServiceOptions
  #host: WalletWindowHost | null = null
  #sandboxRedirect: string | null = null
  #current: RunningFlow | null = null
  /** Web host: the app's pages connected now (null: not counted, as in Electron). */
  #pages: number | null = null
  #pageGoneTimer: NodeJS.Timeout | null = null

  constructor(options: WalletServiceOptions) {
    this.#options = options
  }

  /** Electron: flows open in main's window. Without a host they open as a popup (web host). */
  useWindowHost(host: WalletWindowHost): void {
    this.#host = host
  }

  /**
   * Web host: the built-in Sandbox profile's flows end on this page of the
   * web host (`/wallet/return`), which hands the redirect to {@link feedReturn}.
   */
  useSandboxReturnPage(uri: string): void {
    this.#sandboxRedirect = uri
  }

  /** Starts a flow; answers its id and how it opens. */
  async start(input: WalletStartInput): Promise<WalletStarted> {
    this.#ensureIdle()
    const profile = this.#options.profile()
    if (walletNeedsConfirmation(profile.summary.kind) && !input.confirmed) {
      throw new AppError(
        'invalid_argument',
        'This is a production account: confirm the wallet link before it opens.',
      )
    }
    const refUserId = input.refUserId.trim()
    if (refUserId === '') throw new AppError('invalid_argument', 'The member ID is empty.')
    let guaranteeIdx: number | null = null
    let token = ''
    if (input.flow === 'sync') {
      if (input.guaranteeIdx === undefined) {
        throw new AppError('invalid_argument', 'A sync needs the guarantee number (idx).')
      }
      guaranteeIdx = input.guaranteeIdx
      token =
        input.token?.trim() ||
        ((await this.#options.store().call('storedGuaranteeToken', guaranteeIdx)) ?? '')
      if (token === '') {
        throw new AppError(
          'invalid_argument',
          `No guaranteeToken is stored for guarantee ${guaranteeIdx}; paste the token.`,
          { reason: 'no_guarantee_token', values: { idx: guaranteeIdx } },
        )
      }
    }
    const { apiKey } = await profile.credentials()
    // Another start may have won while the keychain answered: still one flow at a time.
    this.#ensureIdle()
    const sandboxReturn = profile.summary.kind === 'sandbox' ? this.#sandboxRedirect : null
    const redirectUri = sandboxReturn ?? profile.redirectUri
    const target = { baseUrl: profile.summary.baseUrl, partnerId: profile.summary.partnerId }
    const url =
      input.flow === 'sync'
        ? syncUrl(target, apiKey, refUserId, guaranteeIdx ?? 0, token, redirectUri)
        : preSyncUrl(target, apiKey, refUserId, redirectUri)
    const allowedOrigins = [
      profile.summary.baseUrl,
      ...(profile.staticUrl ? [profile.staticUrl] : []),
    ]
    const machine = new WalletFlowMachine({ allowedOrigins, redirectUri })

    const id = randomUUID()
    const startedAt = this.#options.now()
    const timeout = this.#options.timeoutMs()
    let settle: (end: WalletEnd) => void = () => undefined
    const ended = new Promise<WalletEnd>((resolve) => {
      settle = resolve
    })
    const handle: WalletFlowHandle = {
      id,
      url,
      title: WALLET_WINDOW_TITLE,
      partition: `wallet-${id}`,
      allowedOrigins,
      feed: (event) => this.#feed(id, event),
      ended,
    }
    const started: WalletStarted = {
      flowId: id,
      opener: this.#host ? 'window' : 'popup',
      flow: input.flow,
      refUserId,
      guaranteeIdx,
      startedAt: startedAt.toISOString(),
      deadline: new Date(startedAt.getTime() + timeout).toISOString(),
    }
    const timer = setTimeout(() => this.#feed(id, { type: 'timeout' }), timeout)
    timer.unref()
    this.#current = {
      handle,
      machine,
      started,
      timer,
      settle,
      popupUrl: this.#host ? null : url,
    }
    // The member id stays out of the log: a flow id and its kind are enough to follow it.
    this.#options.log(`[wallet] ${id} ${input.flow} started`)
    // Started with no page of the app open (a script, not staff): it ends as closed too.
    this.#watchPageGone()
    try {
      this.#host?.open(handle)
    } catch (error) {
      this.#options.log(`[wallet] ${id} window failed: ${this.#options.redact(String(error))}`)
      this.#feed(id, { type: 'load-failed', code: -2 })
    }
    return started
  }

  /**
   * Web host: the number of the app's pages connected now (its event
   * streams). A popup flow whose pages are all gone (the tab was closed)
   * ends as closed once none came back within {@link PAGE_GONE_GRACE_MS},
   * rather than at its ten-minute timeout.
   */
  pagesChanged(count: number): void {
    this.#pages = count
    if (count > 0) this.#clearPageGone()
    else this.#watchPageGone()
  }

  #watchPageGone(): void {
    const current = this.#current
    if (!current || current.started.opener !== 'popup' || this.#pages !== 0) return
    if (this.#pageGoneTimer !== null) return
    const flowId = current.handle.id
    this.#pageGoneTimer = setTimeout(() => {
      this.#pageGoneTimer = null
      if (this.#pages === 0) this.#feed(flowId, { type: 'closed' })
    }, PAGE_GONE_GRACE_MS)
    this.#pageGoneTimer.unref()
  }

  #clearPageGone(): void {
    if (this.#pageGoneTimer !== null) clearTimeout(this.#pageGoneTimer)
    this.#pageGoneTimer = null
  }

  /** Ends the running flow `flowId` as cancelled (staff pressed Cancel, or the popup was closed). */
  cancel(flowId: string, closed = false): boolean {
    if (this.#current?.handle.id !== flowId) return false
    this.#feed(flowId, { type: closed ? 'closed' : 'cancel' })
    return true
  }

  /** Ends whatever flow runs (profile switch, app closing). */
  cancelAll(): void {
    if (this.#current) this.#feed(this.#current.handle.id, { type: 'cancel' })
  }

  /** The running flow, if any (no URL). */
  running(): WalletStarted | null {
    return this.#current?.started ?? null
  }

  /** Feeds an event to flow `flowId`; a flow that is not running denies everything. */
  feed(flowId: string, event: WalletEvent): WalletVerdict {
    return this.#feed(flowId, event)
  }

  /**
   * Web host: the popup's address for flow `flowId`, handed out once (the
   * opener route redirects the popup there); null for an unknown, ended or
   * already-opened flow.
   */
  takePopupUrl(flowId: string): string | null {
    const current = this.#current
    if (current?.handle.id !== flowId || current.popupUrl === null) return null
    const url = current.popupUrl
    current.popupUrl = null
    return url
  }

  /**
   * Web host: the return page was reached at `url`; fed to the running flow
   * as a redirect. Answers the flow's outcome, or null when no flow was running.
   */
  feedReturn(url: string): WalletVerdict | null {
    const current = this.#current
    if (!current) return null
    return this.#feed(current.handle.id, { type: 'navigate', url, via: 'redirect' })
  }

  /** The profile's past flows, newest first. */
  history(filter: WalletHistoryFilter): Promise<WalletHistoryPage> {
    return this.#options.store().call('queryWalletLinks', filter)
  }

  #ensureIdle(): void {
    if (this.#current) {
      throw new AppError(
        'invalid_argument',
        'A wallet link is already open. Finish or cancel it before starting another.',
      )
    }
  }

  #feed(flowId: string, event: WalletEvent): WalletVerdict {
    const current = this.#current
    if (current?.handle.id !== flowId) return { action: 'deny' }
    const verdict = current.machine.handle(event)
    if (verdict.ended) this.#finish(current, verdict.ended)
    return verdict
  }

  #finish(flow: RunningFlow, end: WalletEnd): void {
    clearTimeout(flow.timer)
    this.#clearPageGone()
    this.#current = null
    const endedAt = this.#options.now().toISOString()
    const params = Object.fromEntries(
      Object.entries(end.params).map(([key, value]) => [key, this.#options.redact(value)]),
    )
    const reason = end.reason === null ? null : this.#options.redact(end.reason)
    const detail =
      end.outcome === 'completed'
        ? Object.entries(params)
            .map(([key, value]) => `${key}=${value}`)
            .join(', ') || null
        : reason
    const { started } = flow
    const saved = this.#options.store().call('insertWalletLink', {
      flow: started.flow,
      refUserId: started.refUserId,
      guaranteeIdx: started.guaranteeIdx,
      outcome: end.outcome,
      detail,
      startedAt: started.startedAt,
      endedAt,
    })
    saved.catch((error: unknown) => {
      this.#options.log(
        `[wallet] ${started.flowId} history not saved: ${this.#options.redact(String(error))}`,
      )
    })
    const outcome: WalletOutcome = {
      flowId: started.flowId,
      flow: started.flow,
      refUserId: started.refUserId,
      guaranteeIdx: started.guaranteeIdx,
      outcome: end.outcome,
      reason,
      params,
      startedAt: started.startedAt,
      endedAt,
    }
    this.#options.log(
      `[wallet] ${started.flowId} ${started.flow} ended ${end.outcome}${reason ? ` (${reason})` : ''}`,
    )
    flow.settle({ outcome: end.outcome, reason, params })
    this.#options.events.emit('wallet.outcome', outcome)
  }
}
