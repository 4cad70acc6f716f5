import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import { AppError } from '../../../src/core/app-error'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { MAX_PAGE_SIZE } from '../../../src/sandbox/query'
import { guaranteePages, inspectionPages } from '../../support/page-walks'

let sandbox: Sandbox
let client: PartnerClient

function clientFor(baseUrl: string, partnerId = sandbox.partnerId): PartnerClient {
  return new PartnerClient({
    fetch: (input, init) => fetch(input, init),
    target: { baseUrl, partnerId },
    credentials: () => Promise.resolve({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
  })
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, size: 250 })
  client = clientFor(sandbox.baseUrl)
})
afterAll(() => sandbox.close())

/** A small node:http server answering each list request with `answer(url)`. */
async function fakePartner(
  answer: (url: URL) => unknown,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const body = JSON.stringify(answer(new URL(req.url ?? '/', 'http://x')))
    res.writeHead(200, { 'Content-Type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

const item = (idx: number) => ({
  idx,
  status: '발급완료',
  productName: `상품 ${idx}`,
  nftCardImg: 'x',
  registeredAt: '2024-01-01 00:00:00',
  modifiedAt: null,
})

describe('PartnerClient lists against the live sandbox', () => {
  it('lists a page of guarantees, parsed and normalised', async () => {
    const page = await client.listGuarantees({ pageSize: 5, sort: 'oldest' })
    expect(page.total).toBe(250)
    expect(page.page).toBe(1)
    expect(page.rejected).toBe(0)
    expect(page.items.map((g) => g.idx)).toEqual([1, 2, 3, 4, 5])
    const first = page.items[0]!
    expect(first).toEqual({
      ...sandbox.dataset.guarantee(0),
      ...nulls(first),
      raw: {},
      warnings: [],
    })
  })

  it('passes filters through and reads both timestamp spellings of inspections', async () => {
    const odd = Array.from({ length: 250 }, (_, i) => sandbox.dataset.inspection(i)).find(
      (i) => 'registeredAtAt' in i,
    )
    expect(odd).toBeDefined()
    const day = odd!.registeredAtAt!.slice(0, 10)
    const page = await client.listInspections({ from: day, to: day, pageSize: 100 })
    const parsed = page.items.find((i) => i.idx === odd!.idx)
    expect(parsed?.registeredAt).toBe(odd!.registeredAtAt)
    expect(parsed?.modifiedAt).toBe(odd!.modifiedAtAt)
    expect(parsed?.warnings).toEqual([])
    expect(parsed?.raw).toEqual({})
    expect(page.items.every((i) => i.registeredAt?.startsWith(day))).toBe(true)

    const cancelled = await client.listGuarantees({ nftStatus: 'cancel', pageSize: 100 })
    expect(cancelled.items.every((g) => g.status === '발급취소')).toBe(true)
  })

  it('maps a 400 to bad_request with the service message', async () => {
    const error = await client.listGuarantees({ from: '2024-13-01' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('bad_request')
    expect((error as AppError).message).toContain('from must be a date')
  })

  it('maps 403 for another partner to forbidden', async () => {
    const error = await clientFor(sandbox.baseUrl, 'other-shop')
      .listInspections()
      .catch((e: unknown) => e)
    expect((error as AppError).code).toBe('forbidden')
  })
})

describe('page walker', () => {
  it('discovers the sandbox page-size cap and walks every record exactly once', async () => {
    const walker = guaranteePages(client, { sort: 'oldest' })
    const idxs: number[] = []
    const sizes: number[] = []
    for await (const page of walker) {
      idxs.push(...page.items.map((g) => g.idx))
      sizes.push(page.pageSize)
    }
    expect(idxs).toEqual(Array.from({ length: 250 }, (_, k) => k + 1))
    expect(sizes).toEqual([MAX_PAGE_SIZE, MAX_PAGE_SIZE, MAX_PAGE_SIZE])
    expect(walker.summary).toMatchObject({
      end: 'complete',
      pages: 3,
      seen: 250,
      total: 250,
      pageSize: MAX_PAGE_SIZE,
      totalChanged: false,
    })
  })

  it('walks a filtered list and ends at once when nothing matches', async () => {
    const member = sandbox.dataset.inspection(3).refUserId
    const seen: string[] = []
    for await (const page of inspectionPages(client, { refUserId: member }, { pageSize: 2 })) {
      seen.push(...page.items.map((i) => i.refUserId ?? ''))
    }
    expect(seen.length).toBeGreaterThan(0)
    expect(new Set(seen)).toEqual(new Set([member]))

    const none = inspectionPages(client, { status: '없는상태' })
    for await (const _ of none) throw new Error('no page expected')
    expect(none.summary).toMatchObject({ end: 'empty_page', seen: 0, total: 0 })
  })

  it('throws pagination_stuck when the service ignores page (docs/faults.md F9)', async () => {
    const { url, server } = await fakePartner(() => ({
      total: 30,
      page: 1,
      data: [item(1), item(2)],
    }))
    try {
      const pages: number[] = []
      const error = await (async () => {
        for await (const page of guaranteePages(clientFor(url), {}, { pageSize: 2 }))
          pages.push(page.pageNumber)
      })().catch((e: unknown) => e)
      expect(pages).toEqual([1])
      expect((error as AppError).code).toBe('pagination_stuck')
    } finally {
      server.close()
    }
  })

  it('stops at an empty page before total, and bounds the pages (docs/faults.md F11)', async () => {
    const { url, server } = await fakePartner((u) => {
      const page = Number(u.searchParams.get('page'))
      return { total: 100, page, data: page <= 2 ? [item(page * 2), item(page * 2 + 1)] : [] }
    })
    try {
      const walker = guaranteePages(clientFor(url), {}, { pageSize: 2 })
      let pages = 0
      for await (const _ of walker) pages += 1
      expect(pages).toBe(2)
      expect(walker.summary).toMatchObject({ end: 'empty_page', seen: 4, total: 100 })
    } finally {
      server.close()
    }
    const zero = await fakePartner((u) => ({
      total: 0,
      page: 1,
      data: [item(Number(u.searchParams.get('page')))],
    }))
    try {
      const walker = guaranteePages(clientFor(zero.url), {}, { pageSize: 1 })
      let pages = 0
      for await (const _ of walker) pages += 1
      expect(pages).toBe(1)
      expect(walker.summary?.end).toBe('complete')
    } finally {
      zero.server.close()
    }
  })

  it('reports a changing total and stops after ceil(total/size)+2 pages', async () => {
    let calls = 0
    const { url, server } = await fakePartner((u) => {
      calls += 1
      const page = Number(u.searchParams.get('page'))
      // Each page is new, but the short pages never add up to the (growing) total.
      return { total: 4 + calls, page, data: [item(page)] }
    })
    try {
      const walker = guaranteePages(clientFor(url), {}, { pageSize: 2 })
      let pages = 0
      for await (const _ of walker) pages += 1
      expect(walker.summary?.totalChanged).toBe(true)
      expect(walker.summary?.end).toBe('max_pages')
      // First total 5, page size discovered as 1: at most 5 + 2 pages.
      expect(pages).toBe(7)
    } finally {
      server.close()
    }
  })
})

/** The nulls the client adds for optional fields the sandbox left out. */
function nulls(item: object): Record<string, null> {
  return Object.fromEntries(
    Object.entries(item)
      .filter(([, value]) => value === null)
      .map(([key]) => [key, null]),
  )
}
