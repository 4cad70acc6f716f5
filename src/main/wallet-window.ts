import type { BrowserWindow, BrowserWindowConstructorOptions, Session, WebContents } from 'electron'
import type { WalletVerdict } from '../core/wallet/flow-machine'
import type { WalletFlowHandle, WalletWindowHost } from '../core/wallet/wallet-service'

/**
 * The wallet-link window: the Electron half of a flow. Every decision is the
 * core state machine's; this module only carries the window's events to it
 * and applies its answers. Typed against Electron's own
 * `.d.ts` and given its parts, so it is unit-tested with fakes in plain Node.
 *
 * The window loads a remote page holding the API key in its address, so:
 * no preload, `sandbox`, `contextIsolation`, no Node, and a fresh in-memory
 * partition per flow (no `persist:` prefix, so nothing is written to disk;
 * https://www.electronjs.org/docs/latest/api/session#sessionfrompartitionpartition-options),
 * cleared when the flow ends. The title is ours and stays ours.
 */

/**
 * What the window needs of a session.
 * @internal
 */
export type WalletSession = Pick<
  Session,
  | 'setPermissionRequestHandler'
  | 'setPermissionCheckHandler'
  | 'setDevicePermissionHandler'
  | 'on'
  | 'clearData'
  | 'clearCache'
> & { readonly webRequest: Pick<Session['webRequest'], 'onBeforeRequest'> }
/** What the window needs of its web contents. */
type WalletContents = Pick<
  WebContents,
  'on' | 'setWindowOpenHandler' | 'loadURL' | 'setWebRTCIPHandlingPolicy'
>
/**
 * What the flow needs of a window.
 * @internal
 */
export type WalletWindow = Pick<BrowserWindow, 'on' | 'setTitle' | 'close' | 'isDestroyed'> & {
  readonly webContents: WalletContents
}

/** Electron's parts, injected (the real ones in `index.ts`, fakes in tests). */
export interface WalletWindowDeps {
  /** `session.fromPartition`. */
  readonly session: (partition: string) => WalletSession
  /** Electron's `BrowserWindow` class (a fake in tests). */
  readonly BrowserWindow: new (options: BrowserWindowConstructorOptions) => WalletWindow
  /** The window it opens over (the main window), when there is one. */
  readonly parent?: () => BrowserWindow | null
  readonly log?: (message: string) => void
}

/** Sessions of wallet windows: the app-wide navigation guard leaves them to their flow. */
const walletSessions = new WeakSet<object>()

/** True for a wallet window's session (whose navigation its flow decides). */
export function isWalletSession(session: object): boolean {
  return walletSessions.has(session)
}

/**
 * Whether the flow's page may send a request to `url`: only to the service's
 * own origins (and `data:`/`blob:`, which stay on the machine). The page's
 * address holds the API key, so a script on it could otherwise send
 * `location.href` anywhere by fetch, image, beacon or WebSocket; navigations
 * are also fed to the flow first (`will-navigate`), which ends it `blocked`.
 */
function walletRequestAllowed(url: string, allowedOrigins: readonly string[]): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return true
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false
  if (parsed.username !== '' || parsed.password !== '') return false
  return allowedOrigins.some((origin) => {
    try {
      return new URL(origin).origin === parsed.origin
    } catch {
      return false
    }
  })
}

/**
 * Opens one flow's window and wires it to the flow.
 * @internal
 */
export function openWalletWindow(flow: WalletFlowHandle, deps: WalletWindowDeps): WalletWindow {
  const session = deps.session(flow.partition)
  walletSessions.add(session)
  // Every permission (camera, notifications, geolocation, clipboard, HID/USB/serial…) is refused.
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler(() => false)
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = walletRequestAllowed(details.url, flow.allowedOrigins)
    if (!allowed)
      deps.log?.(`[wallet] refused a request of the flow's page (${details.resourceType})`)
    callback({ cancel: !allowed })
  })
  session.on('will-download', (event, item) => {
    event.preventDefault()
    item.cancel()
  })

  // Written out here, in the `new BrowserWindow` call, so Electronegativity reads every option.
  const { BrowserWindow } = deps
  const parent = deps.parent?.() ?? undefined
  const win = new BrowserWindow({
    width: 520,
    height: 760,
    title: flow.title,
    autoHideMenuBar: true,
    ...(parent ? { parent } : {}),
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      // Middle-click opens no window (every window.open is refused as well).
      disableBlinkFeatures: 'Auxclick',
      // The page's address holds the API key: no DevTools on this window, packaged or not.
      devTools: false,
      // The flow's own in-memory session.
      partition: flow.partition,
    },
  })
  const contents = win.webContents
  // WebRTC only through the proxy, never straight over UDP: a page script cannot learn the
  // computer's local or public addresses, nor send anything past the request filter that way.
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp')
  let closedByFlow = false

  const apply = (verdict: WalletVerdict, event?: { preventDefault(): void }): void => {
    if (verdict.action !== 'allow') event?.preventDefault()
  }
  contents.on('will-navigate', (event) => {
    apply(flow.feed({ type: 'navigate', url: event.url, via: 'navigate' }), event)
  })
  contents.on('will-redirect', (event) => {
    apply(flow.feed({ type: 'navigate', url: event.url, via: 'redirect' }), event)
  })
  contents.on('will-frame-navigate', (event) => {
    // The main frame is covered by will-navigate; this guards iframes.
    if (event.isMainFrame) return
    apply(flow.feed({ type: 'navigate', url: event.url, via: 'frame' }), event)
  })
  contents.setWindowOpenHandler(({ url }) => {
    // Never a new window: a same-origin target loads here, anything else is refused.
    const verdict = flow.feed({ type: 'navigate', url, via: 'open' })
    if (verdict.action === 'load-here') void contents.loadURL(url).catch(() => undefined)
    return { action: 'deny' }
  })
  contents.on('did-navigate', (_event, _url, httpResponseCode) => {
    flow.feed({ type: 'loaded', status: httpResponseCode })
  })
  contents.on('did-fail-load', (_event, errorCode, _description, _url, isMainFrame) => {
    if (isMainFrame) flow.feed({ type: 'load-failed', code: errorCode })
  })
  // HTTP authentication prompts are cancelled (callback without credentials).
  contents.on('login', (event, _details, _authInfo, callback) => {
    event.preventDefault()
    callback()
  })
  // The page's title could carry anything (even the address): ours stays.
  contents.on('page-title-updated', (event) => event.preventDefault())
  win.setTitle(flow.title)

  win.on('closed', () => {
    if (!closedByFlow) flow.feed({ type: 'closed' })
    void clear(session, deps.log)
  })
  void flow.ended.then(() => {
    closedByFlow = true
    if (!win.isDestroyed()) win.close()
    void clear(session, deps.log)
  })
  // A failure to load is reported by did-fail-load; nothing to add here.
  contents.loadURL(flow.url).catch(() => undefined)
  return win
}

/** Forgets everything the flow's page stored (cookies, storage, cache). */
async function clear(session: WalletSession, log?: (message: string) => void): Promise<void> {
  try {
    await session.clearData()
    await session.clearCache()
  } catch (error) {
    log?.(`[wallet] clearing the session failed: ${error instanceof Error ? error.name : 'error'}`)
  }
}

/** The flow service's window host for Electron. */
export function electronWalletHost(deps: WalletWindowDeps): WalletWindowHost {
  return { open: (flow) => void openWalletWindow(flow, deps) }
}
