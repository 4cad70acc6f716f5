import type { ServerResponse } from 'node:http'
import { SOURCE_IMAGE_INDEX_WORKER } from '../../support/store-worker'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { ImageCache } from '../../../src/core/images/image-cache'
import { imageGeometry, sniffImage } from '../../../src/core/images/magic'
import { createImageHostPolicy } from '../../../src/core/images/url-policy'
import { tempDir } from '../store/fixtures'
import { makePng, startImageServer } from './image-server'

/** A PNG whose IHDR declares `width`×`height` (the pixel data stays 1×1: only the header matters). */
function pngDeclaring(width: number, height: number, frames = 0): Buffer {
  const png = makePng(1, 1)
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  if (frames === 0) return png
  // An APNG's acTL chunk right after IHDR (8 + 25 bytes): num_frames, num_plays.
  const actl = Buffer.alloc(20)
  actl.writeUInt32BE(8, 0)
  actl.write('acTL', 4, 'latin1')
  actl.writeUInt32BE(frames, 8)
  return Buffer.concat([png.subarray(0, 33), actl, png.subarray(33)])
}

/** A GIF89a with a `width`×`height` screen and `frames` full-size image descriptors. */
function animatedGif(width: number, height: number, frames: number): Buffer {
  const header = Buffer.alloc(13)
  header.write('GIF89a', 0, 'latin1')
  header.writeUInt16LE(width, 6)
  header.writeUInt16LE(height, 8)
  const parts = [header]
  for (let i = 0; i < frames; i += 1) {
    const control = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00])
    const descriptor = Buffer.alloc(10)
    descriptor[0] = 0x2c
    descriptor.writeUInt16LE(width, 5)
    descriptor.writeUInt16LE(height, 7)
    // LZW minimum code size, one data sub-block, the terminator.
    parts.push(control, descriptor, Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00]))
  }
  parts.push(Buffer.from([0x3b]))
  return Buffer.concat(parts)
}

/** A JPEG whose frame header (SOF0, `width`×`height`) comes after `padding` bytes of APP segments. */
function jpegWithLateSof(width: number, height: number, padding: number): Buffer {
  const parts = [Buffer.from([0xff, 0xd8])]
  for (let left = padding; left > 0; left -= 60_000) {
    const size = Math.min(60_000, left)
    const app = Buffer.alloc(4 + size, 0x20)
    app[0] = 0xff
    app[1] = 0xe1
    app.writeUInt16BE(size + 2, 2)
    parts.push(app)
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01, 0x01, 0x11, 0x00])
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  parts.push(sof, Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]))
  parts.push(Buffer.from([0x00, 0xff, 0xd9]))
  return Buffer.concat(parts)
}

/** An extended (VP8X) WebP with a `width`×`height` canvas and `frames` ANMF chunks. */
function animatedWebp(width: number, height: number, frames: number): Buffer {
  const chunk = (kind: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8)
    head.write(kind, 0, 'latin1')
    head.writeUInt32LE(data.length, 4)
    return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)])
  }
  const vp8x = Buffer.alloc(10)
  vp8x[0] = 0x02 // animation
  vp8x.writeUIntLE(width - 1, 4, 3)
  vp8x.writeUIntLE(height - 1, 7, 3)
  const body = [Buffer.from('WEBP', 'latin1'), chunk('VP8X', vp8x), chunk('ANIM', Buffer.alloc(6))]
  for (let i = 0; i < frames; i += 1) body.push(chunk('ANMF', Buffer.alloc(16)))
  const riff = Buffer.concat(body)
  const head = Buffer.alloc(8)
  head.write('RIFF', 0, 'latin1')
  head.writeUInt32LE(riff.length, 4)
  return Buffer.concat([head, riff])
}

