/**
 * Pure decisions behind the Electron shell's security handlers, kept here so
 * they are tested without Electron. See
 * https://www.electronjs.org/docs/latest/tutorial/security
 */

/** The minimal view of a frame that sent an IPC message (Electron's `WebFrameMain`). */
export interface SenderFrame {
  readonly url: string
  /** The parent frame, or null for a top-level frame. */
  readonly parent: unknown
}

/** The privileged scheme the built renderer is served from (`src/main/app-protocol.ts`). */
export const APP_SCHEME = 'app'
/** The one host of {@link APP_SCHEME}: `app://renderer/…` is `out/renderer/…`. */
export const APP_HOST = 'renderer'
/**
 * The app's page.
 * @internal
 */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Describes where the app's own pages live: `app://renderer/index.html`
 * (the built files), or, in an unpackaged development run only, the dev server.
 */
export interface AppOrigin {
  /** `http://localhost:5173`-style origin of the dev server (development only). */
  readonly devServerOrigin?: string
}

/**
 * Where the window loads the app from. `ELECTRON_RENDERER_URL` (electron-vite's
 * dev server) is honoured only in an unpackaged run and only when it names a
 * loopback http(s) origin: a packaged app given that variable would otherwise
 * load any origin with the preload and trust it as an IPC sender.
 */
export function appOriginFor(run: {
  readonly isPackaged: boolean
  readonly rendererUrl: string | undefined
}): AppOrigin {
  if (run.isPackaged || !run.rendererUrl) return {}
  const parsed = parseUrl(run.rendererUrl)
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return {}
  if (!['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) return {}
  return { devServerOrigin: parsed.origin }
}

/** The address the main window loads. */
export function appEntryUrl(origin: AppOrigin): string {
  return origin.devServerOrigin ? `${origin.devServerOrigin}/` : APP_INDEX_URL
}

/**
 * True when `url` is one of the app's own pages: `app://renderer/index.html`
 * (any fragment), or the dev server's origin in development. `..` and
 * `%2e%2e` are resolved by the URL parser before the comparison. No `file:`
 * URL is ever an app page: the renderer is not loaded from the file scheme,
 * so a CSP `'self'` never covers the whole disk.
 */
export function isAppUrl(url: string, origin: AppOrigin): boolean {
  const parsed = parseUrl(url)
  if (!parsed) return false
  if (origin.devServerOrigin) {
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.origin === new URL(origin.devServerOrigin).origin
    )
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    (parsed.pathname === '/index.html' || parsed.pathname === '/')
  )
}

/**
 * Only the app's own top-level frame may call IPC: never a subframe, the
 * wallet-link window (which has no preload anyway), or a page that navigated
 * away. https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, origin: AppOrigin): boolean {
  if (!frame) return false
  if (frame.parent !== null) return false
  return isAppUrl(frame.url, origin)
}

/**
 * The app's documentation host: the domain of the project's support address
 * (electron-builder.yml). Links to it may be opened in the system browser,
 * after asking, like the active profile's service hosts.
 */
export const APP_DOCS_ORIGIN = 'https://appraisaldesk.example'

/** Why a link was not handed to the system browser. */
type LinkRefusal = 'not_url' | 'scheme' | 'credentials' | 'host'

/**
 * What to do with a link a page wants opened outside the app (a click on a
 * `target=_blank` link or `window.open`, from the app window or a wallet
 * page): `allow` opens it in the system browser, `ask` opens it only after
 * the user agreed to the named host, `refuse` never opens it. `host` is the
 * URL parser's ASCII form (an IDN shows as `xn--…`), so a homograph cannot
 * pass for the real host in the question.
 */
export type LinkDecision =
  | { readonly action: 'allow' | 'ask'; readonly url: string; readonly host: string }
  | { readonly action: 'refuse'; readonly reason: LinkRefusal; readonly host?: string }

/** The origins links may go to, and the ones the user already agreed to this session. */
export interface LinkAllowlist {
  /** `https://host[:port]` origins: the active profile's service origins and {@link APP_DOCS_ORIGIN}. */
  readonly origins: readonly string[]
  /** Origins the user said "open, and don't ask again" for, until the app quits. */
  readonly confirmed?: ReadonlySet<string>
}

/**
 * Decides whether a link may go to the system browser: `https:` only, no
 * user name or password in it (`https://good.example@evil.test` is a link to
 * evil.test), and only to an allowlisted origin, compared exactly (scheme,
 * host and port) so look-alike hosts, other ports and punycode homographs
 * are refused. `shell.openExternal` hands a URL to the OS, where `smb:`,
 * `file:` or `ms-msdt:` can run code
 * (https://www.electronjs.org/docs/latest/tutorial/security, "Do not use
 * shell.openExternal with untrusted content";
 * https://benjamin-altpeter.de/shell-openexternal-dangers/).
 * Every `setWindowOpenHandler` (app window and wallet pages alike) still answers `deny`: never a new BrowserWindow.
 */
export function decideExternalLink(url: string, allowlist: LinkAllowlist): LinkDecision {
  const parsed = parseUrl(url)
  if (!parsed) return { action: 'refuse', reason: 'not_url' }
  const host = parsed.host === '' ? undefined : parsed.host
  const refuse = (reason: LinkRefusal): LinkDecision =>
    host === undefined ? { action: 'refuse', reason } : { action: 'refuse', reason, host }
  if (parsed.protocol !== 'https:') return refuse('scheme')
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials')
  const allowed = new Set(allowlist.origins.map(httpsOrigin).filter((o) => o !== null))
  if (!allowed.has(parsed.origin)) return refuse('host')
  const action = allowlist.confirmed?.has(parsed.origin) ? 'allow' : 'ask'
  return { action, url: parsed.href, host: parsed.host }
}

/** The allowlist's origin for a profile address, or null when it is not an https URL. */
function httpsOrigin(address: string): string | null {
  const parsed = parseUrl(address)
  return parsed?.protocol === 'https:' ? parsed.origin : null
}

/**
 * The origins links may go to while `profile` is active: its service and
 * image hosts when they are https (the sandbox's loopback ones are not), and
 * the app's documentation host.
 */
export function linkOrigins(profile: {
  readonly baseUrl: string
  readonly staticUrl?: string
}): string[] {
  const candidates = [APP_DOCS_ORIGIN, profile.baseUrl, profile.staticUrl ?? '']
  return [...new Set(candidates.map(httpsOrigin).filter((origin) => origin !== null))]
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * The main window's Content-Security-Policy: no remote script, no eval,
 * images only from the app and `card:`. The page is served from
 * `app://renderer`, so `'self'` is that origin only (never the file scheme).
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' card: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')
