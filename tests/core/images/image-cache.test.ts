import type { ServerResponse } from 'node:http'
import { SOURCE_IMAGE_INDEX_WORKER } from '../../support/store-worker'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { parseCardPath } from '../../../src/core/images/card-path'
import { ImageCache } from '../../../src/core/images/image-cache'
import { ImageIndex } from '../../../src/core/images/index-client'
import { liveStoreThreads } from '../../../src/core/threads/spawn'
import { nodeImageFs, type ImageFs } from '../../../src/core/images/image-fs'
import { checkImageUrl, createImageHostPolicy } from '../../../src/core/images/url-policy'
import { cardImageSrc } from '../../../src/shared/card-url'
import { tempDir } from '../store/fixtures'
import { bombPng, GIF, makePng, startImageServer } from './image-server'

const PNG = makePng(40, 25)
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
const HTML = Buffer.from('<!doctype html><script>window.__xss=1</script>')

let temp: ReturnType<typeof tempDir>
let host: Awaited<ReturnType<typeof startImageServer>>
let other: Awaited<ReturnType<typeof startImageServer>>

const send = (body: Buffer, type: string) => (res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length })
  res.end(body)
}

beforeEach(async () => {
  temp = tempDir()
  other = await startImageServer({ '/stolen.png': send(PNG, 'image/png') })
  host = await startImageServer({
    '/card.png': send(PNG, 'image/png'),
    '/card2.png': send(makePng(40, 25, 7), 'image/png'),
    '/card3.png': send(makePng(40, 25, 9), 'image/png'),
    '/anim.gif': send(GIF, 'image/gif'),
    '/svg-as-png.png': send(SVG, 'image/png'),
    '/html-as-gif.gif': send(HTML, 'image/gif'),
    '/bomb.png': send(bombPng(), 'image/png'),
    '/endless.png': (res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' })
      res.write(PNG.subarray(0, 33))
      const timer = setInterval(() => {
        if (!res.write(Buffer.alloc(256 * 1024, 1))) return
      }, 1)
      res.on('close', () => clearInterval(timer))
    },
    '/to-other': (res) => {
      res.writeHead(302, { Location: `${other.origin}/stolen.png` })
      res.end()
    },
    '/to-file': (res) => {
      res.writeHead(302, { Location: 'file:///etc/passwd' })
      res.end()
    },
    '/to-metadata': (res) => {
      res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' })
      res.end()
    },
    '/hop': (res) => {
      res.writeHead(302, { Location: '/card.png' })
      res.end()
    },
    '/loop': (res) => {
      res.writeHead(302, { Location: '/loop' })
      res.end()
    },
  })
})
afterEach(async () => {
  await Promise.all([host.close(), other.close()])
  temp.remove()
})

function cache(options: Partial<ConstructorParameters<typeof ImageCache>[0]> = {}): ImageCache {
  return new ImageCache({
    dir: join(temp.dir, 'images'),
    indexThread: SOURCE_IMAGE_INDEX_WORKER,
    fetch: globalThis.fetch,
    policy: () => createImageHostPolicy([host.origin]),
    ...options,
  })
}

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return isAppError(error) ? error.code : `untyped: ${String(error)}`
  }
  return 'no error'
}

function tempFiles(): string[] {
  return readdirSync(join(temp.dir, 'images', 'tmp'))
}

describe('fetching and storing card images', () => {
  it('stores a PNG and a GIF under their content hash and serves them again without the network', async () => {
    const images = cache()
    const png = await images.get(`${host.origin}/card.png`)
    expect(png.name).toMatch(/^[0-9a-f]{64}\.png$/)
    expect(png.mime).toBe('image/png')
    expect(readFileSync(png.file).equals(PNG)).toBe(true)
    const gif = await images.get(`${host.origin}/anim.gif`)
    expect(gif.mime).toBe('image/gif')
    await host.close()
    const again = await images.serve(
      new URL(cardImageSrc('http://x/card', `${host.origin}/card.png`)).pathname.slice(
        '/card'.length,
      ),
    )
    expect(again.ok && again.image.name).toBe(png.name)
    await images.close()
  })

  it('rejects SVG and HTML by their bytes whatever the Content-Type says, and keeps no file (docs/faults.md F30)', async () => {
    const images = cache()
    expect(await failure(images.get(`${host.origin}/svg-as-png.png`))).toBe('bad_response')
    expect(await failure(images.get(`${host.origin}/html-as-gif.gif`))).toBe('bad_response')
    expect(tempFiles()).toEqual([])
    expect(await images.totalBytes()).toBe(0)
    await images.close()
  })

  it('aborts an endless body at the size cap and refuses bomb dimensions, deleting the temp file (docs/faults.md F31)', async () => {
    const images = cache({ maxImageBytes: 1024 * 1024 })
    expect(await failure(images.get(`${host.origin}/endless.png`))).toBe('too_large')
    expect(await failure(images.get(`${host.origin}/bomb.png`))).toBe('too_large')
    expect(tempFiles()).toEqual([])
    await images.close()
  })

  it('follows a redirect within the image host but re-checks every hop (docs/faults.md F32)', async () => {
    const images = cache()
    expect((await images.get(`${host.origin}/hop`)).mime).toBe('image/png')
    expect(await failure(images.get(`${host.origin}/to-other`))).toBe('invalid_argument')
    expect(other.hits).toEqual([])
    expect(await failure(images.get(`${host.origin}/to-file`))).toBe('invalid_argument')
    expect(await failure(images.get(`${host.origin}/to-metadata`))).toBe('invalid_argument')
    expect(await failure(images.get(`${host.origin}/loop`))).toBe('bad_response')
    await images.close()
  })

  it('evicts the least recently used files beyond the total size cap', async () => {
    let clock = 0
    const images = cache({ maxTotalBytes: PNG.length * 2 + 10, now: () => (clock += 1) })
    const first = await images.get(`${host.origin}/card.png`)
    const second = await images.get(`${host.origin}/card2.png`)
    await images.byName(second.name)
    const third = await images.get(`${host.origin}/card3.png`)
    expect(existsSync(first.file)).toBe(false)
    expect(existsSync(second.file)).toBe(true)
    expect(existsSync(third.file)).toBe(true)
    expect(await images.totalBytes()).toBeLessThanOrEqual(PNG.length * 2 + 10)
    await images.close()
  })

  it('offline: a missing image fails once, then answers from memory without a storm of requests', async () => {
    const images = cache()
    const url = `${host.origin}/card.png`
    await host.close()
    expect(await failure(images.get(url))).toBe('network')
    expect(await failure(images.get(url))).toBe('network')
    const served = await images.serve(`/u/${Buffer.from(url).toString('base64url')}`)
    expect(served).toEqual({ ok: false, status: 502, code: 'network' })
    await images.close()
  })
})

