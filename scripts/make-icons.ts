import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { decode, encode } from 'fast-png'
import {
  downscale,
  encodeIcns,
  encodeIco,
  ICNS_ENTRIES,
  ICO_SIZES,
  LINUX_SIZES,
  type Rgba,
} from './icon-formats'

/**
 * Makes the installers' icons from `resources/icon.png` (512×512, drawn by
 * `scripts/make-icon.ts`): `npx tsx scripts/make-icons.ts` writes
 * `resources/icons/NxN.png` (Linux), `resources/icon.ico` (Windows) and
 * `resources/icon.icns` (macOS). The files are committed.
 */
const resources = resolve(import.meta.dirname, '../resources')
const source = decode(readFileSync(resolve(resources, 'icon.png')))
if (source.width !== source.height || source.channels !== 4 || source.depth !== 8) {
  throw new Error('resources/icon.png must be a square 8-bit RGBA image')
}
const master: Rgba = { size: source.width, data: Uint8Array.from(source.data) }

const pngs = new Map<number, Uint8Array>()
const pngOf = (size: number): Uint8Array => {
  let png = pngs.get(size)
  if (!png) {
    const image = size === master.size ? master : downscale(master, size)
    png = encode({ width: size, height: size, data: image.data, channels: 4, depth: 8 })
    pngs.set(size, png)
  }
  return png
}

mkdirSync(resolve(resources, 'icons'), { recursive: true })
for (const size of LINUX_SIZES) {
  writeFileSync(resolve(resources, 'icons', `${size}x${size}.png`), pngOf(size))
}
writeFileSync(
  resolve(resources, 'icon.ico'),
  encodeIco(ICO_SIZES.map((size) => ({ size, png: pngOf(size) }))),
)
writeFileSync(
  resolve(resources, 'icon.icns'),
  encodeIcns(ICNS_ENTRIES.map(([type, size]) => ({ type, png: pngOf(size) }))),
)