const IMAGES: Record<string, Buffer> = {
  // 7000×7000 is within the 10,000-per-side cap but 49 MP to decode.
  '/wide.png': pngDeclaring(7000, 7000),
  '/frames.png': pngDeclaring(2000, 2000, 12),
  '/frames.gif': animatedGif(2000, 2000, 12),
  '/late-sof.jpg': jpegWithLateSof(8000, 6000, 100_000),
  '/frames.webp': animatedWebp(3000, 3000, 5),
  // Signature and the start of IHDR: a PNG whose size cannot be read.
  '/truncated.png': makePng(40, 25).subarray(0, 20),
  '/ok.png': pngDeclaring(1600, 1000),
  '/ok.gif': animatedGif(320, 200, 10),
  '/ok.jpg': jpegWithLateSof(320, 200, 100_000),
  '/ok.webp': animatedWebp(320, 200, 10),
}

let temp: ReturnType<typeof tempDir>
let host: Awaited<ReturnType<typeof startImageServer>>
let images: ImageCache

beforeAll(async () => {
  temp = tempDir()
  const routes: Record<string, (res: ServerResponse) => void> = {}
  for (const [path, body] of Object.entries(IMAGES)) {
    routes[path] = (res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' })
      res.end(body)
    }
  }
  host = await startImageServer(routes)
  images = new ImageCache({
    dir: join(temp.dir, 'images'),
    indexThread: SOURCE_IMAGE_INDEX_WORKER,
    fetch: globalThis.fetch,
    policy: () => createImageHostPolicy([host.origin]),
  })
})
afterAll(async () => {
  await images.close()
  await host.close()
  temp.remove()
})

describe('card images that would exhaust memory (docs/faults.md F31)', () => {
  it.each([
    ['/wide.png', /7000×7000 pixels \(49 MP/],
    ['/frames.png', /2000×2000 pixels in 12 frames \(48 MP/],
    ['/frames.gif', /2000×2000 pixels in 12 frames/],
    ['/late-sof.jpg', /8000×6000 pixels \(48 MP/],
    ['/frames.webp', /3000×3000 pixels in 5 frames \(45 MP/],
    ['/truncated.png', /its size cannot be read/],
  ])('refuses %s as too large to show safely and keeps none of its bytes', async (path, why) => {
    const error = await images.get(`${host.origin}${path}`).catch((caught: unknown) => caught)
    expect(isAppError(error) && error.code).toBe('too_large')
    expect(String((error as Error).message)).toMatch(/^The card image is too large to show safely/)
    expect(String((error as Error).message)).toMatch(why)
    // Hosts answer it with 413, which the card shows as "too large to show safely".
    const served = await images.serve(
      `/u/${Buffer.from(`${host.origin}${path}`).toString('base64url')}`,
    )
    expect(served.ok ? 'served' : served.status).toBe(413)
    expect(readdirSync(join(temp.dir, 'images', 'tmp'))).toEqual([])
    expect(
      readdirSync(join(temp.dir, 'images')).filter((name) => /^[0-9a-f]{64}\./.test(name)),
    ).toEqual([])
  })

  it.each(['/ok.png', '/ok.gif', '/ok.jpg', '/ok.webp'])(
    'keeps %s, whose frames together stay under the cap',
    async (path) => {
      const image = await images.get(`${host.origin}${path}`)
      expect(image.size).toBe(IMAGES[path]?.length)
    },
  )

  it('reads the canvas and frames of each format from the whole file', () => {
    const geometry = (bytes: Buffer) => {
      const type = sniffImage(bytes)
      return type ? imageGeometry(bytes, type) : 'not an image'
    }
    expect(geometry(pngDeclaring(40, 25))).toEqual({ width: 40, height: 25, frames: 1 })
    expect(geometry(pngDeclaring(40, 25, 30))).toEqual({ width: 40, height: 25, frames: 30 })
    expect(geometry(animatedGif(40, 25, 3))).toEqual({ width: 40, height: 25, frames: 3 })
    expect(geometry(animatedWebp(40, 25, 4))).toEqual({ width: 40, height: 25, frames: 4 })
    expect(geometry(jpegWithLateSof(40, 25, 200_000))).toEqual({ width: 40, height: 25, frames: 1 })
    // A JPEG whose scan starts before any frame header never said its size.
    const noSof = Buffer.from([
      0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
    ])
    expect(geometry(noSof)).toBeNull()
    expect(geometry(makePng(40, 25).subarray(0, 20))).toBeNull()
  })
})
