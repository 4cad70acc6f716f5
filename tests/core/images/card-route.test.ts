import { join } from 'node:path'
import { SOURCE_IMAGE_INDEX_WORKER } from '../../support/store-worker'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { EventBus } from '../../../src/core/events'
import { ImageCache } from '../../../src/core/images/image-cache'
import { createImageHostPolicy } from '../../../src/core/images/url-policy'
import { createRouter } from '../../../src/core/router'
import { cardImageSrc } from '../../../src/shared/card-url'
import { startWebHost, type WebHost } from '../../../src/web-host/server'
import { tempDir } from '../store/fixtures'
import { makePng, startImageServer } from './image-server'

let temp: ReturnType<typeof tempDir>
let images: ImageCache
let web: WebHost
let host: Awaited<ReturnType<typeof startImageServer>>
const PNG = makePng(8, 8)

beforeEach(async () => {
  temp = tempDir()
  host = await startImageServer({
    '/c.png': (res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end(PNG)
    },
    '/evil.png': (res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' })
      res.end('<svg onload="alert(1)"/>')
    },
  })
  images = new ImageCache({
    dir: join(temp.dir, 'images'),
    indexThread: SOURCE_IMAGE_INDEX_WORKER,
    fetch: globalThis.fetch,
    policy: () => createImageHostPolicy([host.origin]),
  })
  web = await startWebHost({
    router: createRouter({} as never),
    events: new EventBus(),
    rendererDir: join(temp.dir, 'renderer'),
    cards: images,
  })
})
afterEach(async () => {
  await web.close()
  await host.close()
  await images.close()
  temp.remove()
})

const base = () => `http://127.0.0.1:${web.port}`

/** The card cookie the web host hands to a token holder with any IPC answer. */
async function cardCookie(): Promise<string> {
  const answer = await fetch(`${base()}/ipc/no.such.channel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-token': web.token },
    body: '{}',
  })
  const set = answer.headers.get('set-cookie') ?? ''
  expect(set).toMatch(/HttpOnly; SameSite=Strict; Path=\/card\//)
  return set.split(';')[0] ?? ''
}

/** GET a card path as the app's page would: with the cookie. */
async function getCard(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(base() + path, { headers: { cookie: await cardCookie(), ...headers } })
}

it('serves a card image with its sniffed type and nosniff, whatever the origin labelled it', async () => {
  const response = await getCard(cardImageSrc('/card', `${host.origin}/c.png`))
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('image/png')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true)
})

it('answers a script disguised as an image with an error, never the bytes (docs/faults.md F30)', async () => {
  const response = await getCard(cardImageSrc('/card', `${host.origin}/evil.png`))
  expect(response.status).toBe(415)
  expect(await response.text()).not.toContain('svg')
})

it.each([
  '/card/../index.html',
  '/card/%2e%2e/images/index.sqlite',
  '/card/..%5cimages%5cindex.sqlite',
  '/card//etc/passwd',
  '/card/images/index.sqlite',
  `/card/u/${Buffer.from('file:///etc/passwd').toString('base64url')}`,
  `/card/u/${Buffer.from('http://169.254.169.254/').toString('base64url')}`,
])('refuses %s (docs/faults.md F32, F33)', async (path) => {
  const response = await getCard(path)
  expect([400, 404]).toContain(response.status)
})

it('refuses a cross-site image request', async () => {
  const response = await getCard(cardImageSrc('/card', `${host.origin}/c.png`), {
    'Sec-Fetch-Site': 'cross-site',
  })
  expect(response.status).toBe(403)
})

it('answers no card image without the cookie a token holder gets (a local user without the token, docs/faults.md F43)', async () => {
  const path = cardImageSrc('/card', `${host.origin}/c.png`)
  expect((await fetch(base() + path)).status).toBe(401)
  const wrong = `ad_card_${web.port}=${'A'.repeat(43)}`
  expect((await fetch(base() + path, { headers: { cookie: wrong } })).status).toBe(401)
  const otherPort = (await cardCookie()).replace(`ad_card_${web.port}=`, 'ad_card_1=')
  expect((await fetch(base() + path, { headers: { cookie: otherPort } })).status).toBe(401)
  expect((await getCard(path)).status).toBe(200)
})
