import { execFileSync } from 'node:child_process'
import { getEventListeners } from 'node:events'
import type { ServerResponse } from 'node:http'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PartnerClient, type PartnerClientOptions } from '../../../src/core/api/client'
import { RequestDeadline } from '../../../src/core/api/http'
import { AppError } from '../../../src/core/app-error'
import {
  emptyPage,
  html,
  json,
  scriptedServer,
  silent,
  truncated,
  type ScriptedServer,
} from '../helpers/scripted-server'
import { virtualTiming, type VirtualTiming } from '../helpers/virtual-timing'

const KEY = 'sbx_key_0123456789abcdef01234567'
const SECRET = 'sbx_secret_fedcba9876543210fedcba9876543210fedcba98'

let servers: ScriptedServer[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(servers.map((s) => s.close()))
  servers = []
})

async function serve(...steps: Parameters<typeof scriptedServer>[0]): Promise<ScriptedServer> {
  const server = await scriptedServer(steps)
  servers.push(server)
  return server
}

function client(baseUrl: string, timing: VirtualTiming, extra: Partial<PartnerClientOptions> = {}) {
  return new PartnerClient({
    fetch: (input, init) => fetch(input, init),
    target: { baseUrl, partnerId: 'demo-shop-0001' },
    credentials: () => Promise.resolve({ apiKey: KEY, apiSecret: SECRET }),
    timing,
    ...extra,
  })
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  const appError = error as AppError
  // No error ever carries the API key or secret (message or IPC form).
  expect(JSON.stringify(appError.toData())).not.toContain(KEY)
  expect(JSON.stringify(appError.toData())).not.toContain(SECRET)
  return appError
}

describe('partner answers stay out of the HTTP disk cache', () => {
  it('every request, redirect hops included, asks for no-store', async () => {
    const server = await serve(
      (req, res) => {
        res.writeHead(307, {
          location: `${req.url ?? '/'}${req.url?.includes('?') ? '&' : '?'}hop=1`,
        })
        res.end()
      },
      json(200, emptyPage),
    )
    const modes: Array<RequestInit['cache']> = []
    const page = await client(server.url, virtualTiming(), {
      fetch: (input, init) => {
        modes.push(init?.cache)
        return fetch(input, init)
      },
    }).listGuarantees()
    expect(page.items).toEqual([])
    expect(modes).toEqual(['no-store', 'no-store'])
  })
})

