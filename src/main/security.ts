import { app, type Session, type WebContents } from 'electron'
import { APP_CSP, isAppUrl, type AppOrigin } from '../core/security/policy'

/** Only the scheme, host and port of an address (its path may carry a key). */
function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return '(not an address)'
  }
}

/**
 * App-wide security defaults, installed before any window exists:
 * navigation and new windows denied except the app's own pages (links a
 * page wants opened go to `openLink`, which asks before the system browser
 * opens an allowlisted https link), every permission request denied,
 * the CSP header on every response of the app's session, no download
 * (the app never downloads: exports are written by main after a save
 * dialog, `saveWithDialog` in `index.ts`), and no client certificate handed
 * to any site (Electron would otherwise pick the first matching one without
 * asking, https://www.electronjs.org/docs/latest/api/app#event-select-client-certificate),
 * and every certificate error refused and logged
 * (https://www.electronjs.org/docs/latest/api/app#event-certificate-error).
 * https://www.electronjs.org/docs/latest/tutorial/security
 */
export function installSecurityDefaults(
  session: Session,
  origin: AppOrigin,
  openLink: (url: string) => unknown,
  /** Wallet windows: their own flow decides their navigation (`wallet-window.ts`). */
  ownGuard: (contents: WebContents) => boolean = () => false,
  log: (message: string) => void = (message) => console.warn(message),
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.on('will-download', (event, item) => {
    event.preventDefault()
    item.cancel()
  })
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [APP_CSP],
        'X-Content-Type-Options': ['nosniff'],
      },
    })
  })

  app.on('select-client-certificate', (event, _contents, _url, _list, callback) => {
    event.preventDefault()
    callback()
  })

  // A certificate Chromium does not trust is refused, and said so in the log: no page, no
  // flag and no later change may answer `true` here.
  app.on('certificate-error', (event, _contents, url, error, _certificate, callback) => {
    event.preventDefault()
    callback(false)
    log(`[security] refused an untrusted certificate for ${originOf(url)}: ${error}`)
  })

  app.on('web-contents-created', (_event, contents) => {
    if (ownGuard(contents)) return
    contents.on('will-navigate', (navigation) => {
      if (!isAppUrl(navigation.url, origin)) navigation.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      void openLink(url)
      return { action: 'deny' }
    })
  })
}
