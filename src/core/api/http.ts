import { AppError } from '../app-error'
import { parseRetryAfter } from './retry'

/** The `fetch` the client is given: Electron's `net.fetch` in the app, Node's in tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** Options of one GET. */
export interface GetOptions {
  readonly headers?: Readonly<Record<string, string>>
  readonly signal?: AbortSignal
  /** Deadline of the whole request: headers and body (default {@link DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number
  /** Largest accepted body; larger answers fail with `too_large`. */
  readonly maxBytes?: number
  /** Clock for turning `Retry-After` into a time (injected in tests). */
  readonly now?: () => number
  /** Removes secrets from whatever of the service's answer goes into an error message. */
  readonly redact?: (text: string) => string
}

/** Default per-request deadline, headers and body together. */
export const DEFAULT_TIMEOUT_MS = 30_000
/** Default body cap for JSON answers. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024
/** Redirects followed before giving up (JSON calls and card images alike). */
const MAX_REDIRECTS = 3

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * One request's deadline, headers and body together: its signal (the
 * caller's cancel or the deadline) and how long the request has really taken,
 * so a timeout says what happened. {@link end} it once the answer is read:
 * its timer goes, and the caller's signal (a sync's walk, which sends a
 * thousand requests) no longer holds it (`AbortSignal.any` would keep every
 * request's signal tied to the walk's until the walk ended, then abort them
 * all at once on the main thread).
 */
export class RequestDeadline {
  readonly signal: AbortSignal
  readonly #started = performance.now()
  readonly #timer: ReturnType<typeof setTimeout>
  readonly #cancel: (() => void) | null = null

  constructor(
    readonly timeoutMs: number,
    readonly callerSignal?: AbortSignal,
  ) {
    const controller = new AbortController()
    this.signal = controller.signal
    this.#timer = setTimeout(
      () => controller.abort(new DOMException('The request timed out.', 'TimeoutError')),
      timeoutMs,
    )
    this.#timer.unref()
    if (callerSignal?.aborted) {
      controller.abort(callerSignal.reason)
    } else if (callerSignal) {
      const cancel = (): void => controller.abort(callerSignal.reason)
      callerSignal.addEventListener('abort', cancel, { once: true })
      this.#cancel = cancel
    }
  }

  /** Milliseconds since the request started. */
  elapsedMs(): number {
    return performance.now() - this.#started
  }

  /** The request is over (read, failed or given up): no timer, no tie to the caller's signal. */
  end(): void {
    clearTimeout(this.#timer)
    if (this.#cancel) this.callerSignal?.removeEventListener('abort', this.#cancel)
  }
}

/** How a redirect's target is judged: the URL to follow, or a thrown error. */
type RedirectCheck = (target: URL | null, status: number) => URL

/** Options of {@link fetchFollowingRedirects}. */
export interface FollowOptions {
  readonly deadline: RequestDeadline
  readonly headers: Readonly<Record<string, string>>
  /** Judges every hop before any request is sent there. */
  readonly checkRedirect: RedirectCheck
}

/**
 * One GET whose redirects are followed by hand (`redirect: 'manual'`), at
 * most {@link MAX_REDIRECTS} times, each hop judged by `checkRedirect` before
 * anything is sent there. fetch's own following would re-send the
 * credentials headers to wherever the service points
 * (https://fetch.spec.whatwg.org/#http-redirect-fetch). Used by the JSON
 * client and the card-image cache alike.
 */
export async function fetchFollowingRedirects(
  fetchFn: FetchLike,
  url: URL,
  options: FollowOptions,
): Promise<Response> {
  let current = url
  for (let hops = 0; ; hops += 1) {
    let response: Response
    try {
      response = await fetchFn(current.toString(), {
        method: 'GET',
        headers: options.headers,
        redirect: 'manual',
        // Never into the HTTP disk cache: partner answers carry customers' data, and the app's
        // own caches are the only copies "delete cache" has to find (docs/security.md).
        cache: 'no-store',
        signal: options.deadline.signal,
      })
    } catch (error) {
      throw classifyFetchError(error, options.deadline)
    }
    if (!REDIRECT_STATUSES.has(response.status)) return response
    await response.body?.cancel().catch(() => undefined)
    const next = options.checkRedirect(redirectTarget(response, current), response.status)
    if (hops + 1 > MAX_REDIRECTS) {
      throw new AppError(
        'bad_response',
        `The service redirected more than ${MAX_REDIRECTS} times.`,
        { status: response.status },
      )
    }
    current = next
  }
}

/**
 * Reads a body in chunks, failing with `too_large` past `maxBytes` (declared
 * or counted) without reading the rest, and with a typed error when the
 * stream breaks or the deadline passes. Each chunk goes to `onChunk`.
 */
export async function readCapped(
  response: Response,
  maxBytes: number,
  deadline: RequestDeadline,
  onChunk: (chunk: Uint8Array) => Promise<void> | void,
  tooLarge: () => AppError = () =>
    new AppError('too_large', `The answer is larger than ${Math.round(maxBytes / 1024)} KB.`),
): Promise<number> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (!response.body) return 0
  const reader = response.body.getReader()
  let total = 0
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>
      try {
        chunk = await reader.read()
      } catch (error) {
        throw classifyFetchError(error, deadline)
      }
      if (chunk.done) return total
      total += chunk.value.byteLength
      if (total > maxBytes) throw tooLarge()
      await onChunk(chunk.value)
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined)
    throw error
  }
}