describe('client over real HTTP: retries and error classes', () => {
  it('retries an HTML 502 with backoff, never parsing the HTML (docs/faults.md F1)', async () => {
    const server = await serve(html(502), html(502), json(200, emptyPage))
    const timing = virtualTiming()
    const page = await client(server.url, timing).listGuarantees()
    expect(page.total).toBe(0)
    expect(server.requests).toHaveLength(3)
    expect(timing.sleeps).toHaveLength(2)

    const down = await serve(html(502))
    const error = await failure(client(down.url, virtualTiming()).listInspections())
    expect(error).toMatchObject({ code: 'server', status: 502 })
    expect(error.message).toBe('Partner API unavailable (502)')
    expect(down.requests).toHaveLength(4)
  })

  it('honours Retry-After in seconds and as an HTTP date (docs/faults.md F2)', async () => {
    const timing = virtualTiming()
    const date = new Date(timing.now() + 30_000).toUTCString()
    const server = await serve(
      json(429, { code: 'RATE_LIMITED', message: 'slow down' }, { 'Retry-After': '7' }),
      json(429, {}, { 'Retry-After': date }),
      json(429, {}, { 'Retry-After': 'soon' }),
      json(200, emptyPage),
    )
    await client(server.url, timing).listGuarantees()
    expect(server.requests).toHaveLength(4)
    expect(timing.sleeps[0]).toBeGreaterThanOrEqual(7000)
    // The date is 30 s after the start; the first wait already used part of that.
    expect((timing.sleeps[0] ?? 0) + (timing.sleeps[1] ?? 0)).toBeGreaterThanOrEqual(30_000)
    expect(timing.sleeps[2]).toBeLessThan(2000) // garbage: normal backoff (third retry ceiling 2 s)
  })

  it('gives up on 503/504 after 4 attempts, and a 429 past the cap at once', async () => {
    const server = await serve(json(503, {}), json(504, {}), json(503, {}), json(504, {}))
    const error = await failure(client(server.url, virtualTiming()).listGuarantees())
    expect(error).toMatchObject({ code: 'server', status: 504 })
    expect(server.requests).toHaveLength(4)

    const limited = await serve(json(429, { message: 'quota' }, { 'Retry-After': '3600' }))
    const timing = virtualTiming()
    const rate = await failure(client(limited.url, timing).listGuarantees())
    expect(rate.code).toBe('rate_limited')
    expect(rate.message).toMatch(/^Rate-limited by the partner API until \d{2}:\d{2}\.$/)
    expect(rate.retryAt).toBe(new Date(timing.now() + 3_600_000).toISOString())
    expect(limited.requests).toHaveLength(1)
  })

  it('treats a body cut mid-way as a network error and retries (docs/faults.md F4)', async () => {
    const server = await serve(
      truncated({ total: 1, page: 1, data: ['x'.repeat(5000)] }),
      json(200, emptyPage),
    )
    const page = await client(server.url, virtualTiming()).listGuarantees()
    expect(page.total).toBe(0)
    expect(server.requests).toHaveLength(2)

    const always = await serve(truncated({ total: 1, page: 1, data: ['x'.repeat(5000)] }))
    expect((await failure(client(always.url, virtualTiming()).listGuarantees())).code).toBe(
      'network',
    )
  })

  it('does not retry a wrong shape, a wrong content type or malformed JSON (docs/faults.md F5)', async () => {
    for (const step of [
      json(200, { total: 1, page: 1, data: null }),
      json(200, []),
      (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' })
        res.end(JSON.stringify(emptyPage))
      },
      (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end('{"total": 1, "data": [')
      },
    ]) {
      const server = await serve(step)
      expect((await failure(client(server.url, virtualTiming()).listGuarantees())).code).toBe(
        'bad_response',
      )
      expect(server.requests).toHaveLength(1)
    }
  })

  it('fails fast with network on a refused connection and an unresolvable host (docs/faults.md F14, F15)', async () => {
    const closed = createNetServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const timing = virtualTiming()
    const refused = await failure(client(`http://127.0.0.1:${port}`, timing).listGuarantees())
    expect(refused.code).toBe('network')
    expect(refused.message).toContain("Can't reach partner API")
    expect(timing.sleeps).toHaveLength(3) // bounded retries, on virtual time

    const dns = await failure(client('https://partner.invalid', virtualTiming()).listGuarantees())
    expect(dns.code).toBe('network')
  })

  it('times out a server that never answers, per attempt (docs/faults.md F13)', async () => {
    const server = await serve(silent)
    const error = await failure(
      client(server.url, virtualTiming(), {
        timeoutMs: 150,
        retry: { maxAttempts: 2 },
      }).listGuarantees(),
    )
    expect(error.code).toBe('timeout')
    expect(server.requests).toHaveLength(2)
  })

  it('is cancelled by the caller signal mid-request', async () => {
    const server = await serve(silent)
    const controller = new AbortController()
    const failed = failure(
      client(server.url, virtualTiming()).listGuarantees({}, controller.signal),
    )
    // Cancelled once the (silent) server holds the request.
    await vi.waitFor(() => expect(server.requests).toHaveLength(1))
    controller.abort()
    const error = await failed
    expect(error.code).toBe('cancelled')
    expect(server.requests).toHaveLength(1)
  })

  it("lets go of the caller's signal and its timer once a request is answered", async () => {
    const server = await serve(json(200, emptyPage))
    const walk = new AbortController()
    const api = client(server.url, virtualTiming(), { timeoutMs: 100 })
    for (let i = 0; i < 5; i += 1) await api.listGuarantees({ page: i + 1 }, walk.signal)
    // A sync's walk sends a thousand requests: none stays tied to it once answered.
    expect(getEventListeners(walk.signal, 'abort')).toHaveLength(0)
    // The deadlines' timers on fake time, moved past both deadlines at once.
    vi.useFakeTimers()
    const ended = new RequestDeadline(50, walk.signal)
    const running = new RequestDeadline(50, walk.signal)
    expect(getEventListeners(walk.signal, 'abort')).toHaveLength(2)
    ended.end()
    expect(getEventListeners(walk.signal, 'abort')).toHaveLength(1)
    vi.advanceTimersByTime(120)
    vi.useRealTimers()
    // The ended one's timer is gone; the other timed out as a TimeoutError.
    expect(ended.signal.aborted).toBe(false)
    expect((running.signal.reason as Error).name).toBe('TimeoutError')
    running.end()
    // A walk cancelled while a request runs cancels it with the walk's reason.
    const cancelled = new RequestDeadline(1000, walk.signal)
    walk.abort(new Error('walk ended'))
    expect((cancelled.signal.reason as Error).message).toBe('walk ended')
    cancelled.end()
  })

  it('classifies 401 as auth without retry, and never echoes a secret from the body (docs/faults.md F17)', async () => {
    const server = await serve(
      json(
        401,
        { code: 'UNAUTHORIZED', message: `key ${KEY} / ${SECRET} rejected` },
        { 'X-Request-Id': 'req-42' },
      ),
    )
    const error = await failure(client(server.url, virtualTiming()).listGuarantees())
    expect(error.code).toBe('auth')
    // The app's own words with the status and the service's request id; the body is never quoted.
    expect(error.message).toBe(
      'The service rejected the API key or secret (401). Request id: req-42.',
    )
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.headers['x-service-api-key']).toBe(KEY)
    expect(server.requests[0]?.headers.authorization).toBe(SECRET)
  })
})

