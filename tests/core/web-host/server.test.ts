import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request, type ClientRequest } from 'node:http'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startWebHost, type WebHost } from '../../../src/web-host/server'
import { rendererPath } from '../../../src/core/security/renderer-files'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { openConfFile } from '../../../src/core/settings/conf-file'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../../support/store-worker'
import { MAX_ARGS_BYTES } from '../../../src/core/router'

let core: BootedCore
let host: WebHost
let root: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ad-webhost-'))
  const rendererDir = join(root, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(rendererDir, 'assets', 'index-D03wygt0.js'), 'console.log(2)')
  writeFileSync(join(rendererDir, '.env'), 'SECRET=1')
  writeFileSync(join(root, 'package.json'), '{"name":"outside"}')
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: join(root, 'data'),
    host: 'web',
    version: '0.0.0',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    sandbox: { size: 50 },
  })
  host = await startWebHost({ router: core.router, events: core.events, rendererDir })
})

afterAll(async () => {
  await host.close()
  await core.close()
})

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw request, so Host and Origin can be set to anything (fetch forbids a custom Host). */
function raw(options: {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
  /** Writes the body itself (e.g. in chunks) and ends the request. */
  send?: (req: ClientRequest) => void
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${host.port}`, ...options.headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    if (options.send) options.send(req)
    else req.end(options.body)
  })
}

function ipc(
  channel: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return raw({
    method: 'POST',
    path: `/ipc/${channel}`,
    headers: { 'content-type': 'application/json', 'x-app-token': host.token, ...headers },
    body: JSON.stringify(body),
  })
}

describe('web host', () => {
  it('listens on 127.0.0.1 only and refuses any other address (docs/faults.md F48)', async () => {
    expect((host.server.address() as { address: string }).address).toBe('127.0.0.1')
    await expect(
      startWebHost({
        router: core.router,
        events: core.events,
        rendererDir: root,
        bindAddress: '0.0.0.0',
      }),
    ).rejects.toThrow(/127\.0\.0\.1 only/)
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`)
  })

  it('carries the router: brands.search answers the sandbox brands', async () => {
    expect((await ipc('brands.refresh', {})).status).toBe(200)
    const answer = await ipc('brands.search', { query: '샤넬' })
    expect(answer.status).toBe(200)
    const parsed = JSON.parse(answer.body) as { ok: boolean; value: { items: { name: string }[] } }
    expect(parsed.ok).toBe(true)
    expect(parsed.value.items.map((item) => item.name)).toEqual(['샤넬', '샤넬'])
  })

  it('answers router errors in the same {ok:false,error} shape as Electron IPC (docs/faults.md F35)', async () => {
    const bad = await ipc('brands.search', { query: 7, extra: true })
    expect(bad.status).toBe(200)
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    const unknown = await ipc('shell.exec', {})
    expect(JSON.parse(unknown.body)).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
    const garbage = await raw({
      method: 'POST',
      path: '/ipc/brands.search',
      headers: { 'content-type': 'application/json', 'x-app-token': host.token },
      body: '{not json',
    })
    expect(garbage.status).toBe(400)
    expect(JSON.parse(garbage.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    })
    const huge = await ipc('brands.search', { query: 'x'.repeat(100_000) })
    expect(huge.status).toBe(413)
  })

  describe('a body over the limit gets a 413 with a JSON error, not a reset connection', () => {
    const expected = {
      ok: false,
      error: {
        code: 'invalid_argument',
        message: `Arguments are larger than ${MAX_ARGS_BYTES} bytes.`,
      },
    }

    it.each([
      ['just over the limit', MAX_ARGS_BYTES + 1],
      ['1 MB', 1024 * 1024],
      ['32 MB', 32 * 1024 * 1024],
    ])('%s, sent with fetch', async (_name, size) => {
      const response = await fetch(`http://127.0.0.1:${host.port}/ipc/brands.search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-token': host.token },
        body: JSON.stringify({ query: 'x'.repeat(size) }),
      })
      expect(response.status).toBe(413)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await response.json()).toEqual(expected)
    })

    it('streamed in chunks without a Content-Length', async () => {
      const chunk = 'x'.repeat(64 * 1024)
      const answer = await raw({
        method: 'POST',
        path: '/ipc/brands.search',
        headers: {
          'content-type': 'application/json',
          'x-app-token': host.token,
          'transfer-encoding': 'chunked',
        },
        send: (req) => {
          let sent = 0
          const pump = (): void => {
            while (sent < 8 * 1024 * 1024) {
              sent += chunk.length
              if (!req.write(chunk)) {
                req.once('drain', pump)
                return
              }
            }
            req.end()
          }
          pump()
        },
      })
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.body)).toEqual(expected)
    })

    it('the connection stays usable for the next call', async () => {
      expect((await ipc('brands.search', { query: 'x'.repeat(200_000) })).status).toBe(413)
      expect((await ipc('brands.search', { query: '샤넬' })).status).toBe(200)
    })
  })

  it('requires the token: missing or wrong → 401 (docs/faults.md F43)', async () => {
    expect((await ipc('brands.search', {}, { 'x-app-token': '' })).status).toBe(401)
    expect(
      (
        await ipc(
          'brands.search',
          {},
          { 'x-app-token': host.token.slice(0, -1) + (host.token.endsWith('A') ? 'B' : 'A') },
        )
      ).status,
    ).toBe(401)
    expect((await ipc('brands.search', {}, { 'x-app-token': host.token + 'x' })).status).toBe(401)
    const noToken = await raw({
      method: 'POST',
      path: '/ipc/brands.search',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(noToken.status).toBe(401)
    expect(noToken.body).not.toContain(host.token)
    expect((await raw({ path: '/events' })).status).toBe(401)
  })

  it.each(['http://evil.example', 'null', `http://127.0.0.1:${1}`, 'https://127.0.0.1'])(
    'refuses a foreign Origin %s with 403 and no CORS headers (docs/faults.md F44)',
    async (origin) => {
      const answer = await ipc('brands.search', {}, { origin })
      expect(answer.status).toBe(403)
      expect(
        Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([])
    },
  )

  it('accepts its own origin, and refuses every preflight', async () => {
    expect(
      (await ipc('brands.search', {}, { origin: `http://127.0.0.1:${host.port}` })).status,
    ).toBe(200)
    expect(
      (await ipc('brands.search', {}, { origin: `http://localhost:${host.port}` })).status,
    ).toBe(200)
    const preflight = await raw({
      method: 'OPTIONS',
      path: '/ipc/brands.search',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(403)
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
  })

  it.each([
    'attacker.example:PORT',
    'attacker.example',
    '127.0.0.1',
    '127.0.0.1:1',
    'localhost.attacker.example:PORT',
  ])('refuses Host %s (DNS rebinding, docs/faults.md F45)', async (hostHeader) => {
    const answer = await ipc(
      'brands.search',
      {},
      { host: hostHeader.replace('PORT', String(host.port)) },
    )
    expect(answer.status).toBe(403)
    const page = await raw({
      path: '/',
      headers: { host: hostHeader.replace('PORT', String(host.port)) },
    })
    expect(page.status).toBe(403)
  })

  it('accepts Host localhost and [::1] on its port', async () => {
    expect((await ipc('app.info', {}, { host: `localhost:${host.port}` })).status).toBe(200)
    expect((await ipc('app.info', {}, { host: `[::1]:${host.port}` })).status).toBe(200)
  })

  it('rejects simple cross-site requests: text/plain POST, form POST, GET on /ipc (docs/faults.md F46)', async () => {
    const plain = await raw({
      method: 'POST',
      path: '/ipc/brands.refresh',
      headers: { 'content-type': 'text/plain', 'x-app-token': host.token },
      body: '{}',
    })
    expect(plain.status).toBe(415)
    const form = await raw({
      method: 'POST',
      path: '/ipc/brands.refresh',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-app-token': host.token },
      body: 'a=1',
    })
    expect(form.status).toBe(415)
    expect(
      (await raw({ path: '/ipc/brands.refresh', headers: { 'x-app-token': host.token } })).status,
    ).toBe(405)
  })

  it('serves the renderer with CSP and nosniff', async () => {
    const page = await raw({ path: '/' })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>app</title>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect((await raw({ path: '/assets/app.js' })).headers['content-type']).toMatch(/javascript/)
  })

  it('answers an unchanged renderer file with an empty 304, a changed one in full', async () => {
    const first = await raw({ path: '/assets/app.js' })
    const etag = first.headers['etag']
    expect(first.status).toBe(200)
    expect(first.headers['cache-control']).toBe('no-cache')
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/)
    const again = await raw({ path: '/assets/app.js', headers: { 'if-none-match': String(etag) } })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
    expect(again.headers['content-security-policy']).toContain("script-src 'self'")
    const stale = await raw({ path: '/assets/app.js', headers: { 'if-none-match': '"old-tag"' } })
    expect(stale.status).toBe(200)
    expect(stale.body).toBe('console.log(1)')
    // Another file's tag does not stand for this one.
    const other = await raw({ path: '/', headers: { 'if-none-match': String(etag) } })
    expect(other.status).toBe(200)
    expect(other.body).toContain('<title>app</title>')
  })

  it("caches the build's hashed files for good, and asks again for the page and unhashed files", async () => {
    const hashed = await raw({ path: '/assets/index-D03wygt0.js' })
    expect(hashed.status).toBe(200)
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(hashed.headers['content-security-policy']).toContain("script-src 'self'")
    expect((await raw({ path: '/' })).headers['cache-control']).toBe('no-cache')
    expect((await raw({ path: '/index.html' })).headers['cache-control']).toBe('no-cache')
    expect((await raw({ path: '/assets/app.js' })).headers['cache-control']).toBe('no-cache')
  })

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%5cpackage.json',
    '/assets/..%5c..%5cpackage.json',
    '/.env',
    '/.env?raw??',
    '/%2eenv',
    '/assets/../.env',
    '//etc/passwd',
    '/@fs/etc/passwd',
    '/%00index.html',
    '/%E0%A4%A',
    '/assets',
  ])('does not serve %s (docs/faults.md F47)', async (path) => {
    const answer = await raw({ path })
    expect(answer.status).toBe(404)
    expect(answer.body).not.toContain('outside')
    expect(answer.body).not.toContain('SECRET')
  })

  it('resolves only files inside the renderer folder', () => {
    expect(rendererPath('/srv/app', '/index.html')).toBe('/srv/app/index.html')
    expect(rendererPath('/srv/app', '/')).toBe('/srv/app/index.html')
    expect(rendererPath('/srv/app', '/a/../../x')).toBeNull()
    expect(rendererPath('/srv/app', '/a\\..\\x')).toBeNull()
  })

  it('streams core events to token holders', async () => {
    const seen = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/events',
          headers: { host: `127.0.0.1:${host.port}`, 'x-app-token': host.token },
        },
        (res) => {
          res.setEncoding('utf8')
          let text = ''
          res.on('data', (chunk: string) => {
            text += chunk
            if (text.includes(': connected'))
              core.events.emit('data.changed', { resource: 'brands' })
            if (text.includes('data.changed')) {
              req.destroy()
              resolve(text)
            }
          })
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(seen).toContain('data: {"event":"data.changed","payload":{"resource":"brands"}}')
  })
})