/** A JSON answer as received: its bytes, not yet decoded nor parsed (see {@link parseJsonBody}). */
export interface JsonBody {
  readonly bytes: Uint8Array
  readonly contentType: string
  readonly status: number
}

/**
 * One GET of a JSON answer, with one deadline for headers and body, a body
 * cap, and typed errors.
 * Redirects are followed only within the request's own origin (scheme, host
 * and port): the credentials headers must never travel anywhere else,
 * including the same host over plain `http:` (docs/faults.md F18). A redirect
 * elsewhere fails without any request being sent there.
 *
 * It answers a successful JSON answer's bytes: the caller decodes and parses
 * them with {@link parseJsonBody}, here or elsewhere (a sync page, in a
 * worker thread).
 */
export async function getJsonBody(
  fetchFn: FetchLike,
  url: string,
  options: GetOptions = {},
): Promise<JsonBody> {
  const deadline = new RequestDeadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal)
  try {
    return await readJsonBody(fetchFn, url, options, deadline)
  } finally {
    deadline.end()
  }
}

async function readJsonBody(
  fetchFn: FetchLike,
  url: string,
  options: GetOptions,
  deadline: RequestDeadline,
): Promise<JsonBody> {
  const origin = new URL(url).origin
  const response = await fetchFollowingRedirects(fetchFn, new URL(url), {
    deadline,
    headers: { Accept: 'application/json', ...options.headers },
    checkRedirect: (next, status) => {
      if (next === null || next.origin !== origin) {
        throw new AppError(
          'bad_response',
          `The service redirected to ${next === null ? 'an unreadable address' : `another origin (${next.protocol}//${next.host})`}; not followed, so the credentials were not sent there.`,
          { status },
        )
      }
      return next
    },
  })

  const chunks: Uint8Array[] = []
  const length = await readCapped(
    response,
    options.maxBytes ?? DEFAULT_MAX_BYTES,
    deadline,
    (chunk) => {
      chunks.push(chunk)
    },
  )
  // A buffer of its own (never a slice of Node's pool), so it can be moved to another thread.
  const bytes = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  const type = response.headers.get('content-type') ?? ''

  if (!response.ok) {
    const redact = options.redact ?? ((text: string) => text)
    throw errorForStatus(response, lenientText(bytes, type), (options.now ?? Date.now)(), redact)
  }

  if (!/\bjson\b/i.test(type)) {
    throw new AppError(
      'bad_response',
      `Expected JSON but the service sent ${type.split(';')[0] || 'no content type'}.`,
      { status: response.status },
    )
  }
  return { bytes, contentType: type, status: response.status }
}

/** A JSON answer's value: its bytes decoded by the declared charset, then parsed. */
export function parseJsonBody(body: JsonBody): unknown {
  const text = decodeBody(body.bytes, body.contentType, body.status)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new AppError('bad_response', 'The service sent malformed JSON.', {
      status: body.status,
    })
  }
}