describe('redirects (docs/faults.md F18)', () => {
  it('follows a redirect within the service origin, with the credentials', async () => {
    const server = await serve(
      (_req, res) => {
        res.writeHead(307, { Location: '/v1/partner/demo-shop-0001/guarantee?page=1&moved=1' })
        res.end()
      },
      json(200, emptyPage),
    )
    await client(server.url, virtualTiming()).listGuarantees()
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/partner/demo-shop-0001/guarantee',
      '/v1/partner/demo-shop-0001/guarantee?page=1&moved=1',
    ])
    expect(server.requests[1]?.headers.authorization).toBe(SECRET)
  })

  it('refuses a redirect to another origin: the other server sees no request', async () => {
    const other = await serve(json(200, emptyPage))
    for (const location of [
      `${other.url}/steal`,
      other.url.replace('127.0.0.1', 'localhost'),
      `//${new URL(other.url).host}/steal`,
    ]) {
      const server = await serve((_req, res) => {
        res.writeHead(302, { Location: location })
        res.end()
      })
      const error = await failure(client(server.url, virtualTiming()).listGuarantees())
      expect(error.code).toBe('bad_response')
      expect(error.message).toContain('another origin')
      expect(server.requests).toHaveLength(1)
    }
    expect(other.requests).toHaveLength(0)
  })
})

describe('TLS (docs/faults.md F16)', () => {
  it('rejects a self-signed certificate as tls, without retrying', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'tls-'))
    try {
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-keyout',
            join(dir, 'key.pem'),
            '-out',
            join(dir, 'cert.pem'),
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-addext',
            'subjectAltName=IP:127.0.0.1',
          ],
          { stdio: 'ignore' },
        )
      } catch (error) {
        // Only a developer machine without openssl may skip; CI must have it.
        if (process.env.CI) throw error
        context.skip()
      }
      let requests = 0
      const server = createHttpsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (_req, res) => {
          requests += 1
          res.writeHead(200, { 'Content-Type': 'application/json' })
          res.end(JSON.stringify(emptyPage))
        },
      )
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      try {
        const timing = virtualTiming()
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
        const error = await failure(client(url, timing).listGuarantees())
        expect(error.code).toBe('tls')
        expect(timing.sleeps).toEqual([])
        expect(requests).toBe(0)
      } finally {
        server.closeAllConnections()
        server.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
