import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import type { Sandbox } from '../../../src/sandbox'
import { useSandbox } from '../../support/sandbox'

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await useSandbox()
})
afterAll(() => sandbox.close())

function client(
  overrides: { apiKey?: string; apiSecret?: string; partnerId?: string } = {},
): PartnerClient {
  return new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl: sandbox.baseUrl, partnerId: overrides.partnerId ?? sandbox.partnerId },
    credentials: () =>
      Promise.resolve({
        apiKey: overrides.apiKey ?? sandbox.apiKey,
        apiSecret: overrides.apiSecret ?? sandbox.apiSecret,
      }),
  })
}

describe('brand list over real HTTP against the sandbox', () => {
  it('returns the list in the service order, with trailing whitespace removed from English names', async () => {
    const { items, rejected } = await client().listBrands()
    expect(rejected).toBe(0)
    expect(items.length).toBeGreaterThan(50)
    expect(items.every((brand) => brand.englishName === brand.englishName.trimEnd())).toBe(true)
    const names = items.map((brand) => brand.name)
    expect(names).toEqual([...names].sort(new Intl.Collator('ko').compare))
    const chanel = items.filter((brand) => brand.name === '샤넬')
    expect(chanel.length).toBeGreaterThan(1)
    expect(new Set(chanel.map((brand) => brand.idx)).size).toBe(chanel.length)
  })

  it('fails with auth on a wrong secret, and the error never carries the secret', async () => {
    const wrong = 'not-the-secret-0000'
    const error = await client({ apiSecret: wrong })
      .listBrands()
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'auth', status: 401 })
    expect(
      JSON.stringify({ ...(error as object), message: (error as Error).message }),
    ).not.toContain(wrong)
  })

  it('fails with forbidden when the key belongs to another partner', async () => {
    await expect(client({ partnerId: 'another-shop' }).listBrands()).rejects.toMatchObject({
      code: 'forbidden',
      status: 403,
    })
  })

  it('fails fast with network when nothing listens (connection refused)', async () => {
    const dead = new PartnerClient({
      fetch: globalThis.fetch,
      target: { baseUrl: 'http://127.0.0.1:9', partnerId: 'x' },
      credentials: () => Promise.resolve({ apiKey: 'k', apiSecret: 's' }),
    })
    await expect(dead.listBrands()).rejects.toMatchObject({ code: 'network' })
  })
})
