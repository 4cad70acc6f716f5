import { echoed, encodeEucKr } from './echo'
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { timingSafeEqual } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { Churn, type ChurnClock, type SandboxChange } from './churn'
import { Dataset, type SandboxResource } from './dataset'
import { FaultState, type Fault, type FaultKind } from './faults'
import { handleStatic } from './images'
import { LiveDataset } from './live'
import { parseListRequest } from './query'
import { demoCredentials, type DemoCredentials } from './seed'
import { handleWallet, renderIndex, sendPage } from './wallet'

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Seed of the generated data and of the demo credentials (default 1). */
  readonly seed?: number
  /** Number of guarantees and of inspections, up to 1 000 000 (default 2000). */
  readonly size?: number
  /** Port of the API; 0 or absent picks a free one. */
  readonly port?: number
  /** Port of the static image host; 0 or absent picks a free one. */
  readonly staticPort?: number
  /**
   * The service's "now" when it starts (epoch milliseconds; default: the moment
   * it starts): the newest records are from the hours before it (see
   * `dataset.ts`). Tests that depend on the data's dates set it.
   */
  readonly anchor?: number
  /** Faults in force from the start (see `faults.ts`); change them later with `setFaults`. */
  readonly faults?: readonly Fault[]
  /**
   * Time moves on its own: a step of new and changed records (see `churn.ts`)
   * every `everyMs` milliseconds. Without it the data changes only through
   * {@link Sandbox.advance} (or the test endpoints).
   */
  readonly churn?: ChurnOptions
  /**
   * Serves `POST /__sandbox/advance?steps=N` and `GET /__sandbox/changes?after=STEP`
   * for tests that drive the sandbox over HTTP. Off unless asked for.
   */
  readonly testEndpoints?: boolean
}

/** How the sandbox's data moves on its own. */
interface ChurnOptions extends ChurnClock {
  /** Milliseconds between steps (default 5000). */
  readonly everyMs?: number
}

/** A running sandbox. */
export interface Sandbox extends DemoCredentials {
  readonly seed: number
  readonly size: number
  /** `{base_url}` of the spec, e.g. `http://127.0.0.1:4010`. */
  readonly baseUrl: string
  /** `{static_url}` of the spec: the card-image host, a separate origin. */
  readonly staticUrl: string
  /** The generated records as they start, for tests that compare answers with the source. */
  readonly dataset: Dataset
  /** The records as the service holds them now (the dataset plus the steps taken). */
  readonly live: LiveDataset
  /** Steps of time taken so far. */
  readonly step: number
  /** Takes `steps` steps of time (default 1) and returns what they changed. */
  advance(steps?: number): readonly SandboxChange[]
  /** The logged changes of the steps after `afterStep` (default: all). */
  changes(afterStep?: number): readonly SandboxChange[]
  /** The `guaranteeToken` of guarantee `idx` (the spec's detail operation is not listed). */
  tokenFor(idx: number): string
  /** Replaces the faults in force (an empty list turns them off) and resets their counters. */
  setFaults(faults: readonly Fault[]): void
  /** Stops both servers. */
  close(): Promise<void>
}

/** The sandbox's own error body; the spec shows none, so this shape is an invention. */
function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { code, message })
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  })
  res.end(text)
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The three JSON operations, by path. */
const API_ROUTES: readonly [RegExp, 'brand' | SandboxResource][] = [
  [/^\/v1\/partner\/([^/]+)\/guarantee\/brand$/, 'brand'],
  [/^\/v1\/partner\/([^/]+)\/guarantee$/, 'guarantee'],
  [/^\/v1\/partner\/([^/]+)\/inspection$/, 'inspection'],
]

/** A signal that aborts when the client goes away, so waits and streams stop. */
function closeSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController()
  res.once('close', () => controller.abort())
  return controller.signal
}

