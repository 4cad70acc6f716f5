import type { IncomingMessage, ServerResponse } from 'node:http'
import { deflateSync } from 'node:zlib'
import type { CardFacts } from './dataset'
import type { LiveDataset } from './live'

/**
 * The static image host: one card image per guarantee, drawn in code so the
 * sandbox ships no binary files. PNG for most cards (node:zlib deflate) and
 * an animated GIF for some (a small LZW encoder below). Both are
 * deterministic: the same seed and idx give the same bytes.
 */

/**
 * Card size in pixels (the ratio of a payment card).
 * @internal
 */
export const CARD_WIDTH = 320
/** @internal */
export const CARD_HEIGHT = 200
/** Frames of an animated card. */
const GIF_FRAMES = 8

// ---------------------------------------------------------------- drawing

type Rgb = readonly [number, number, number]

/** A 5×7 bitmap font for the characters of brand names, digits and a few signs. */
const FONT: Readonly<Record<string, readonly number[]>> = {
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [30, 1, 1, 14, 1, 1, 30],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  '#': [10, 10, 31, 10, 31, 10, 10],
  '&': [12, 18, 20, 8, 21, 18, 13],
  '.': [0, 0, 0, 0, 0, 12, 12],
  '-': [0, 0, 0, 31, 0, 0, 0],
  "'": [4, 4, 8, 0, 0, 0, 0],
  ' ': [0, 0, 0, 0, 0, 0, 0],
}

/** An RGB canvas with the few primitives a card needs. */
class Canvas {
  readonly pixels: Uint8Array

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height * 3)
  }

  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return
    const at = (y * this.width + x) * 3
    this.pixels[at] = r
    this.pixels[at + 1] = g
    this.pixels[at + 2] = b
  }

  rect(x0: number, y0: number, w: number, h: number, color: Rgb): void {
    for (let y = y0; y < y0 + h; y += 1) for (let x = x0; x < x0 + w; x += 1) this.set(x, y, color)
  }

  /** Draws `text` in the bitmap font; unknown characters become spaces. */
  text(x0: number, y0: number, text: string, scale: number, color: Rgb): void {
    let x = x0
    for (const char of text.toUpperCase()) {
      const rows = FONT[char] ?? FONT[' '] ?? []
      rows.forEach((bits, row) => {
        for (let col = 0; col < 5; col += 1) {
          if (bits & (1 << (4 - col)))
            this.rect(x + col * scale, y0 + row * scale, scale, scale, color)
        }
      })
      x += 6 * scale
    }
  }
}

/** The 16 colours a card uses; GIF frames index into this palette directly. */
function paletteFor(facts: CardFacts): Rgb[] {
  const hue = (facts.brand.idx * 47) % 360
  const base = hsl(hue, 0.45, 0.3)
  const light = hsl(hue, 0.4, 0.42)
  const band: Rgb =
    facts.state === 'complete'
      ? [46, 160, 67]
      : facts.state === 'ready'
        ? [212, 160, 23]
        : [130, 130, 130]
  return [
    base,
    light,
    [245, 240, 225], // text
    [201, 169, 97], // gold
    band,
    hsl(hue, 0.35, 0.22),
    hsl(hue, 0.3, 0.55),
    hsl(hue, 0.25, 0.7),
    [255, 255, 255],
    [20, 20, 20],
    hsl((hue + 180) % 360, 0.4, 0.5),
    hsl(hue, 0.5, 0.36),
    hsl(hue, 0.45, 0.48),
    hsl(hue, 0.4, 0.6),
    hsl(hue, 0.3, 0.8),
    [230, 215, 170],
  ]
}

function hsl(h: number, s: number, l: number): Rgb {
  const k = (n: number): number => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)]
}