/** The `charset` parameter of a `Content-Type`, or undefined. */
function charsetOf(contentType: string | null): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '')
  const value = (match?.[1] ?? match?.[2] ?? '').trim()
  return value || undefined
}

/**
 * Names Korean services use for Microsoft's extension of EUC-KR that the
 * Encoding Standard does not list; its `euc-kr` decoder is that extension.
 */
const CHARSET_ALIASES: Readonly<Record<string, string>> = {
  cp949: 'euc-kr',
  ms949: 'euc-kr',
  'x-windows-949': 'euc-kr',
  uhc: 'euc-kr',
}

/**
 * The body as text in the charset its `Content-Type` declares (UTF-8 when it
 * declares none, as JSON's own default), with a leading BOM dropped. An
 * unknown charset, or bytes that are not valid in the declared one, fail
 * with `bad_response` instead of storing mojibake.
 * @internal
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null, status?: number): string {
  const charset = charsetOf(contentType) ?? 'utf-8'
  const label = CHARSET_ALIASES[charset.toLowerCase()] ?? charset
  const where = status === undefined ? {} : { status }
  let decoder: InstanceType<typeof TextDecoder>
  try {
    decoder = new TextDecoder(label)
  } catch {
    throw new AppError(
      'bad_response',
      `The service declared the character set "${charset.slice(0, 40)}", which this app cannot read.`,
      where,
    )
  }
  // The lenient decoder is several times faster; only text with a replacement character is
  // decoded again strictly, to tell bytes invalid in the charset from a U+FFFD the service sent.
  const text = decoder.decode(bytes)
  if (text.includes('\ufffd')) {
    try {
      new TextDecoder(label, { fatal: true }).decode(bytes)
    } catch {
      throw new AppError(
        'bad_response',
        `The service's answer is not valid ${decoder.encoding.toUpperCase()} text, although it declared that character set.`,
        where,
      )
    }
  }
  // TextDecoder drops a BOM of its own encoding; a UTF-8 BOM in front of a legacy charset goes too.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Best-effort text of an error body: its declared charset when readable, else UTF-8 with replacements. */
function lenientText(bytes: Uint8Array, contentType: string | null): string {
  try {
    return decodeBody(bytes, contentType)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

/** The absolute URL a redirect points to, or null when `Location` is missing or unreadable. */
function redirectTarget(response: Response, from: URL): URL | null {
  const location = response.headers.get('location')
  if (!location) return null
  try {
    return new URL(location, from)
  } catch {
    return null
  }
}

/**
 * Maps an HTTP error status to a typed error. For 401 and 403 the message is
 * the app's own, with the status and the service's request id: a service that
 * echoes the credentials back in its body can never get them shown. For other
 * statuses a JSON body's `message` is quoted, short and single-line, after
 * `redact` removed every form of the credentials. For 429 and 503 a readable
 * `Retry-After` becomes `retryAt`.
 */
export function errorForStatus(
  response: Response,
  body: string,
  now = Date.now(),
  redact: (text: string) => string = (text) => text,
): AppError {
  const status = response.status
  if (status === 401 || status === 403) {
    const id = requestIdOf(response.headers, redact)
    const reference = id ? ` Request id: ${id}.` : ''
    return status === 401
      ? new AppError('auth', `The service rejected the API key or secret (401).${reference}`, {
          status,
        })
      : new AppError('forbidden', `The API key may not access this partner (403).${reference}`, {
          status,
        })
  }
  const detail = messageFromBody(response.headers.get('content-type'), body)
  const suffix = detail ? `: ${redact(detail)}` : ''
  const waitMs =
    status === 429 || status === 503
      ? parseRetryAfter(response.headers.get('retry-after'), now)
      : undefined
  const retryAt = waitMs === undefined ? {} : { retryAt: new Date(now + waitMs).toISOString() }
  if (status >= 300 && status < 400) {
    return new AppError('bad_response', `Unexpected redirect status ${status}.`, { status })
  }
  switch (status) {
    case 400:
      return new AppError('bad_request', `The service rejected a parameter (400)${suffix}`, {
        status,
      })
    case 404:
      return new AppError('not_found', `Not found (404)${suffix}`, { status })
    case 429:
      return new AppError('rate_limited', `Too many requests (429)${suffix}`, {
        status,
        ...retryAt,
      })
  }
  if (status >= 500) {
    return new AppError('server', `Partner API unavailable (${status})${suffix}`, {
      status,
      ...retryAt,
    })
  }
  return new AppError('bad_response', `Unexpected status ${status}${suffix}`, { status })
}

/** Response headers services commonly name their request id in. */
const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-correlation-id',
  'x-amzn-requestid',
  'x-trace-id',
]

/** The service's request id, printable and short, redacted like any text of the service. */
function requestIdOf(headers: Headers, redact: (text: string) => string): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name)?.trim()
    if (value && /^[\x21-\x7e]{1,100}$/.test(value)) return redact(value)
  }
  return undefined
}