/** Starts the sandbox partner API and its static image host on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1
  const size = options.size ?? 2000
  const credentials = demoCredentials(seed)
  const faults = new FaultState(seed, options.faults ?? [])
  // The static host listens first: the records' card URLs point at it.
  const statics = createServer((req, res) => {
    if (!loopbackHost(req, staticPort)) return refuseHost(res)
    handleStatic(live, req, res)
  })
  const staticPort = await listen(statics, options.staticPort ?? 0)
  const staticUrl = `http://127.0.0.1:${staticPort}`
  const dataset = new Dataset({ seed, size, staticUrl, anchor: options.anchor ?? Date.now() })
  const live = new LiveDataset(dataset)
  const churn = new Churn(live, seed, options.churn ?? {})

  /** Checks the two headers of operations 1–3: 401 when missing or wrong, 403 for another partner. */
  function authorize(req: IncomingMessage, res: ServerResponse, partnerId: string): boolean {
    const key = req.headers['x-service-api-key']
    const secret = req.headers.authorization
    if (
      !sameSecret(typeof key === 'string' ? key : undefined, credentials.apiKey) ||
      !sameSecret(secret, credentials.apiSecret)
    ) {
      sendError(res, 401, 'UNAUTHORIZED', 'API key or secret is missing or wrong.')
      return false
    }
    if (partnerId !== credentials.partnerId) {
      sendError(res, 403, 'FORBIDDEN', 'This API key does not belong to that partner.')
      return false
    }
    return true
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.local')
    if (options.testEndpoints === true && handleTestEndpoint(req, res, url, churn)) return
    if (req.method !== 'GET') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'Only GET is supported.')
      return
    }
    if (url.pathname === '/') {
      sendPage(res, 200, renderIndex(live, credentials, faults.faults))
      return
    }
    if (handleWallet(live, credentials, url, res, req.headers.cookie)) return
    const found = API_ROUTES.map(
      ([pattern, name]) => [pattern.exec(url.pathname), name] as const,
    ).find(([match]) => match)
    if (!found) {
      sendError(res, 404, 'NOT_FOUND', 'No such operation.')
      return
    }
    const [match, route] = found
    const hit = faults.draw(route)
    const trickle = hit.get('trickle')
    if (trickle) trickleAnswer(res, req.socket, trickle)
    if (await answeredByFault(req, res, url, hit)) return
    if (!authorize(req, res, decodeURIComponent(match?.[1] ?? ''))) return

    if (route === 'brand') {
      const body = hit.has('wrong_shape') ? { brands: dataset.brands } : dataset.brands
      await send(res, JSON.stringify(body), hit)
      return
    }
    const parsed = parseListRequest(url.searchParams, route)
    if (!parsed.ok) {
      sendError(res, 400, parsed.error.code, parsed.error.message)
      return
    }
    let query = parsed.query
    if (hit.has('ignore_page')) query = { ...query, page: 1 }
    const oversize = hit.get('oversize')
    if (oversize) {
      await sendOversize(res, route, oversize.mb ?? 60)
      return
    }
    const drift = hit.get('total_drift')
    const count = live.count(route)
    const visible = drift
      ? count -
        (drift.amount ?? 12) +
        Math.min(drift.amount ?? 12, faults.hits('total_drift') * (drift.step ?? 3))
      : count
    const slice = live.query(route, query, visible)
    let data: Record<string, unknown>[] = slice.indices.map((i) => ({ ...live.record(route, i) }))
    if (hit.has('empty_page') && query.page > 1) data = []
    const missing = hit.get('missing_field')
    if (missing) {
      data.forEach((item, position) => {
        if (position % 4 === 1) delete item[missing.field ?? 'productName']
      })
    }
    const extra = hit.get('extra_fields')
    if (extra) data = data.map((item) => withExtraFields(item, extra.count ?? 50))
    const body = {
      total: hit.has('zero_total') ? 0 : slice.total,
      page: query.page,
      data: hit.has('wrong_shape') ? null : data,
    }
    await send(res, JSON.stringify(body), hit)
  }

  /** Faults that replace the answer: latency first, then reset, redirect, 429, 502, 5xx. */
  async function answeredByFault(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    hit: Map<FaultKind, Fault>,
  ): Promise<boolean> {
    const latency = hit.get('latency')
    if (latency) {
      try {
        await sleep(latency.ms ?? 500, undefined, { signal: closeSignal(res) })
      } catch {
        return true // the client left
      }
    }
    if (hit.has('reset')) {
      req.socket.destroy()
      return true
    }
    const redirect = hit.get('redirect')
    if (redirect) {
      res.writeHead(302, {
        Location: redirect.location ?? `${staticUrl}${url.pathname}${url.search}`,
      })
      res.end()
      return true
    }
    const limited = hit.get('rate_limit')
    if (limited) {
      res.setHeader('Retry-After', retryAfter(limited, limited.retryAfter ?? 7))
      sendError(res, 429, 'RATE_LIMITED', 'Too many requests; try again later.')
      return true
    }
    if (hit.has('html502')) {
      sendPage(
        res,
        502,
        '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
      )
      return true
    }
    const echo = hit.get('echo_key')
    if (echo) {
      const form = echo.form ?? 'exact'
      const key = echoed(String(req.headers['x-service-api-key'] ?? ''), form)
      const secret = echoed(String(req.headers.authorization ?? ''), form)
      res.setHeader('X-Request-Id', `req-${key}`)
      sendError(res, echo.status ?? 400, 'ECHO', `Rejected key ${key} with secret ${secret}.`)
      return true
    }
    const error = hit.get('error')
    if (error) {
      const status = error.status ?? 500
      if (error.retryAfter !== undefined)
        res.setHeader('Retry-After', retryAfter(error, error.retryAfter))
      sendError(
        res,
        status,
        status === 500 ? 'INTERNAL' : 'UNAVAILABLE',
        `Sandbox fault: status ${status}.`,
      )
      return true
    }
    return false
  }

  /** Streams an envelope padded to about `mb` megabytes, ignoring the page-size cap. */
  async function sendOversize(
    res: ServerResponse,
    route: SandboxResource,
    mb: number,
  ): Promise<void> {
    const signal = closeSignal(res)
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
    const padding = 'x'.repeat(4000)
    const target = mb * 1024 * 1024
    let written = 0
    let count = 0
    const write = async (text: string): Promise<void> => {
      written += Buffer.byteLength(text)
      if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve))
    }
    await write(`{"total":${live.count(route)},"page":1,"data":[`)
    while (written < target && !signal.aborted) {
      const i = count % Math.max(1, live.count(route))
      const item = live.record(route, i)
      await write(`${count > 0 ? ',' : ''}${JSON.stringify({ ...item, padding })}`)
      count += 1
    }
    if (!signal.aborted) res.end(']}')
  }

  const api = createServer((req, res) => {
    if (!loopbackHost(req, apiPort)) return refuseHost(res)
    handleApi(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy()
      else
        sendError(res, 500, 'INTERNAL', error instanceof Error ? error.message : 'Sandbox error.')
    })
  })
  const apiPort = await listen(api, options.port ?? 0)
  const ticker =
    options.churn === undefined
      ? undefined
      : setInterval(() => churn.advance(1), Math.max(1, options.churn.everyMs ?? 5000))
  // A host's own timers decide when it exits, not the sandbox's clock.
  ticker?.unref()

  return {
    ...credentials,
    seed,
    size,
    baseUrl: `http://127.0.0.1:${apiPort}`,
    staticUrl,
    dataset,
    live,
    get step() {
      return churn.step
    },
    advance: (steps = 1) => churn.advance(steps),
    changes: (afterStep = 0) => churn.changes(afterStep),
    tokenFor: (idx) => dataset.tokenFor(idx),
    setFaults: (next) => faults.set(next),
    async close() {
      clearInterval(ticker)
      await Promise.all([closeServer(api), closeServer(statics)])
    },
  }
}

