import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

/**
 * Draws the app icon (a dark rounded tile with a gold appraisal diamond) as a
 * 512×512 PNG, without image libraries: `npx tsx scripts/make-icon.ts`.
 */
const SIZE = 512
const pixels = Buffer.alloc(SIZE * SIZE * 4)

function inRoundedSquare(x: number, y: number, inset: number, radius: number): boolean {
  const min = inset
  const max = SIZE - inset
  if (x < min || x >= max || y < min || y >= max) return false
  const cx = Math.min(Math.max(x, min + radius), max - radius)
  const cy = Math.min(Math.max(y, min + radius), max - radius)
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2
}

for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const i = (y * SIZE + x) * 4
    if (!inRoundedSquare(x + 0.5, y + 0.5, 24, 96)) continue
    const shade = 31 + Math.round((y / SIZE) * 10)
    let [r, g, b] = [shade, shade - 1, shade - 4]
    const dx = Math.abs(x - 256)
    const dy = Math.abs(y - 262)
    const diamond = dx / 150 + dy / 190
    if (diamond <= 1) {
      const t = (x + y) / (2 * SIZE)
      ;[r, g, b] = [Math.round(214 - 70 * t), Math.round(178 - 68 * t), Math.round(104 - 56 * t)]
      if (diamond > 0.86 || Math.abs(y - 200) < 4) [r, g, b] = [r + 24, g + 22, b + 18]
    }
    pixels[i] = r
    pixels[i + 1] = g
    pixels[i + 2] = b
    pixels[i + 3] = 255
  }
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1))
for (let y = 0; y < SIZE; y++)
  pixels.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4)

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(data: Buffer): number {
  let c = 0xffffffff
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(SIZE, 0)
ihdr.writeUInt32BE(SIZE, 4)
ihdr[8] = 8
ihdr[9] = 6
writeFileSync(
  'resources/icon.png',
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]),
)
