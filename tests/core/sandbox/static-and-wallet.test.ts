import { decode as decodePng } from 'fast-png'
import { GifReader } from 'omggif'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { preSyncUrl, syncUrl } from '../../../src/core/api/wallet-urls'
import { AppError } from '../../../src/core/app-error'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { CARD_HEIGHT, CARD_WIDTH } from '../../../src/sandbox/images'

let sandbox: Sandbox
const REDIRECT = 'https://shop.example/wallet/done?from=desk'

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 2, size: 400 })
})
afterAll(() => sandbox.close())

const target = () => ({ baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId })
const guarantees = () => Array.from({ length: 400 }, (_, i) => sandbox.dataset.guarantee(i))

async function bytes(url: string): Promise<{ response: Response; body: Uint8Array }> {
  const response = await fetch(url)
  return { response, body: new Uint8Array(await response.arrayBuffer()) }
}

describe('card images on the static origin', () => {
  it('serves every nftCardImg from another origin than the API', () => {
    expect(new URL(sandbox.staticUrl).origin).not.toBe(new URL(sandbox.baseUrl).origin)
    expect(guarantees().every((g) => g.nftCardImg.startsWith(`${sandbox.staticUrl}/cards/`))).toBe(
      true,
    )
  })

  it('serves real PNGs that an independent decoder reads, deterministically', async () => {
    const png = guarantees().find((g) => g.nftCardImg.endsWith('.png'))!
    const { response, body } = await bytes(png.nftCardImg)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect([...body.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
    const image = decodePng(body)
    expect([image.width, image.height]).toEqual([CARD_WIDTH, CARD_HEIGHT])
    expect(body.length).toBeLessThan(300 * 1024)
    const again = await bytes(png.nftCardImg)
    expect(Buffer.from(again.body).equals(Buffer.from(body))).toBe(true)
  })

  it('serves real animated GIFs that an independent decoder reads', async () => {
    const gifs = guarantees().filter((g) => g.nftCardImg.endsWith('.gif'))
    expect(gifs.length).toBeGreaterThan(0)
    for (const gif of gifs.slice(0, 5)) {
      const { response, body } = await bytes(gif.nftCardImg)
      expect(response.headers.get('content-type')).toBe('image/gif')
      expect(Buffer.from(body.subarray(0, 6)).toString('ascii')).toBe('GIF89a')
      expect(body.length).toBeLessThan(300 * 1024)
      const reader = new GifReader(body)
      expect([reader.width, reader.height]).toEqual([CARD_WIDTH, CARD_HEIGHT])
      expect(reader.numFrames()).toBeGreaterThan(1)
      expect(reader.loopCount()).toBe(0)
      const first = new Uint8Array(CARD_WIDTH * CARD_HEIGHT * 4)
      const last = new Uint8Array(CARD_WIDTH * CARD_HEIGHT * 4)
      reader.decodeAndBlitFrameRGBA(0, first)
      reader.decodeAndBlitFrameRGBA(reader.numFrames() - 1, last)
      expect(Buffer.from(first).equals(Buffer.from(last))).toBe(false) // it moves
    }
  })

  it('answers 404 for unknown cards and the wrong extension', async () => {
    const png = guarantees().find((g) => g.nftCardImg.endsWith('.png'))!
    expect((await fetch(png.nftCardImg.replace('.png', '.gif'))).status).toBe(404)
    expect((await fetch(`${sandbox.staticUrl}/cards/999999.png`)).status).toBe(404)
    expect((await fetch(`${sandbox.staticUrl}/cards/../../etc/passwd`)).status).toBe(404)
  })
})

describe('wallet pages (operations 4 and 5)', () => {
  const member = () => guarantees().find((g) => g.refUserId)!

  it('pre-sync names the member; Complete redirects to redirectUri with the result', async () => {
    const g = member()
    const url = preSyncUrl(target(), sandbox.apiKey, g.refUserId!, REDIRECT)
    const response = await fetch(url)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain(g.refUserId)
    expect(html).toContain('완료 / Complete')
    const complete = /href="([^"]*\/complete[^"]*)"/.exec(html)?.[1]?.replaceAll('&#38;', '&')
    expect(complete).toBeDefined()
    const done = await fetch(new URL(complete!, sandbox.baseUrl), { redirect: 'manual' })
    expect(done.status).toBe(302)
    const location = new URL(done.headers.get('location')!)
    expect(location.origin + location.pathname).toBe('https://shop.example/wallet/done')
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      from: 'desk',
      result: 'success',
      flow: 'pre-sync',
      refUserId: g.refUserId,
    })
  })

  it('sync checks the token and names the guarantee; Cancel shows a page that returns with result=cancel', async () => {
    const g = member()
    const token = sandbox.tokenFor(g.idx)
    const page = await fetch(
      syncUrl(target(), sandbox.apiKey, g.refUserId!, g.idx, token, REDIRECT),
    )
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(g.refUserId)
    expect(html).toContain(`#${g.idx}`)
    expect(html).toContain(g.nftCardImg)

    const completeUrl = `${syncUrl(target(), sandbox.apiKey, g.refUserId!, g.idx, token, REDIRECT).replace('?', '/complete?')}`
    const done = await fetch(completeUrl, { redirect: 'manual' })
    expect(new URL(done.headers.get('location')!).searchParams.get('guaranteeIdx')).toBe(
      String(g.idx),
    )

    const cancelUrl = completeUrl.replace('/complete?', '/cancel?')
    const cancelled = await (await fetch(cancelUrl)).text()
    expect(cancelled).toContain('result=cancel')
  })

  it('answers invalid-input pages for a wrong token, key, guarantee, member or redirectUri', async () => {
    const g = member()
    const token = sandbox.tokenFor(g.idx)
    const cases: [string, number][] = [
      [syncUrl(target(), sandbox.apiKey, g.refUserId!, g.idx, 'gt_wrong', REDIRECT), 400],
      [
        syncUrl(
          target(),
          sandbox.apiKey,
          g.refUserId!,
          g.idx,
          sandbox.tokenFor(g.idx + 1),
          REDIRECT,
        ),
        400,
      ],
      [syncUrl(target(), 'sbx_key_wrong', g.refUserId!, g.idx, token, REDIRECT), 401],
      [
        syncUrl(
          { ...target(), partnerId: 'other' },
          sandbox.apiKey,
          g.refUserId!,
          g.idx,
          token,
          REDIRECT,
        ),
        401,
      ],
      [syncUrl(target(), sandbox.apiKey, g.refUserId!, 99_999, token, REDIRECT), 404],
      [syncUrl(target(), sandbox.apiKey, `${g.refUserId!}x`, g.idx, token, REDIRECT), 400],
      [syncUrl(target(), sandbox.apiKey, g.refUserId!, g.idx, token, 'javascript:alert(1)'), 400],
      [preSyncUrl(target(), sandbox.apiKey, 'kim', 'not a url'), 400],
    ]
    for (const [url, status] of cases) {
      const response = await fetch(url)
      expect(response.status, url).toBe(status)
      expect(await response.text()).toContain('Invalid request')
    }
  })

  it('escapes the member ID and percent-encodes path segments', async () => {
    const evil = '<img src=x onerror=alert(1)>/../?#'
    const url = preSyncUrl(target(), sandbox.apiKey, evil, REDIRECT)
    expect(new URL(url).pathname).toMatch(/\/wallet\/[^/]+\/pre-sync$/)
    const html = await (await fetch(url)).text()
    expect(html).not.toContain('<img src=x')
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;/../?#')
    expect(() => preSyncUrl(target(), sandbox.apiKey, '..', REDIRECT)).toThrow(AppError)
    expect(
      new URL(syncUrl(target(), 'k', 'm', 5, 't&x=1', 'https://a.example/?q=1')).searchParams.get(
        'token',
      ),
    ).toBe('t&x=1')
  })

  it('the index page lists the demo credentials and guarantee tokens', async () => {
    const html = await (await fetch(`${sandbox.baseUrl}/`)).text()
    for (const text of [
      sandbox.partnerId,
      sandbox.apiKey,
      sandbox.apiSecret,
      sandbox.tokenFor(400),
    ]) {
      expect(html).toContain(text)
    }
  })
})