/**
 * Makes `res` collect its answer and send it whole (status line, headers and
 * body) over `socket`, `bytes` at a time every `ms`, then close the
 * connection. Every way the handler answers (`writeHead`, `write`, `end`)
 * goes through it, so an error answer trickles too.
 */
function trickleAnswer(res: ServerResponse, socket: Socket, fault: Fault): void {
  let status = 200
  let headers: OutgoingHttpHeaders = {}
  const chunks: Buffer[] = []
  const collect = (chunk: unknown): void => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk))
  }
  res.writeHead = ((code: number, ...rest: unknown[]) => {
    status = code
    const given = rest.find((arg) => typeof arg === 'object' && arg !== null)
    headers = { ...res.getHeaders(), ...(given as OutgoingHttpHeaders | undefined) }
    return res
  }) as typeof res.writeHead
  res.flushHeaders = () => undefined
  res.write = ((chunk: unknown) => {
    collect(chunk)
    return true
  }) as typeof res.write
  res.end = ((chunk?: unknown) => {
    collect(chunk)
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`]
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) head.push(`${name}: ${String(value)}`)
    }
    head.push('Connection: close', '', '')
    void drip(socket, Buffer.concat([Buffer.from(head.join('\r\n')), ...chunks]), fault)
    return res
  }) as typeof res.end
}

/** Writes `bytes` to `socket` a few at a time, then ends it; stops when the client leaves. */
async function drip(socket: Socket, bytes: Buffer, fault: Fault): Promise<void> {
  const controller = new AbortController()
  socket.once('close', () => controller.abort())
  const step = Math.max(1, fault.bytes ?? 1)
  for (let offset = 0; offset < bytes.length; offset += step) {
    if (controller.signal.aborted) return
    socket.write(bytes.subarray(offset, offset + step))
    try {
      await sleep(fault.ms ?? 1000, undefined, { signal: controller.signal })
    } catch {
      return
    }
  }
  socket.end()
}

/** Most steps one `POST /__sandbox/advance` takes. */
const MAX_ADVANCE_STEPS = 10_000

/**
 * The test endpoints: `POST /__sandbox/advance?steps=N` (default 1) takes N
 * steps and answers what they changed; `GET /__sandbox/changes?after=STEP`
 * answers the log after that step. Both answer `{ step, changes }`. Returns
 * false for any other request.
 */
function handleTestEndpoint(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  churn: Churn,
): boolean {
  const route = `${req.method ?? ''} ${url.pathname}`
  if (route !== 'POST /__sandbox/advance' && route !== 'GET /__sandbox/changes') return false
  const name = route.startsWith('POST') ? 'steps' : 'after'
  const text = url.searchParams.get(name) ?? (name === 'steps' ? '1' : '0')
  const value = Number(text)
  const max = name === 'steps' ? MAX_ADVANCE_STEPS : Number.MAX_SAFE_INTEGER
  if (!/^\d{1,15}$/.test(text) || value > max || (name === 'steps' && value < 1)) {
    sendError(
      res,
      400,
      'INVALID_PARAMETER',
      `${name} must be a whole number from ${name === 'steps' ? 1 : 0} to ${max}.`,
    )
    return true
  }
  const changes = name === 'steps' ? churn.advance(value) : churn.changes(value)
  sendJson(res, 200, { step: churn.step, changes })
  return true
}

/** The `Retry-After` value of a fault: seconds, an HTTP date that far ahead, or garbage. */
function retryAfter(fault: Fault, seconds: number): string {
  if (fault.format === 'date') return new Date(Date.now() + seconds * 1000).toUTCString()
  if (fault.format === 'garbage') return 'soon-ish'
  return String(Math.round(seconds))
}

/** A copy of `item` with `count` unknown fields and the two keys that pollute careless parsers. */
function withExtraFields(item: Record<string, unknown>, count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...item }
  for (let k = 0; k < count; k += 1)
    copy[`extraField${k}`] = k % 2 === 0 ? `값 ${k}` : { nested: k }
  // An own `__proto__` property (plain assignment would set the prototype instead).
  Object.defineProperty(copy, '__proto__', {
    value: { polluted: 'yes' },
    enumerable: true,
    writable: true,
    configurable: true,
  })
  copy['constructor'] = { prototype: { polluted: 'yes' } }
  return copy
}

const EUC_KR_LABELS = new Set(['euc-kr', 'cp949', 'windows-949', 'ks_c_5601-1987'])

/** Sends a JSON text through the transport faults: truncation, bad JSON, wrong type, slow body. */
async function send(res: ServerResponse, json: string, hit: Map<FaultKind, Fault>): Promise<void> {
  const wrongType = hit.get('wrong_type')
  const text = hit.has('invalid_json') ? `${json.slice(0, -1)},}` : json
  const legacy = hit.get('legacy_charset')
  const charset = legacy ? (legacy.charset ?? 'euc-kr') : 'utf-8'
  // Korean legacy systems answer in EUC-KR (CP949); any other label is sent as UTF-8 bytes.
  const bytes = EUC_KR_LABELS.has(charset.toLowerCase()) ? encodeEucKr(text) : Buffer.from(text)
  const headers = {
    'Content-Type': wrongType
      ? (wrongType.type ?? 'text/html; charset=utf-8')
      : `application/json; charset=${charset}`,
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
  }
  if (hit.has('truncate')) {
    res.writeHead(200, headers)
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)))
    // Let the half body leave before the connection dies.
    setTimeout(() => res.socket?.destroy(), 20)
    return
  }
  const slow = hit.get('slow_body')
  if (slow) {
    const signal = closeSignal(res)
    res.writeHead(200, headers)
    res.flushHeaders()
    const chunk = Math.max(1, slow.bytes ?? 64)
    for (let offset = 0; offset < bytes.length && !signal.aborted; offset += chunk) {
      res.write(bytes.subarray(offset, offset + chunk))
      try {
        await sleep(slow.ms ?? 250, undefined, { signal })
      } catch {
        return
      }
    }
    res.end()
    return
  }
  res.writeHead(200, headers)
  res.end(bytes)
}

/**
 * True when the request names this server by its loopback address and port.
 * A page on another site that resolves its own name to 127.0.0.1 (DNS
 * rebinding) sends its own name as `Host`, and is refused, as in the web host.
 */
function loopbackHost(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

function refuseHost(res: ServerResponse): void {
  sendError(res, 421, 'MISDIRECTED', 'This server answers only on its loopback address.')
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
