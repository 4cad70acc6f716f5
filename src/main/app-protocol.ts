import type { CustomScheme, Protocol } from 'electron'
import { readFile } from 'node:fs/promises'
import { APP_CSP, APP_HOST, APP_SCHEME } from '../core/security/policy'
import { rendererMime, resolveRendererFile } from '../core/security/renderer-files'

/**
 * The app's own scheme: `app://renderer/…` serves the built renderer folder
 * and nothing else. Loading the page from `file://` would make the CSP's
 * `'self'` the whole file scheme; here `'self'` is `app://renderer` only.
 * https://www.electronjs.org/docs/latest/tutorial/security#18-avoid-usage-of-the-file-protocol-and-prefer-usage-of-custom-protocols
 */

/** The scheme the renderer loads card images from: `card://image/u/<base64url>` (`card-protocol.ts`). */
export const CARD_SCHEME = 'card'

/**
 * Both custom schemes, declared standard and secure (must be registered before `ready`).
 * @internal
 */
export const APP_SCHEMES: readonly CustomScheme[] = [
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
  { scheme: CARD_SCHEME, privileges: { standard: true, secure: true } },
]

/**
 * Registers the app's schemes as privileged. Electron keeps only the last
 * call's list, so both schemes are declared here, once.
 */
export function registerAppSchemes(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([...APP_SCHEMES])
}

const HEADERS = {
  'Content-Security-Policy': APP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
} as const

/**
 * Answers one `app:` request from `rendererDir`: GET or HEAD on host
 * `renderer`, a path that stays inside the folder once decoded and once
 * symbolic links are followed (`resolveRendererFile`); anything else is a 404.
 * @internal
 */
export async function serveAppRequest(rendererDir: string, request: Request): Promise<Response> {
  const notFound = () => new Response(null, { status: 404, headers: HEADERS })
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: HEADERS })
  }
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return notFound()
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound()
  const file = await resolveRendererFile(rendererDir, url.pathname)
  if (!file) return notFound()
  try {
    const data = await readFile(file)
    return new Response(request.method === 'HEAD' ? null : data, {
      headers: { ...HEADERS, 'Content-Type': rendererMime(file) },
    })
  } catch {
    return notFound()
  }
}

/** Serves `app:` from the built renderer folder (call after `ready`). */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(rendererDir, request))
}
