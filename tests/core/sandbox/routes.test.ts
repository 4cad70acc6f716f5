import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { Dataset } from '../../../src/sandbox/dataset'
import { MAX_PAGE_SIZE } from '../../../src/sandbox/query'

let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 4, size: 3000 })
})
afterAll(() => sandbox.close())

function get(path: string, headers?: Record<string, string>): Promise<Response> {
  return fetch(`${sandbox.baseUrl}${path}`, {
    headers: headers ?? { 'X-Service-API-Key': sandbox.apiKey, Authorization: sandbox.apiSecret },
  })
}

const list = (kind: 'guarantee' | 'inspection', query = '') =>
  get(`/v1/partner/${sandbox.partnerId}/${kind}${query}`)

interface Envelope {
  total: number
  page: number
  data: Record<string, unknown>[]
}

describe('sandbox list routes', () => {
  it('answers the envelope with the spec defaults: page 1, 10 items, newest first', async () => {
    for (const kind of ['guarantee', 'inspection'] as const) {
      const response = await list(kind)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const body = (await response.json()) as Envelope
      expect(body.total).toBe(3000)
      expect(body.page).toBe(1)
      expect(body.data.map((item) => item.idx)).toEqual(
        Array.from({ length: 10 }, (_, k) => 3000 - k),
      )
    }
  })

  it('sorts oldest first, pages, and caps pageSize at the documented maximum', async () => {
    const oldest = (await (
      await list('guarantee', '?sort=oldest&page=3&pageSize=5')
    ).json()) as Envelope
    expect(oldest.page).toBe(3)
    expect(oldest.data.map((item) => item.idx)).toEqual([11, 12, 13, 14, 15])
    const big = (await (await list('inspection', '?pageSize=1000')).json()) as Envelope
    expect(big.data).toHaveLength(MAX_PAGE_SIZE)
    const past = (await (await list('guarantee', '?page=9999')).json()) as Envelope
    expect(past).toEqual({ total: 3000, page: 9999, data: [] })
  })

  it('filters by member, state, label and inclusive dates', async () => {
    const member = sandbox.dataset.inspection(0).refUserId
    const mine = (await (
      await list('inspection', `?refUserId=${encodeURIComponent(member)}&pageSize=100`)
    ).json()) as Envelope
    expect(mine.total).toBeGreaterThan(0)
    expect(mine.data.every((item) => item.refUserId === member)).toBe(true)

    const ready = (await (
      await list('guarantee', '?nftStatus=cancel&pageSize=100')
    ).json()) as Envelope
    expect(ready.total).toBeGreaterThan(0)
    expect(ready.data.every((item) => item.status === '발급취소')).toBe(true)

    const shipped = (await (
      await list('inspection', `?status=${encodeURIComponent('감정승인(배송중)')}&pageSize=100`)
    ).json()) as Envelope
    expect(shipped.data.every((item) => item.inspectionStatus === '감정승인(배송중)')).toBe(true)

    const day = sandbox.dataset.guarantee(1500).registeredAt.slice(0, 10)
    const oneDay = (await (
      await list('guarantee', `?from=${day}&to=${day}&pageSize=100`)
    ).json()) as Envelope
    expect(oneDay.total).toBeGreaterThan(0)
    expect(oneDay.data.map((item) => item.idx)).toContain(1501)
    expect(oneDay.data.every((item) => String(item.registeredAt).startsWith(day))).toBe(true)
  })

  it('rejects bad values with 400 and a {code, message} body naming the parameter', async () => {
    const cases: [string, 'guarantee' | 'inspection', string][] = [
      ['?page=0', 'guarantee', 'page'],
      ['?page=abc', 'inspection', 'page'],
      ['?pageSize=0', 'guarantee', 'pageSize'],
      ['?pageSize=-5', 'inspection', 'pageSize'],
      ['?sort=newest', 'guarantee', 'sort'],
      ['?from=2024-02-30', 'guarantee', 'from'],
      ['?to=yesterday', 'inspection', 'to'],
      ['?from=2024-05-01&to=2024-04-01', 'guarantee', 'from'],
      ['?nftStatus=issued', 'guarantee', 'nftStatus'],
      ['?page=1&page=2', 'guarantee', 'page'],
      ['?refUserId=', 'inspection', 'refUserId'],
    ]
    for (const [query, kind, name] of cases) {
      const response = await list(kind, query)
      expect(response.status, query).toBe(400)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('INVALID_PARAMETER')
      expect(body.message).toContain(name)
    }
  })

  it('checks the two headers: 401 when missing or wrong, 403 for another partner', async () => {
    const path = `/v1/partner/${sandbox.partnerId}/guarantee`
    expect((await get(path, {})).status).toBe(401)
    expect((await get(path, { 'X-Service-API-Key': sandbox.apiKey })).status).toBe(401)
    expect(
      (await get(path, { 'X-Service-API-Key': sandbox.apiKey, Authorization: 'nope' })).status,
    ).toBe(401)
    const other = await get('/v1/partner/someone-else/inspection')
    expect(other.status).toBe(403)
    expect(await other.json()).toMatchObject({ code: 'FORBIDDEN' })
  })

  it('answers a filtered page of a million records by making the page only', async () => {
    const big = await startSandbox({ seed: 1, size: 1_000_000 })
    try {
      const headers = { 'X-Service-API-Key': big.apiKey, Authorization: big.apiSecret }
      // Records are made when a page shows them: the filter and the page are found by
      // arithmetic over the data's patterns, never by making the records before them.
      const made = vi.spyOn(Dataset.prototype, 'guarantee')
      const response = await fetch(
        `${big.baseUrl}/v1/partner/${big.partnerId}/guarantee?page=432&pageSize=100&nftStatus=ready&from=2023-01-01`,
        { headers },
      )
      const body = (await response.json()) as Envelope
      expect(body.data).toHaveLength(100)
      const states = body.data.map((item) => big.dataset.stateOf(Number(item['idx']) - 1))
      expect(new Set(states)).toEqual(new Set(['ready']))
      expect(made).toHaveBeenCalledTimes(100)
    } finally {
      vi.restoreAllMocks()
      await big.close()
    }
  })
})
