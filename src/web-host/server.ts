import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { EventBus } from '../core/events'
import { cardHeaders, type CardResponse } from '../core/images/image-cache'
import type { Router } from '../core/router'
import { MAX_ARGS_BYTES, OVERSIZE_ARGS_MESSAGE } from '../core/router'
import { APP_CSP } from '../core/security/policy'
import { rendererMime, resolveRendererFile } from '../core/security/renderer-files'
import { LOOPBACK_HOSTS } from '../shared/profile-schemas'
import type { WalletService } from '../core/wallet/wallet-service'
import { handleWalletPopup } from './wallet-popup'

/**
 * The web host: the built renderer served to an ordinary browser, and the
 * core router carried over HTTP. It is a development and test tool, bound to
 * loopback only, and never part of the packaged app.
 *
 * Defences (docs/faults.md F43–F48): a per-launch token compared in constant
 * time, which a browser started by `npm start` never sees on its command
 * line (it gets a one-time code, {@link WebHost.openUrl}, that the page
 * exchanges at `POST /session`); a Host allowlist against DNS rebinding; Origin checked on every
 * request; no CORS at all (preflights are refused); state changes only by
 * `POST` with `application/json`; static files only from the renderer folder.
 * Card images, which `<img>` loads without the token header, need a cookie
 * the host sets only on answers to token holders.
 */
export interface WebHostOptions {
  readonly router: Router
  readonly events: EventBus
  /** The built renderer (`out/renderer`). */
  readonly rendererDir: string
  readonly port?: number
  /** Must be 127.0.0.1: the host refuses to listen anywhere else. */
  readonly bindAddress?: string
  /** Fixed token for tests; random per launch otherwise. */
  readonly token?: string
  /** The card-image cache behind `GET /card/…` (the same resolver as Electron's `card:`). */
  readonly cards?: { serve(path: string, signal?: AbortSignal): Promise<CardResponse> }
  /** Wallet-link flows, run in a browser popup (`wallet-popup.ts`). */
  readonly wallet?: WalletService
  /** The clock of one-time codes' deadlines (tests move it). */
  readonly now?: () => number
}

/** A running web host. */
export interface WebHost {
  readonly port: number
  readonly token: string
  /** `http://127.0.0.1:PORT/#token=TOKEN`: the page reads the token from the fragment. */
  readonly url: string
  /**
   * `http://127.0.0.1:PORT/#code=CODE` with a new one-time code (valid
   * {@link CODE_LIFETIME_MS}, one exchange): the address another program
   * (the browser `npm start` opens) may carry on its command line, where
   * other local users can read it. The page exchanges the code for the
   * token at once; a code read later is worth nothing.
   */
  openUrl(): string
  readonly server: Server
  close(): Promise<void>
}

/**
 * How long a one-time code of {@link WebHost.openUrl} can be exchanged.
 * @internal
 */
export const CODE_LIFETIME_MS = 60_000

/** Files the build names by content hash (`/assets/index-D03wygt0.js`), never changed in place. */
const HASHED_ASSET = /^\/assets\/[^/]+-[\w-]{8}\.[a-z0-9]+$/
const IMMUTABLE = 'public, max-age=31536000, immutable'