/** The `message` of a JSON error body, short and single-line; never HTML. */
function messageFromBody(contentType: string | null, body: string): string | undefined {
  if (!contentType || !/\bjson\b/i.test(contentType)) return undefined
  try {
    const parsed = JSON.parse(body) as unknown
    if (
      parsed &&
      typeof parsed === 'object' &&
      'message' in parsed &&
      typeof parsed.message === 'string'
    ) {
      return parsed.message.replace(/\s+/g, ' ').slice(0, 200)
    }
  } catch {
    // not JSON after all: no message to show
  }
  return undefined
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
])

/**
 * Maps what `fetch` (or reading its body) threw to `cancelled`, `timeout`,
 * `tls` or `network`. A timeout says the deadline and the time really taken.
 */
function classifyFetchError(error: unknown, deadline: RequestDeadline): AppError {
  if (deadline.callerSignal?.aborted) {
    return new AppError('cancelled', 'Cancelled.', { cause: error })
  }
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError' || deadline.signal.aborted) {
    return new AppError(
      'timeout',
      `The service did not send its whole answer within the ${seconds(deadline.timeoutMs)} s deadline (gave up after ${seconds(deadline.elapsedMs())} s).`,
      { cause: error },
    )
  }
  const code = errorCode(error)
  if (
    code &&
    (TLS_CODES.has(code) ||
      code.startsWith('ERR_TLS') ||
      code.startsWith('ERR_SSL') ||
      code.includes('CERT'))
  ) {
    return new AppError('tls', `The service's TLS certificate was rejected (${code}).`, {
      cause: error,
    })
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new AppError('network', "Can't reach partner API: the host name does not resolve.", {
      cause: error,
    })
  }
  if (code === 'ECONNREFUSED') {
    return new AppError('network', "Can't reach partner API: the connection was refused.", {
      cause: error,
    })
  }
  return new AppError('network', `Can't reach partner API${code ? ` (${code})` : ''}.`, {
    cause: error,
  })
}

/** Digs the system error code out of undici's nested `cause` chain. */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (
      typeof current === 'object' &&
      current !== null &&
      'code' in current &&
      typeof current.code === 'string'
    ) {
      return current.code
    }
    current =
      typeof current === 'object' && current !== null && 'cause' in current
        ? current.cause
        : undefined
  }
  return undefined
}

/** Milliseconds as seconds for messages: one decimal under 10 s, whole seconds above. */
export function seconds(ms: number): string {
  const s = ms / 1000
  return s < 10 ? s.toFixed(1) : String(Math.round(s))
}