describe('the image-index thread', () => {
  it('ends once it has had no call for a while; the next call starts it again on the same index', async () => {
    const dir = join(temp.dir, 'images')
    mkdirSync(dir, { recursive: true })
    const before = liveStoreThreads()
    const index = new ImageIndex(SOURCE_IMAGE_INDEX_WORKER, dir, { idleMs: 0 })
    const name = `${'a'.repeat(64)}.png`
    try {
      const url = `${host.origin}/card.png`
      expect(await index.store({ name, size: 10, url, now: 1, maxTotalBytes: 1000 })).toEqual([])
      // Nothing more asked: the thread (its heap and its connection) goes.
      await vi.waitFor(() => expect(liveStoreThreads()).toBe(before), { timeout: 10_000 })
      expect(await index.nameOfUrl(url)).toBe(name)
      expect(await index.totalBytes()).toBe(10)
    } finally {
      await index.close()
    }
  })
})

describe('write errors in the image cache (docs/faults.md F25)', () => {
  function failingFs(code: string): ImageFs {
    return {
      ...nodeImageFs,
      async create(path) {
        const file = await nodeImageFs.create(path)
        let written = 0
        return {
          async write(chunk) {
            written += chunk.byteLength
            if (written > 64) throw Object.assign(new Error(`${code}: write failed`), { code })
            await file.write(chunk)
          },
          close: () => file.close(),
        }
      },
    }
  }

  it('disk full: disk_full, temp file removed, nothing served', async () => {
    const images = cache({ fs: failingFs('ENOSPC') })
    expect(await failure(images.get(`${host.origin}/card.png`))).toBe('disk_full')
    expect(tempFiles()).toEqual([])
    expect(await images.totalBytes()).toBe(0)
    await images.close()
  })

  it('I/O error: internal, temp file removed', async () => {
    const images = cache({ fs: failingFs('EIO') })
    expect(await failure(images.get(`${host.origin}/card.png`))).toBe('internal')
    expect(tempFiles()).toEqual([])
    await images.close()
  })
})

describe('URL policy and the shared path resolver', () => {
  const policy = createImageHostPolicy(['https://static.example.com', 'http://127.0.0.1:4011'])

  it.each([
    'file:///etc/passwd',
    'data:image/png;base64,AAAA',
    'javascript:alert(1)',
    'http://static.example.com/a.png',
    'https://127.0.0.1/a.png',
    'http://169.254.169.254/latest',
    'https://static.example.com.evil.com/a.png',
    'https://user:pw@static.example.com/a.png',
    'http://127.0.0.1:4012/a.png',
    'not a url',
  ])('refuses %s before any request', (url) => {
    expect(() => checkImageUrl(url, policy)).toThrow()
  })

  it('accepts the profile image host and the sandbox loopback host', () => {
    expect(checkImageUrl('https://static.example.com/c/1.png', policy).pathname).toBe('/c/1.png')
    expect(checkImageUrl('http://127.0.0.1:4011/c/1.gif', policy).port).toBe('4011')
    expect(() => createImageHostPolicy(['http://static.example.com'])).toThrow(/https/)
  })

  it.each([
    '/../index.sqlite',
    '/%2e%2e/index.sqlite',
    '/..%5cindex.sqlite',
    '/etc/passwd',
    '//etc/passwd',
    '/index.sqlite',
    `/${'a'.repeat(64)}.svg`,
    `/${'A'.repeat(64)}.png`,
    `/tmp/${'a'.repeat(64)}.png`,
    '/u/',
    '/u/../../x',
    '',
  ])('resolves nothing for %s (docs/faults.md F33)', (path) => {
    expect(parseCardPath(path)).toBeNull()
  })

  it('resolves hashed names and encoded URLs', () => {
    expect(parseCardPath(`/${'a'.repeat(64)}.png`)).toEqual({
      kind: 'file',
      name: `${'a'.repeat(64)}.png`,
    })
    const src = cardImageSrc('card://image', 'https://static.example.com/c/1.png?v=2')
    expect(parseCardPath(new URL(src).pathname)).toEqual({
      kind: 'url',
      url: 'https://static.example.com/c/1.png?v=2',
    })
  })
})