const SECURITY_HEADERS = {
  'Content-Security-Policy': APP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const

/** Starts the web host on 127.0.0.1. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const bindAddress = options.bindAddress ?? '127.0.0.1'
  if (bindAddress !== '127.0.0.1') {
    throw new Error(`The web host listens on 127.0.0.1 only (asked for ${bindAddress}).`)
  }
  const token = options.token ?? randomBytes(32).toString('base64url')
  const tokenBytes = Buffer.from(token)
  // A second secret for `<img>` requests: an HttpOnly, SameSite=Strict cookie
  // scoped to /card/, handed out with answers to token holders only.
  const cardKey = Buffer.from(randomBytes(32).toString('base64url'))
  const rendererDir = resolve(options.rendererDir)
  let port = 0
  const streams = new Set<ServerResponse>()
  /** One-time codes by their SHA-256 (a lookup reveals nothing of a code), with their deadline. */
  const codes = new Map<string, number>()
  const now = options.now ?? Date.now
  const codeKey = (code: string) => createHash('sha256').update(code).digest('hex')

  const allowedHosts = (): Set<string> =>
    new Set([...LOOPBACK_HOSTS].map((host) => `${host}:${port}`))
  const allowedOrigins = (): Set<string> =>
    new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`])

  function tokenOk(req: IncomingMessage): boolean {
    return sameSecret(req.headers['x-app-token'], tokenBytes)
  }

  /** Cookies are not isolated by port, so the name carries it (two hosts never clash). */
  const cardCookieName = () => `ad_card_${port}`
  const cardCookie = () =>
    `${cardCookieName()}=${cardKey.toString()}; HttpOnly; SameSite=Strict; Path=/card/`

  function cardCookieOk(req: IncomingMessage): boolean {
    const prefix = `${cardCookieName()}=`
    const value = (req.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(prefix))
    return sameSecret(value?.slice(prefix.length), cardKey)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().has(req.headers.host ?? '')) return deny(res, 403, 'Forbidden host.')
    const origin = req.headers.origin
    if (origin !== undefined && !allowedOrigins().has(origin))
      return deny(res, 403, 'Forbidden origin.')
    if (req.method === 'OPTIONS') return deny(res, 403, 'Cross-origin requests are not allowed.')

    const path = (req.url ?? '/').split('?')[0] ?? '/'
    if (path === '/session') return handleSession(req, res)
    if (path.startsWith('/ipc/')) return handleIpc(req, res, path.slice('/ipc/'.length))
    if (path === '/events') return handleEvents(req, res)
    if (path.startsWith('/card/')) return handleCard(req, res, path.slice('/card'.length))
    if (options.wallet && (await handleWalletPopup(options.wallet, req, res, path))) return
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed.')
    return serveStatic(res, path, req.method === 'HEAD', req.headers['if-none-match'])
  }

  /**
   * A one-time code for the token: `POST /session` with `{"code": "…"}`
   * answers `{"token": "…"}` once; an unknown, used or expired code gets 401.
   */
  async function handleSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return deny(res, 405, 'Use POST.')
    const type = req.headers['content-type'] ?? ''
    if (!/^application\/json\b/i.test(type))
      return deny(res, 415, 'Content-Type must be application/json.')
    const body = await readBody(req, 1024)
    let code: unknown
    try {
      code = body === null ? null : (JSON.parse(body) as { code?: unknown }).code
    } catch {
      code = null
    }
    for (const [key, deadline] of codes) if (deadline <= now()) codes.delete(key)
    const key = typeof code === 'string' ? codeKey(code) : ''
    if (!codes.has(key)) return deny(res, 401, 'Unknown, used or expired code.')
    codes.delete(key)
    sendJson(res, 200, { token }, { 'Set-Cookie': cardCookie() })
  }

  async function handleIpc(
    req: IncomingMessage,
    res: ServerResponse,
    rawChannel: string,
  ): Promise<void> {
    if (req.method !== 'POST') return deny(res, 405, 'Use POST.')
    if (!tokenOk(req)) return deny(res, 401, 'Missing or wrong token.')
    const type = req.headers['content-type'] ?? ''
    if (!/^application\/json\b/i.test(type))
      return deny(res, 415, 'Content-Type must be application/json.')
    const declared = Number(req.headers['content-length'] ?? 0)
    const body = declared > MAX_ARGS_BYTES ? null : await readBody(req, MAX_ARGS_BYTES)
    if (body === null) {
      // Answered at once; the rest of the body is read and dropped so the
      // client gets this answer, not a reset connection.
      drain(req, MAX_DRAIN_BYTES)
      return sendJson(res, 413, {
        ok: false,
        error: { code: 'invalid_argument', message: OVERSIZE_ARGS_MESSAGE },
      })
    }
    let args: unknown
    try {
      args = body.length === 0 ? {} : (JSON.parse(body) as unknown)
    } catch {
      return sendJson(res, 400, {
        ok: false,
        error: { code: 'invalid_argument', message: 'Body is not valid JSON.' },
      })
    }
    let channel: string
    try {
      channel = decodeURIComponent(rawChannel)
    } catch {
      channel = ''
    }
    const result = await options.router.dispatch(channel, args)
    sendJson(res, 200, result, { 'Set-Cookie': cardCookie() })
  }

  /**
   * Card images for `<img src>`, which cannot send the token: the Host and
   * Origin checks above apply, `Sec-Fetch-Site` must say same-origin when the
   * browser sends it, and `Cross-Origin-Resource-Policy: same-origin` keeps
   * other sites from embedding the answer.
   */
  async function handleCard(
    req: IncomingMessage,
    res: ServerResponse,
    cardPath: string,
  ): Promise<void> {
    if (req.method !== 'GET') return deny(res, 405, 'Use GET.')
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return deny(res, 403, 'Cross-site image requests are not allowed.')
    }
    if (!cardCookieOk(req)) return deny(res, 401, 'Missing or wrong card cookie.')
    if (!options.cards) return deny(res, 404, 'Not found.')
    const answer = await options.cards.serve(cardPath)
    if (!answer.ok) return deny(res, answer.status, answer.code)
    let data: Buffer
    try {
      data = await readFile(answer.image.file)
    } catch {
      return deny(res, 404, 'not_found')
    }
    res.writeHead(200, { ...SECURITY_HEADERS, ...cardHeaders(answer.image) })
    res.end(data)
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return deny(res, 405, 'Use GET.')
    if (!tokenOk(req)) return deny(res, 401, 'Missing or wrong token.')
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'Set-Cookie': cardCookie(),
    })
    res.write(': connected\n\n')
    streams.add(res)
    options.wallet?.pagesChanged(streams.size)
    req.on('close', () => {
      streams.delete(res)
      // The app's last page gone (its tab closed): a wallet flow it opened does not wait ten minutes.
      options.wallet?.pagesChanged(streams.size)
    })
  }

  /**
   * A renderer file. The build names every file under `assets/` after a hash
   * of its content, so those are cached for good: a reload takes the bundle,
   * styles and fonts from the browser's cache at once, as Electron reads them
   * from disk, instead of asking again for each (a font that arrives late lays
   * the page out again). Anything else (the page itself) is asked for on every
   * load (`no-cache`), and the ETag lets the answer be an empty 304 when it is
   * unchanged.
   */
  async function serveStatic(
    res: ServerResponse,
    rawPath: string,
    headOnly: boolean,
    ifNoneMatch: string | undefined,
  ): Promise<void> {
    const file = await resolveRendererFile(rendererDir, rawPath)
    if (!file) return deny(res, 404, 'Not found.')
    try {
      const info = await stat(file)
      if (!info.isFile()) return deny(res, 404, 'Not found.')
      const etag = `"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}"`
      const headers = {
        ...SECURITY_HEADERS,
        'Content-Type': rendererMime(file),
        'Cache-Control': HASHED_ASSET.test(rawPath) ? IMMUTABLE : 'no-cache',
        ETag: etag,
      }
      if (ifNoneMatch !== undefined && ifNoneMatch.split(/\s*,\s*/).includes(etag)) {
        res.writeHead(304, headers)
        res.end()
        return
      }
      const data = await readFile(file)
      res.writeHead(200, { ...headers, 'Content-Length': data.length })
      res.end(headOnly ? undefined : data)
    } catch {
      deny(res, 404, 'Not found.')
    }
  }

  const unsubscribe = options.events.subscribe((event, payload) => {
    const line = `data: ${JSON.stringify({ event, payload })}\n\n`
    for (const stream of streams) stream.write(line)
  })

  const server = createServer((req, res) => {
    handle(req, res).catch(() => deny(res, 500, 'Internal error.'))
  })
  port = await new Promise<number>((resolvePort, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, bindAddress, () => {
      server.off('error', reject)
      resolvePort((server.address() as AddressInfo).port)
    })
  })

  // The Sandbox profile's flows end on this host's return page (see wallet-popup.ts).
  options.wallet?.useSandboxReturnPage(`http://127.0.0.1:${port}/wallet/return`)

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    server,
    openUrl() {
      const code = randomBytes(32).toString('base64url')
      codes.set(codeKey(code), now() + CODE_LIFETIME_MS)
      return `http://127.0.0.1:${port}/#code=${code}`
    },
    async close() {
      unsubscribe()
      for (const stream of streams) stream.end()
      await new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      })
    },
  }
}

function deny(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' })
  res.end(message)
}

/** Constant-time comparison of a header value with a secret. */
function sameSecret(given: string | string[] | undefined, secret: Buffer): boolean {
  if (typeof given !== 'string') return false
  const bytes = Buffer.from(given)
  return bytes.length === secret.length && timingSafeEqual(bytes, secret)
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  })
  res.end(text)
}

/** Past this many bytes of an oversized body the connection is closed instead of drained. */
const MAX_DRAIN_BYTES = 256 * 1024 * 1024

/**
 * Reads a request body up to `limit` bytes: its text, or null as soon as it
 * goes past the limit (without waiting for the rest). Rejects when the
 * client aborts.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      req.off('data', onData)
      req.off('end', onEnd)
      resolveBody(null)
    }
    const onEnd = () => resolveBody(Buffer.concat(chunks).toString('utf8'))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })
}

/** Reads and drops the rest of a refused body; a body past `cap` closes the connection. */
function drain(req: IncomingMessage, cap: number): void {
  let size = 0
  req.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size > cap) req.destroy()
  })
  req.on('error', () => undefined)
  req.resume()
}
