import { writeFileSync } from 'node:fs'
import { deflateSync } from 'node:zlib'
import { pngChunk } from '../src/sandbox/images'

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

const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(SIZE, 0)
ihdr.writeUInt32BE(SIZE, 4)
ihdr[8] = 8
ihdr[9] = 6
writeFileSync(
  'resources/icon.png',
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]),
)
