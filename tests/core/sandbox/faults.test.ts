import { connect } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PartnerClient, type PartnerClientOptions } from '../../../src/core/api/client'
import { AppError } from '../../../src/core/app-error'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { parseFaultSpec } from '../../../src/sandbox/faults'
import { json, scriptedServer, emptyPage } from '../helpers/scripted-server'
import { virtualTiming, type VirtualTiming } from '../helpers/virtual-timing'
import { guaranteePages, inspectionPages } from '../../support/page-walks'

/**
 * docs/faults.md F1–F18 against the live sandbox over real HTTP: faults are
 * switched on per test with `setFaults`, the real client talks to it, and
 * retries wait on a virtual clock (F14–F16, which need no sandbox, are in
 * tests/core/api/http.test.ts).
 */

let sandbox: Sandbox
let retries: string[]

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, size: 300 })
})
afterAll(() => sandbox.close())
beforeEach(() => {
  sandbox.setFaults([])
  retries = []
})

function client(
  timing: VirtualTiming = virtualTiming(),
  extra: Partial<PartnerClientOptions> = {},
) {
  return new PartnerClient({
    fetch: (input, init) => fetch(input, init),
    target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
    credentials: () => Promise.resolve({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
    timing,
    onRetry: ({ code }) => retries.push(code),
    ...extra,
  })
}

/** The first bytes a raw GET of `path` receives, as text; the connection is closed then. */
function firstBytes(path: string): Promise<string> {
  const { hostname, port } = new URL(sandbox.baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Service-API-Key: ${sandbox.apiKey}\r\nAuthorization: ${sandbox.apiSecret}\r\n\r\n`,
      )
    })
    socket.once('data', (chunk) => {
      socket.destroy()
      resolve(chunk.toString('latin1'))
    })
    socket.once('error', reject)
  })
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  const data = JSON.stringify((error as AppError).toData())
  expect(data).not.toContain(sandbox.apiKey)
  expect(data).not.toContain(sandbox.apiSecret)
  return error as AppError
}

describe('sandbox faults through the client (docs/faults.md F1–F18)', () => {
  it('docs/faults.md F1: HTML 502 ×2 then 200 is retried; 502 for good ends as server', async () => {
    sandbox.setFaults([{ kind: 'html502', count: 2 }])
    const page = await client().listGuarantees()
    expect(page.items).toHaveLength(10)
    expect(retries).toEqual(['server', 'server'])

    sandbox.setFaults([{ kind: 'html502' }])
    retries = []
    const error = await failure(client().listGuarantees())
    expect(error).toMatchObject({
      code: 'server',
      status: 502,
      message: 'Partner API unavailable (502)',
    })
    expect(retries).toHaveLength(3)
  })

  it('docs/faults.md F2: 429 with Retry-After seconds, HTTP date, garbage, and past the cap', async () => {
    sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 7, count: 1 }])
    let timing = virtualTiming()
    await client(timing).listInspections()
    expect(timing.sleeps[0]).toBeGreaterThanOrEqual(7000)

    sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 30, format: 'date', count: 1 }])
    timing = virtualTiming(1, Date.now())
    await client(timing).listInspections()
    expect(timing.sleeps[0]).toBeGreaterThanOrEqual(28_000) // HTTP dates have whole seconds
    expect(timing.sleeps[0]).toBeLessThanOrEqual(31_000)

    sandbox.setFaults([{ kind: 'rate_limit', format: 'garbage', count: 1 }])
    timing = virtualTiming()
    await client(timing).listInspections()
    expect(timing.sleeps[0]).toBeLessThan(500)

    sandbox.setFaults([{ kind: 'rate_limit', retryAfter: 600 }])
    timing = virtualTiming(1, Date.now())
    const error = await failure(client(timing).listInspections())
    expect(error.code).toBe('rate_limited')
    expect(error.message).toMatch(/until \d{2}:\d{2}\.$/)
    expect(timing.sleeps).toEqual([])
  })

  it('docs/faults.md F3: 503/504 are retried with bounded attempts, 500 is not', async () => {
    sandbox.setFaults([{ kind: 'error', status: 504, count: 3 }])
    expect((await client().listGuarantees()).total).toBe(300)
    expect(retries).toHaveLength(3)

    sandbox.setFaults([{ kind: 'error', status: 503 }])
    retries = []
    expect((await failure(client().listGuarantees())).status).toBe(503)
    expect(retries).toHaveLength(3)

    sandbox.setFaults([{ kind: 'error', status: 500 }])
    retries = []
    expect((await failure(client().listGuarantees())).code).toBe('server')
    expect(retries).toEqual([])
  })

  it('docs/faults.md F4: a body cut mid-way or a reset connection is a network error, retried', async () => {
    sandbox.setFaults([{ kind: 'truncate', count: 1 }])
    expect((await client().listGuarantees({ pageSize: 100 })).items).toHaveLength(100)
    expect(retries).toEqual(['network'])

    sandbox.setFaults([{ kind: 'reset', count: 2 }])
    retries = []
    expect((await client().listGuarantees()).items).toHaveLength(10)
    expect(retries).toEqual(['network', 'network'])

    sandbox.setFaults([{ kind: 'truncate' }])
    expect((await failure(client().listGuarantees())).code).toBe('network')
  })

  it('docs/faults.md F5: wrong shape, invalid JSON, wrong content type: bad_response, not retried', async () => {
    for (const kind of ['wrong_shape', 'invalid_json', 'wrong_type'] as const) {
      sandbox.setFaults([{ kind }])
      retries = []
      expect((await failure(client().listGuarantees())).code, kind).toBe('bad_response')
      expect((await failure(client().listBrands())).code, kind).toBe('bad_response')
      expect(retries).toEqual([])
    }
  })

  it('docs/faults.md F6: items missing a required field are counted, the others load', async () => {
    sandbox.setFaults([{ kind: 'missing_field', route: 'guarantee' }])
    const page = await client().listGuarantees()
    expect(page.received).toBe(10)
    expect(page.rejected).toBe(3)
    expect(page.items).toHaveLength(7)
    expect(page.rejects.map((r) => r.problems)).toEqual([
      ['data[1].productName: missing'],
      ['data[5].productName: missing'],
      ['data[9].productName: missing'],
    ])
    sandbox.setFaults([{ kind: 'missing_field', field: 'idx' }])
    const noIdx = await client().listInspections()
    expect(noIdx.rejects.map((r) => r.idx)).toEqual([null, null, null])
  })

  it('docs/faults.md F7: unknown fields, __proto__ and constructor are kept as data, nothing polluted', async () => {
    sandbox.setFaults([{ kind: 'extra_fields' }])
    const page = await client().listInspections()
    expect(page.items).toHaveLength(10)
    for (const item of page.items) {
      expect(Object.keys(item.raw)).toHaveLength(52)
      expect(Object.hasOwn(item.raw, '__proto__')).toBe(true)
      expect(Object.getPrototypeOf(item.raw)).toBe(Object.prototype)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('docs/faults.md F8: every inspection, either timestamp spelling, ends with one registeredAt', async () => {
    const seen: string[] = []
    for await (const page of inspectionPages(client())) {
      for (const item of page.items) {
        expect(item.registeredAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
        expect(item.warnings).toEqual([])
        seen.push(String(item.idx))
      }
    }
    expect(seen).toHaveLength(300)
    const odd = Array.from({ length: 300 }, (_, i) => sandbox.dataset.inspection(i)).filter(
      (i) => 'registeredAtAt' in i,
    )
    expect(odd.length).toBeGreaterThan(0)
  })

  it('docs/faults.md F9: page ignored → pagination_stuck after one repeat', async () => {
    sandbox.setFaults([{ kind: 'ignore_page' }])
    const pages: number[] = []
    const error = await failure(
      (async () => {
        for await (const page of guaranteePages(client())) pages.push(page.pageNumber)
      })(),
    )
    expect(error.code).toBe('pagination_stuck')
    expect(pages).toEqual([1])
  })

  it('docs/faults.md F10: total changing between pages is reported; records are deduplicated by idx', async () => {
    sandbox.setFaults([{ kind: 'total_drift', step: 5, amount: 20 }])
    const walker = guaranteePages(client(), {}, { pageSize: 50 })
    const ids: number[] = []
    for await (const page of walker) ids.push(...page.items.map((g) => g.idx))
    expect(walker.summary?.totalChanged).toBe(true)
    expect(new Set(ids).size).toBeLessThan(ids.length) // inserts shifted offsets: some repeats
    expect(Math.max(...ids)).toBeGreaterThan(280)
  })

  it('docs/faults.md F11: an empty page before total, or total 0 with items, ends the walk', async () => {
    sandbox.setFaults([{ kind: 'empty_page' }])
    const walker = inspectionPages(client())
    for await (const _ of walker) {
      // pages are consumed
    }
    expect(walker.summary).toMatchObject({ end: 'empty_page', seen: 100, total: 300 })

    sandbox.setFaults([{ kind: 'zero_total' }])
    const zero = inspectionPages(client())
    let pages = 0
    for await (const _ of zero) pages += 1
    expect(pages).toBe(1)
  })

  it('docs/faults.md F12: an oversize page is refused with too_large while streaming', async () => {
    sandbox.setFaults([{ kind: 'oversize', mb: 60 }])
    const maxBytes = 2 * 1024 * 1024
    // Node's fetch, counting the body bytes the client reads.
    let read = 0
    const counting = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init)
      const body = response.body!.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.byteLength
            controller.enqueue(chunk)
          },
        }),
      )
      return new Response(body, { status: response.status, headers: response.headers })
    }
    const error = await failure(
      client(virtualTiming(), { maxBytes, fetch: counting }).listGuarantees(),
    )
    expect(error.code).toBe('too_large')
    expect(retries).toEqual([])
    // Refused while streaming: reading stopped within a chunk or two of the cap, not at 60 MB.
    expect(read).toBeGreaterThan(maxBytes)
    expect(read).toBeLessThan(maxBytes + 1024 * 1024)

    sandbox.setFaults([{ kind: 'oversize', mb: 1 }])
    const big = await client().listGuarantees()
    expect(big.received).toBeGreaterThan(100) // the cap ignored: a page far larger than asked
  })

  it('docs/faults.md F13: no headers, or a trickling body, hits the per-request deadline', async () => {
    sandbox.setFaults([{ kind: 'latency', ms: 2000 }])
    const options = { timeoutMs: 200, retry: { maxAttempts: 2 } }
    expect((await failure(client(virtualTiming(), options).listGuarantees())).code).toBe('timeout')
    expect(retries).toEqual(['timeout'])

    sandbox.setFaults([{ kind: 'slow_body', bytes: 16, ms: 100 }])
    retries = []
    expect((await failure(client(virtualTiming(), options).listGuarantees())).code).toBe('timeout')

    sandbox.setFaults([{ kind: 'latency', ms: 30 }])
    expect((await client(virtualTiming(), options).listGuarantees()).items).toHaveLength(10)
  })

  it('docs/faults.md F17: wrong secret → auth, another partner → forbidden, neither retried', async () => {
    const wrong = new PartnerClient({
      fetch: (input, init) => fetch(input, init),
      target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
      credentials: () => Promise.resolve({ apiKey: sandbox.apiKey, apiSecret: 'revoked' }),
      timing: virtualTiming(),
      onRetry: ({ code }) => retries.push(code),
    })
    expect((await failure(wrong.listGuarantees())).code).toBe('auth')
    const other = new PartnerClient({
      fetch: (input, init) => fetch(input, init),
      target: { baseUrl: sandbox.baseUrl, partnerId: 'another-shop' },
      credentials: () => Promise.resolve({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
      timing: virtualTiming(),
    })
    expect((await failure(other.listBrands())).code).toBe('forbidden')
    expect(retries).toEqual([])
  })

  it('docs/faults.md F18: a redirect to another host is refused and that host sees no request', async () => {
    const elsewhere = await scriptedServer([json(200, emptyPage)])
    try {
      sandbox.setFaults([{ kind: 'redirect', location: `${elsewhere.url}/collect` }])
      const error = await failure(client().listGuarantees())
      expect(error.code).toBe('bad_response')
      expect(error.message).toContain('another origin')
      sandbox.setFaults([{ kind: 'redirect' }]) // default: the static host, another origin
      expect((await failure(client().listInspections())).message).toContain(sandbox.staticUrl)
      expect(elsewhere.requests).toEqual([])
    } finally {
      await elsewhere.close()
    }
  })

  it('trickle: every answer, status line first, a few bytes at a time, on every route', async () => {
    // One byte a minute: the first byte arrives alone, whatever the machine's load.
    sandbox.setFaults([{ kind: 'trickle', bytes: 1, ms: 60_000 }])
    for (const path of ['guarantee/brand', 'guarantee', 'inspection']) {
      const first = await firstBytes(`/v1/partner/${sandbox.partnerId}/${path}`)
      expect(first, path).toBe('H')
    }

    // Small steps end: the answer assembled from the drops is the plain one.
    sandbox.setFaults([])
    const plain = await fetch(`${sandbox.baseUrl}/v1/partner/${sandbox.partnerId}/inspection`, {
      headers: { 'X-Service-API-Key': sandbox.apiKey, Authorization: sandbox.apiSecret },
    })
    const plainBody = await plain.text()
    sandbox.setFaults([{ kind: 'trickle', bytes: 64, ms: 1 }])
    const trickled = await fetch(`${sandbox.baseUrl}/v1/partner/${sandbox.partnerId}/inspection`, {
      headers: { 'X-Service-API-Key': sandbox.apiKey, Authorization: sandbox.apiSecret },
    })
    expect(trickled.status).toBe(200)
    expect(trickled.headers.get('content-type')).toBe(plain.headers.get('content-type'))
    expect(await trickled.text()).toBe(plainBody)
    // An error answer trickles too.
    const refused = await fetch(
      `${sandbox.baseUrl}/v1/partner/${sandbox.partnerId}/guarantee/brand`,
      {
        headers: { 'X-Service-API-Key': sandbox.apiKey, Authorization: 'wrong' },
      },
    )
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('UNAUTHORIZED')
  })

  it('trickle: the client gives up with timeout on the brand list as on the others', async () => {
    sandbox.setFaults([{ kind: 'trickle', bytes: 1, ms: 50 }])
    const options = { timeoutMs: 200, retry: { maxAttempts: 1 } }
    expect((await failure(client(virtualTiming(), options).listBrands())).code).toBe('timeout')
    expect((await failure(client(virtualTiming(), options).listGuarantees())).code).toBe('timeout')
  })

  it('applies faults per route and by rate, deterministically', async () => {
    sandbox.setFaults([{ kind: 'error', status: 500, route: 'inspection' }])
    expect((await client().listGuarantees()).items).toHaveLength(10)
    expect((await client().listBrands()).items.length).toBeGreaterThan(200)
    expect((await failure(client().listInspections())).status).toBe(500)

    const outcomes = async (): Promise<string> => {
      sandbox.setFaults([{ kind: 'error', status: 500, rate: 0.5 }])
      const results: string[] = []
      for (let k = 0; k < 20; k += 1) {
        results.push(
          await client()
            .listBrands()
            .then(
              () => 'ok',
              () => 'fail',
            ),
        )
      }
      return results.join(',')
    }
    const first = await outcomes()
    expect(first).toContain('ok')
    expect(first).toContain('fail')
    expect(await outcomes()).toBe(first)
  })
})

describe('fault specs of the CLI', () => {
  it.each([
    ['html502', { kind: 'html502' }],
    ['html502@guarantee:count=2', { kind: 'html502', route: 'guarantee', count: 2 }],
    [
      'rate_limit:retryAfter=30,format=date',
      { kind: 'rate_limit', retryAfter: 30, format: 'date' },
    ],
    ['latency:ms=200,rate=0.25', { kind: 'latency', ms: 200, rate: 0.25 }],
    ['trickle@brand:bytes=1,ms=5000', { kind: 'trickle', route: 'brand', bytes: 1, ms: 5000 }],
    [
      'missing_field@inspection:field=refOrderId',
      { kind: 'missing_field', route: 'inspection', field: 'refOrderId' },
    ],
  ])('%s', (spec, fault) => {
    expect(parseFaultSpec(spec)).toEqual(fault)
  })

  it.each([
    'nope',
    'html502@wallet',
    'latency:ms=-1',
    'latency:rate=2',
    'latency:speed=3',
    'rate_limit:format=week',
  ])('rejects %s', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(/fault/i)
  })
})
