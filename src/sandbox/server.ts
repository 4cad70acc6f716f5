import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { timingSafeEqual } from 'node:crypto'
import { Dataset } from './dataset'
import { parseListQuery, type ListKind } from './query'
import { demoCredentials, type DemoCredentials } from './seed'

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
}

/** A running sandbox. */
export interface Sandbox extends DemoCredentials {
  readonly seed: number
  readonly size: number
  /** `{base_url}` of the spec, e.g. `http://127.0.0.1:4010`. */
  readonly baseUrl: string
  /** `{static_url}` of the spec: the card-image host, a separate origin. */
  readonly staticUrl: string
  /** The generated records, for tests that compare answers with the source. */
  readonly dataset: Dataset
  /** The `guaranteeToken` of guarantee `idx` (the spec's detail operation is not listed). */
  tokenFor(idx: number): string
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

/** Starts the sandbox partner API and its static image host on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1
  const size = options.size ?? 2000
  const credentials = demoCredentials(seed)
  // The static host listens first: the records' card URLs point at it.
  const statics = createServer(handleStatic)
  const staticPort = await listen(statics, options.staticPort ?? 0)
  const staticUrl = `http://127.0.0.1:${staticPort}`
  const dataset = new Dataset({ seed, size, staticUrl })

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

  function handleApi(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://sandbox.local')
    if (req.method !== 'GET') {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'Only GET is supported.')
      return
    }
    if (url.pathname === '/') {
      sendIndex(res)
      return
    }
    const brandRoute = /^\/v1\/partner\/([^/]+)\/guarantee\/brand$/.exec(url.pathname)
    if (brandRoute) {
      if (!authorize(req, res, decodeURIComponent(brandRoute[1] ?? ''))) return
      sendJson(res, 200, dataset.brands)
      return
    }
    const listRoute = /^\/v1\/partner\/([^/]+)\/(guarantee|inspection)$/.exec(url.pathname)
    if (listRoute) {
      if (!authorize(req, res, decodeURIComponent(listRoute[1] ?? ''))) return
      sendList(res, listRoute[2] as ListKind, url.searchParams)
      return
    }
    sendError(res, 404, 'NOT_FOUND', 'No such operation.')
  }

  /** Operations 1 and 2: one page of the envelope `{ total, page, data }`. */
  function sendList(res: ServerResponse, kind: ListKind, params: URLSearchParams): void {
    const parsed = parseListQuery(params, kind)
    if (!parsed.ok) {
      sendError(res, 400, parsed.error.code, parsed.error.message)
      return
    }
    const { query } = parsed
    if (kind === 'guarantee') {
      const slice = dataset.queryGuarantees(query)
      sendJson(res, 200, {
        total: slice.total,
        page: query.page,
        data: slice.indices.map((i) => dataset.guarantee(i)),
      })
    } else {
      const slice = dataset.queryInspections(query)
      sendJson(res, 200, {
        total: slice.total,
        page: query.page,
        data: slice.indices.map((i) => dataset.inspection(i)),
      })
    }
  }

  function sendIndex(res: ServerResponse): void {
    const html = `<!doctype html><meta charset="utf-8"><title>Appraisal Desk sandbox</title>
<h1>Appraisal Desk sandbox</h1>
<p>Seed ${seed}, ${size} guarantees and ${size} inspections.</p>
<dl><dt>partnerId</dt><dd>${credentials.partnerId}</dd><dt>API key</dt><dd>${credentials.apiKey}</dd><dt>API secret</dt><dd>${credentials.apiSecret}</dd></dl>`
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'",
    })
    res.end(html)
  }

  function handleStatic(req: IncomingMessage, res: ServerResponse): void {
    sendError(
      res,
      404,
      'NOT_FOUND',
      `No such file: ${new URL(req.url ?? '/', 'http://static.local').pathname}`,
    )
  }

  const api = createServer((req, res) => {
    try {
      handleApi(req, res)
    } catch (error) {
      sendError(res, 500, 'INTERNAL', error instanceof Error ? error.message : 'Sandbox error.')
    }
  })
  const apiPort = await listen(api, options.port ?? 0)

  return {
    ...credentials,
    seed,
    size,
    baseUrl: `http://127.0.0.1:${apiPort}`,
    staticUrl,
    dataset,
    tokenFor: (idx) => dataset.tokenFor(idx),
    async close() {
      await Promise.all([closeServer(api), closeServer(statics)])
    },
  }
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