/** Draws one card frame as palette indices; `shine` moves a light band across animated cards. */
function drawCard(facts: CardFacts, shine: number | null): Uint8Array {
  const palette = paletteFor(facts)
  const canvas = new Canvas(CARD_WIDTH, CARD_HEIGHT)
  // Draw with palette colours, then map back to indices (exact, since only palette colours are used).
  const color = (i: number): Rgb => palette[i] ?? [0, 0, 0]
  canvas.rect(0, 0, CARD_WIDTH, CARD_HEIGHT, color(0))
  for (let y = 0; y < CARD_HEIGHT; y += 1) {
    if (y % 8 < 4) canvas.rect(0, y, CARD_WIDTH, 1, color(y < CARD_HEIGHT / 2 ? 11 : 5))
  }
  if (shine !== null) {
    for (let y = 0; y < CARD_HEIGHT; y += 1) {
      const x = Math.round(shine - y * 0.4)
      canvas.rect(x, y, 18, 1, color(13))
      canvas.rect(x + 18, y, 6, 1, color(14))
    }
  }
  canvas.rect(6, 6, CARD_WIDTH - 12, 2, color(3))
  canvas.rect(6, CARD_HEIGHT - 8, CARD_WIDTH - 12, 2, color(3))
  canvas.rect(6, 6, 2, CARD_HEIGHT - 12, color(3))
  canvas.rect(CARD_WIDTH - 8, 6, 2, CARD_HEIGHT - 12, color(3))
  canvas.rect(24, 40, 36, 28, color(3)) // the chip
  canvas.rect(28, 44, 28, 20, color(15))
  const name = facts.brand.englishName.trim().slice(0, 22)
  canvas.text(24, 90, name, name.length > 14 ? 2 : 3, color(2))
  canvas.text(24, 140, `${facts.categoryCode} #${facts.idx}`, 2, color(7))
  canvas.rect(CARD_WIDTH - 90, 24, 66, 18, color(4))
  canvas.text(
    CARD_WIDTH - 84,
    28,
    facts.state === 'complete' ? 'NFT' : facts.state === 'ready' ? 'WAIT' : 'VOID',
    2,
    color(8),
  )

  const indices = new Uint8Array(CARD_WIDTH * CARD_HEIGHT)
  const lookup = new Map(palette.map((rgb, i) => [rgb.join(','), i] as const))
  for (let p = 0; p < indices.length; p += 1) {
    const key = `${canvas.pixels[p * 3]},${canvas.pixels[p * 3 + 1]},${canvas.pixels[p * 3 + 2]}`
    indices[p] = lookup.get(key) ?? 0
  }
  return indices
}

// ---------------------------------------------------------------- PNG

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n += 1) {
    let c = n
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** One PNG chunk: length, type, data and CRC-32. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** Encodes palette indices as an 8-bit indexed-colour PNG (PLTE + IDAT, filter 0). */
function encodePng(
  width: number,
  height: number,
  palette: readonly Rgb[],
  indices: Uint8Array,
): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 3 // colour type: indexed
  const raw = Buffer.alloc((width + 1) * height)
  for (let y = 0; y < height; y += 1) {
    raw[y * (width + 1)] = 0 // filter: none
    raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('PLTE', Buffer.from(palette.flat())),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  ])
}

// ---------------------------------------------------------------- GIF

