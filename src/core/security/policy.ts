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

/** Describes where the app's own pages live: the built files, or the dev server. */
export interface AppOrigin {
  /** `file:` URL of the built renderer's index.html (production and preview). */
  readonly indexFileUrl?: string
  /** `http://localhost:5173`-style origin of the dev server (development only). */
  readonly devServerOrigin?: string
}

/** True when `url` is one of the app's own pages. */
export function isAppUrl(url: string, origin: AppOrigin): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (origin.indexFileUrl && parsed.protocol === 'file:') {
    const index = new URL(origin.indexFileUrl)
    return parsed.pathname === index.pathname
  }
  if (origin.devServerOrigin && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    return parsed.origin === new URL(origin.devServerOrigin).origin
  }
  return false
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

/** Links the app may hand to the system browser: plain http(s) only, no credentials in the URL. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    const parsed = new URL(url)
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.username === '' &&
      parsed.password === ''
    )
  } catch {
    return false
  }
}

/** The main window's Content-Security-Policy: no remote script, no eval, images only from the app and `card:`. */
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
