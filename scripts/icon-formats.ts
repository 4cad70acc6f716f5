/**
 * The icon files the installers need, made from one square RGBA image
 * without image tools: a box-filter downscale, and the Windows `.ico` and
 * macOS `.icns` containers (both hold PNG images as they are).
 */

/** An RGBA image, 8 bits a channel, rows top to bottom. */
export interface Rgba {
  readonly size: number
  readonly data: Uint8Array
}

/** Sizes of the Linux PNG set (`resources/icons/NxN.png`, electron-builder's `linux.icon` folder). */
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512] as const
/** Sizes inside `icon.ico`: the shell's small, list and large views, up to 256 (the most `.ico` holds). */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256] as const
/** `.icns` entries: type code and pixel size (the `@2x` types repeat a size for Retina screens). */
export const ICNS_ENTRIES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['icp6', 64],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
] as const

/**
 * Scales a square image down to `size` by averaging, for each target pixel,
 * the source area it covers (partial pixels weighted by coverage), with
 * alpha-weighted colour so transparent corners leave no dark fringe.
 */
export function downscale(image: Rgba, size: number): Rgba {
  if (size > image.size) throw new Error(`cannot scale ${image.size} px up to ${size} px`)
  const scale = image.size / size
  const out = new Uint8Array(size * size * 4)
  const spans = Array.from({ length: size }, (_, index) => coverage(index * scale, scale))
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      let area = 0
      for (const [sy, wy] of spans[y] ?? []) {
        for (const [sx, wx] of spans[x] ?? []) {
          const i = (sy * image.size + sx) * 4
          const w = wx * wy
          const alpha = (image.data[i + 3] ?? 0) * w
          r += (image.data[i] ?? 0) * alpha
          g += (image.data[i + 1] ?? 0) * alpha
          b += (image.data[i + 2] ?? 0) * alpha
          a += alpha
          area += w
        }
      }
      const o = (y * size + x) * 4
      if (a > 0) {
        out[o] = Math.round(r / a)
        out[o + 1] = Math.round(g / a)
        out[o + 2] = Math.round(b / a)
      }
      out[o + 3] = Math.round(a / area)
    }
  }
  return { size, data: out }
}

/** The source pixels a target pixel starting at `start` and `length` wide covers, with their weights. */
function coverage(start: number, length: number): [number, number][] {
  const end = start + length
  const spans: [number, number][] = []
  for (let pixel = Math.floor(start); pixel < end; pixel++) {
    const weight = Math.min(pixel + 1, end) - Math.max(pixel, start)
    if (weight > 1e-9) spans.push([pixel, weight])
  }
  return spans
}

/** A Windows icon: a directory of PNG images (supported since Windows Vista). */
export function encodeIco(images: readonly { size: number; png: Uint8Array }[]): Buffer {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(images.length, 4)
  const entries: Buffer[] = []
  let offset = 6 + 16 * images.length
  for (const { size, png } of images) {
    if (size > 256) throw new Error('an .ico image is at most 256 px')
    const entry = Buffer.alloc(16)
    entry.writeUInt8(size === 256 ? 0 : size, 0)
    entry.writeUInt8(size === 256 ? 0 : size, 1)
    entry.writeUInt16LE(1, 4)
    entry.writeUInt16LE(32, 6)
    entry.writeUInt32LE(png.length, 8)
    entry.writeUInt32LE(offset, 12)
    entries.push(entry)
    offset += png.length
  }
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => Buffer.from(png))])
}

/** A macOS icon family: `icns`, its length, then each entry's type, length and PNG data. */
export function encodeIcns(entries: readonly { type: string; png: Uint8Array }[]): Buffer {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8)
    head.write(type, 0, 'ascii')
    head.writeUInt32BE(8 + png.length, 4)
    return Buffer.concat([head, Buffer.from(png)])
  })
  const head = Buffer.alloc(8)
  head.write('icns', 0, 'ascii')
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4)
  return Buffer.concat([head, ...parts])
}