/** GIF's variable-width LZW (GIF89a spec, appendix F), packed into 255-byte sub-blocks. */
function lzw(indices: Uint8Array, minCodeSize: number): Buffer {
  const clear = 1 << minCodeSize
  const end = clear + 1
  const out: number[] = []
  let bitBuffer = 0
  let bitCount = 0
  let codeSize = minCodeSize + 1
  const emit = (code: number): void => {
    bitBuffer |= code << bitCount
    bitCount += codeSize
    while (bitCount >= 8) {
      out.push(bitBuffer & 0xff)
      bitBuffer >>>= 8
      bitCount -= 8
    }
  }
  let table = new Map<number, number>()
  let next = end + 1
  emit(clear)
  let prefix = indices[0] ?? 0
  for (let p = 1; p < indices.length; p += 1) {
    const k = indices[p] ?? 0
    const key = (prefix << 8) | k
    const found = table.get(key)
    if (found !== undefined) {
      prefix = found
      continue
    }
    emit(prefix)
    if (next < 4096) {
      table.set(key, next)
      next += 1
      if (next > 1 << codeSize && codeSize < 12) codeSize += 1
    } else {
      emit(clear)
      table = new Map()
      next = end + 1
      codeSize = minCodeSize + 1
    }
    prefix = k
  }
  emit(prefix)
  emit(end)
  if (bitCount > 0) out.push(bitBuffer & 0xff)
  const blocks: number[] = [minCodeSize]
  for (let i = 0; i < out.length; i += 255) {
    const block = out.slice(i, i + 255)
    blocks.push(block.length, ...block)
  }
  blocks.push(0)
  return Buffer.from(blocks)
}

/** Encodes frames of palette indices as a looping animated GIF89a (16-colour global palette). */
function encodeGif(
  width: number,
  height: number,
  palette: readonly Rgb[],
  frames: readonly Uint8Array[],
  delayCs: number,
): Buffer {
  const parts: Buffer[] = []
  const screen = Buffer.alloc(7)
  screen.writeUInt16LE(width, 0)
  screen.writeUInt16LE(height, 2)
  screen[4] = 0xf3 // global colour table, 8-bit colour resolution, 16 entries (2^(3+1))
  parts.push(Buffer.from('GIF89a', 'ascii'), screen, Buffer.from(palette.slice(0, 16).flat()))
  // NETSCAPE2.0 application extension: loop forever.
  parts.push(
    Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 0x03, 0x01, 0x00, 0x00, 0x00]),
  )
  for (const frame of frames) {
    const control = Buffer.from([0x21, 0xf9, 0x04, 0x00, delayCs & 0xff, delayCs >> 8, 0x00, 0x00])
    const descriptor = Buffer.alloc(10)
    descriptor[0] = 0x2c
    descriptor.writeUInt16LE(width, 5)
    descriptor.writeUInt16LE(height, 7)
    parts.push(control, descriptor, lzw(frame, 4))
  }
  parts.push(Buffer.from([0x3b]))
  return Buffer.concat(parts)
}

// ---------------------------------------------------------------- host

/** The PNG card of a guarantee. */
function cardPng(facts: CardFacts): Buffer {
  return encodePng(CARD_WIDTH, CARD_HEIGHT, paletteFor(facts), drawCard(facts, null))
}

/** The animated GIF card of a guarantee: a light band sweeping across. */
function cardGif(facts: CardFacts): Buffer {
  const frames = Array.from({ length: GIF_FRAMES }, (_, f) =>
    drawCard(facts, -40 + (f * (CARD_WIDTH + 120)) / GIF_FRAMES),
  )
  return encodeGif(CARD_WIDTH, CARD_HEIGHT, paletteFor(facts), frames, 12)
}

/** Serves `/cards/<idx>.png` or `/cards/<idx>.gif`, whichever the guarantee's `nftCardImg` names. */
export function handleStatic(live: LiveDataset, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://static.local').pathname
  const match = /^\/cards\/(\d{1,7})\.(png|gif)$/.exec(path)
  const facts = match ? live.cardFacts(Number(match[1])) : null
  if (req.method !== 'GET' || !match || !facts || (match[2] === 'gif') !== facts.animated) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
    res.end('Not found.')
    return
  }
  const body = facts.animated ? cardGif(facts) : cardPng(facts)
  res.writeHead(200, {
    'Content-Type': facts.animated ? 'image/gif' : 'image/png',
    'Content-Length': body.length,
    'Cache-Control': 'public, max-age=86400, immutable',
    'X-Content-Type-Options': 'nosniff',
  })
  res.end(body)
}
