import { AppError } from '../app-error'
import { parseRetryAfter } from './retry'

/** The `fetch` the client is given: Electron's `net.fetch` in the app, Node's in tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** Options of one GET. */
export interface GetOptions {
  readonly headers?: Readonly<Record<string, string>>
  readonly signal?: AbortSignal
  /** Deadline of the whole request, body included. */
  readonly timeoutMs?: number
  /** Largest accepted body; larger answers fail with `too_large`. */
  readonly maxBytes?: number
  /** Clock for turning `Retry-After` into a time (injected in tests). */
  readonly now?: () => number
}

/** Default per-request deadline. */
export const DEFAULT_TIMEOUT_MS = 20_000
/** Default body cap for JSON answers. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024
/** Redirects followed within the service's origin before giving up. */
export const MAX_REDIRECTS = 3

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * One GET returning parsed JSON, with a deadline, a body cap and typed
 * errors. Redirects are followed by hand (`redirect: 'manual'`) and only
 * within the request's own origin (scheme, host and port): the credentials
 * headers must never travel anywhere else, including the same host over
 * plain `http:` (FAULTS row 18). A redirect elsewhere fails without any
 * request being sent there; fetch's own following would re-send the
 * `Authorization` header cross-origin in some runtimes, and always the custom
 * API-key header (https://fetch.spec.whatwg.org/#http-redirect-fetch).
 */
export async function getJson(
  fetchFn: FetchLike,
  url: string,
  options: GetOptions = {},
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const deadline = AbortSignal.timeout(timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline
  const origin = new URL(url).origin

  let response: Response
  let current = url
  for (let hops = 0; ; hops += 1) {
    try {
      response = await fetchFn(current, {
        method: 'GET',
        headers: { Accept: 'application/json', ...options.headers },
        redirect: 'manual',
        signal,
      })
    } catch (error) {
      throw classifyFetchError(error, options.signal, timeoutMs)
    }
    if (!REDIRECT_STATUSES.has(response.status)) break
    await response.body?.cancel().catch(() => undefined)
    const next = redirectTarget(response, current)
    if (next === null || next.origin !== origin) {
      throw new AppError(
        'bad_response',
        `The service redirected to ${next === null ? 'an unreadable address' : `another origin (${next.protocol}//${next.host})`}; not followed, so the credentials were not sent there.`,
        { status: response.status },
      )
    }
    if (hops + 1 > MAX_REDIRECTS) {
      throw new AppError(
        'bad_response',
        `The service redirected more than ${MAX_REDIRECTS} times.`,
        {
          status: response.status,
        },
      )
    }
    current = next.toString()
  }

  let text: string
  try {
    text = await readText(response, options.maxBytes ?? DEFAULT_MAX_BYTES)
  } catch (error) {
    if (error instanceof AppError) throw error
    throw classifyFetchError(error, options.signal, timeoutMs)
  }

  if (!response.ok) throw errorForStatus(response, text, (options.now ?? Date.now)())

  const type = response.headers.get('content-type') ?? ''
  if (!/\bjson\b/i.test(type)) {
    throw new AppError(
      'bad_response',
      `Expected JSON but the service sent ${type.split(';')[0] || 'no content type'}.`,
      {
        status: response.status,
      },
    )
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new AppError('bad_response', 'The service sent malformed JSON.', {
      status: response.status,
    })
  }
}

/** Reads the body as text, failing with `too_large` past the cap without buffering the rest. */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw new AppError('too_large', `The answer is larger than ${Math.round(maxBytes / 1024)} KB.`)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new AppError(
        'too_large',
        `The answer is larger than ${Math.round(maxBytes / 1024)} KB.`,
      )
    }
    chunks.push(value)
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks))
}

/** The absolute URL a redirect points to, or null when `Location` is missing or unreadable. */
function redirectTarget(response: Response, from: string): URL | null {
  const location = response.headers.get('location')
  if (!location) return null
  try {
    return new URL(location, from)
  } catch {
    return null
  }
}

/**
 * Maps an HTTP error status to a typed error, using the body's message when
 * it has one. For 429 and 503 a readable `Retry-After` becomes `retryAt`.
 */
export function errorForStatus(response: Response, body: string, now = Date.now()): AppError {
  const status = response.status
  const detail = messageFromBody(response.headers.get('content-type'), body)
  const suffix = detail ? `: ${detail}` : ''
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
    case 401:
      return new AppError('auth', `The service rejected the API key or secret (401)${suffix}`, {
        status,
      })
    case 403:
      return new AppError('forbidden', `The API key may not access this partner (403)${suffix}`, {
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

/** Maps what `fetch` threw to `cancelled`, `timeout`, `tls` or `network`. */
export function classifyFetchError(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
): AppError {
  if (callerSignal?.aborted) return new AppError('cancelled', 'Cancelled.', { cause: error })
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new AppError(
      'timeout',
      `The service did not answer within ${Math.round(timeoutMs / 1000)} s.`,
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
