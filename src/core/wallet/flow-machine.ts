import type { WalletOutcomeName } from '../../shared/wallet'

/**
 * The wallet-link flow as a pure state machine (docs/faults.md F37, F38, F42). The host
 * (Electron's window in `src/main`, the web host's popup routes) feeds it
 * what the window does; it answers whether to let that happen and, once, how
 * the flow ended. It holds no timer, no window and no URL with the key
 * beyond what it is shown; the flow service owns those.
 *
 * Matching is done on parsed `URL`s, never on string prefixes: a look-alike
 * host (`redirect.example.com.evil.test`), user info
 * (`redirect.example.com@evil.test`), another scheme or another port is a
 * different origin and never completes a flow.
 */

/** What the window did. */
export type WalletEvent =
  /**
   * The window wants to go to `url`: a link or script (`navigate`), a server
   * redirect (`redirect`), a subframe (`frame`) or `window.open` (`open`).
   */
  | { readonly type: 'navigate'; readonly url: string; readonly via: NavigationVia }
  /** The main frame finished navigating to a page with this HTTP status. */
  | { readonly type: 'loaded'; readonly status: number }
  /** The main frame could not load (a Chromium net error code, e.g. -105). */
  | { readonly type: 'load-failed'; readonly code: number }
  /** The user closed the window or the popup. */
  | { readonly type: 'closed' }
  /** Staff pressed Cancel in the app. */
  | { readonly type: 'cancel' }
  /** The flow's time ran out. */
  | { readonly type: 'timeout' }

/** Where a navigation comes from. */
export type NavigationVia = 'navigate' | 'redirect' | 'frame' | 'open'

/** How a flow ended: the outcome, a reason code or origin, and the redirect's query parameters. */
export interface WalletEnd {
  readonly outcome: WalletOutcomeName
  /**
   * `blocked`: the refused origin (`https://evil.test`, or the scheme such as
   * `data:`); `failed`: `http-<status>`, `tls`, `offline`, `unreachable`,
   * `refused` (the page refused to be shown) or `load-<code>`; `cancelled`:
   * `closed`, `staff` or `service` (the service reported a cancel); else null.
   */
  readonly reason: string | null
  readonly params: Readonly<Record<string, string>>
}

/** The machine's answer to one event. */
export interface WalletVerdict {
  /** `allow` the navigation, `deny` it, or load the `window.open` target in the same window. */
  readonly action: 'allow' | 'deny' | 'load-here'
  /** Set on the one event that ended the flow. */
  readonly ended?: WalletEnd
}

/** Where the flow may go and where it ends. */
export interface WalletPolicy {
  /** The service's origins (the profile's `baseUrl`, and its static host). */
  readonly allowedOrigins: readonly string[]
  /** The profile's `redirectUri`: a navigation there completes the flow. */
  readonly redirectUri: string
}

const ALLOW: WalletVerdict = { action: 'allow' }
const DENY: WalletVerdict = { action: 'deny' }

/** Parses an address, or null when it is not one. */
function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * True when `url` is `redirect` (same scheme, host, port and path; no user
 * info), whatever its query and fragment.
 */
function matchesRedirect(url: URL, redirect: URL): boolean {
  return (
    url.protocol === redirect.protocol &&
    url.host === redirect.host &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === redirect.pathname
  )
}

/** The origin to name in a `blocked` outcome: `scheme://host[:port]`, or the scheme alone. */
function originLabel(url: URL | null): string {
  if (!url) return 'invalid address'
  return url.origin === 'null' ? url.protocol : url.origin
}

/**
 * A Chromium net error (`did-fail-load`'s `errorCode`, see
 * https://source.chromium.org/chromium/chromium/src/+/main:net/base/net_error_list.h)
 * as a reason code the renderer turns into plain words.
 * @internal
 */
export function loadFailureReason(code: number): string {
  if (code <= -200 && code > -300) return 'tls'
  if (code === -27 || code === -20) return 'refused'
  if (code === -106 || code === -21) return 'offline'
  if ([-102, -105, -109, -118, -7, -100, -101, -104, -137, -324].includes(code)) {
    return 'unreachable'
  }
  return `load-${Math.abs(code)}`
}

/** One flow's state: running until exactly one ending event. */
export class WalletFlowMachine {
  readonly #origins: ReadonlySet<string>
  readonly #redirect: URL
  #end: WalletEnd | null = null

  constructor(policy: WalletPolicy) {
    const redirect = parse(policy.redirectUri)
    if (!redirect) throw new Error('redirectUri is not an address.')
    this.#redirect = redirect
    this.#origins = new Set(
      policy.allowedOrigins
        .map((origin) => parse(origin))
        .filter((url): url is URL => url !== null && /^https?:$/.test(url.protocol))
        .map((url) => url.origin),
    )
  }

  /** The ending, once the flow has one. */
  get end(): WalletEnd | null {
    return this.#end
  }

  /** Feeds one event; after the flow ended every navigation is denied and nothing ends it again. */
  handle(event: WalletEvent): WalletVerdict {
    if (this.#end) return DENY
    switch (event.type) {
      case 'navigate':
        return this.#navigate(event.url, event.via)
      case 'loaded':
        return event.status >= 400
          ? this.#finish({ outcome: 'failed', reason: `http-${event.status}`, params: {} }, ALLOW)
          : ALLOW
      case 'load-failed':
        // -3 (ERR_ABORTED) is a navigation this machine denied, or a new one replacing it.
        return event.code === -3
          ? ALLOW
          : this.#finish({ outcome: 'failed', reason: loadFailureReason(event.code), params: {} })
      case 'closed':
        return this.#finish({ outcome: 'cancelled', reason: 'closed', params: {} })
      case 'cancel':
        return this.#finish({ outcome: 'cancelled', reason: 'staff', params: {} })
      case 'timeout':
        return this.#finish({ outcome: 'timed_out', reason: null, params: {} })
    }
  }

  #navigate(raw: string, via: NavigationVia): WalletVerdict {
    const url = parse(raw)
    if (url && matchesRedirect(url, this.#redirect)) {
      // The redirect is intercepted, never loaded: the shop's page needs no visit.
      const params = Object.fromEntries(url.searchParams)
      const result = params['result']?.toLowerCase()
      const cancelled = result === 'cancel' || result === 'cancelled'
      return this.#finish({
        outcome: cancelled ? 'cancelled' : 'completed',
        reason: cancelled ? 'service' : null,
        params,
      })
    }
    const allowed = url !== null && this.#origins.has(url.origin)
    if (via === 'open') return allowed ? { action: 'load-here' } : DENY
    if (allowed) return ALLOW
    // A subframe going elsewhere is refused; the page itself stays usable.
    if (via === 'frame') return DENY
    return this.#finish({ outcome: 'blocked', reason: originLabel(url), params: {} })
  }

  #finish(end: WalletEnd, verdict: WalletVerdict = DENY): WalletVerdict {
    this.#end = end
    return { action: verdict.action, ended: end }
  }
}
