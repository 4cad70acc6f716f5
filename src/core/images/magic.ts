/**
 * Image type by magic bytes, never by `Content-Type` or file name
 * (docs/faults.md F30): only PNG, GIF, JPEG and WebP are accepted, so an SVG or HTML file
 * labelled `image/png` is refused and never served as a script-capable type.
 */

/** An accepted image type. */
export interface ImageType {
  readonly mime: 'image/png' | 'image/gif' | 'image/jpeg' | 'image/webp'
  readonly ext: 'png' | 'gif' | 'jpg' | 'webp'
}

/** Bytes needed to recognise every accepted type. */
export const SNIFF_BYTES = 12

/** The image type of a file's first bytes, or null when it is not an accepted image. */
export function sniffImage(head: Uint8Array): ImageType | null {
  const b = head
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return { mime: 'image/png', ext: 'png' }
  }
  if (b.length >= 6 && ascii(b, 0, 6) === 'GIF87a') return { mime: 'image/gif', ext: 'gif' }
  if (b.length >= 6 && ascii(b, 0, 6) === 'GIF89a') return { mime: 'image/gif', ext: 'gif' }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    return { mime: 'image/jpeg', ext: 'jpg' }
  }
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    return { mime: 'image/webp', ext: 'webp' }
  }
  return null
}

/** What decoding an image costs: its canvas and how many frames an animation has. */
export interface ImageGeometry {
  readonly width: number
  readonly height: number
  /** Frames of an animated GIF, WebP or APNG; 1 for a still image. */
  readonly frames: number
}

/**
 * The canvas size and frame count read from an image's bytes, or null when
 * they cannot be read (a truncated or malformed header). Given only the first
 * bytes of a file it reports what those say (frames counted so far); given
 * the whole file, the whole truth. JPEG markers are scanned until the frame
 * header wherever it is, never only within a fixed window.
 */
export function imageGeometry(bytes: Uint8Array, type: ImageType): ImageGeometry | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const geometry = (() => {
    switch (type.ext) {
      case 'png':
        return pngGeometry(bytes, view)
      case 'gif':
        return gifGeometry(bytes, view)
      case 'webp':
        return webpGeometry(bytes, view)
      case 'jpg':
        return jpegGeometry(bytes, view)
    }
  })()
  return geometry && geometry.width > 0 && geometry.height > 0 ? geometry : null
}

/** Decoded pixels of all frames: width × height × frames. */
export function decodedPixels(geometry: ImageGeometry): number {
  return geometry.width * geometry.height * geometry.frames
}

/** PNG: IHDR must come first; an APNG's `acTL` chunk (before the image data) counts its frames. */
function pngGeometry(b: Uint8Array, view: DataView): ImageGeometry | null {
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') return null
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  let frames = 1
  for (let offset = 8; offset + 8 <= b.length;) {
    const length = view.getUint32(offset)
    const kind = ascii(b, offset + 4, 4)
    if (kind === 'acTL' && offset + 12 <= b.length) frames = Math.max(1, view.getUint32(offset + 8))
    if (kind === 'IDAT' || kind === 'IEND') break
    offset += 12 + length
  }
  return { width, height, frames }
}

/**
 * GIF: the logical screen, and every image descriptor counted by walking the
 * blocks; a frame larger than the screen widens the canvas the decoder needs.
 */
function gifGeometry(b: Uint8Array, view: DataView): ImageGeometry | null {
  if (b.length < 13) return null
  let width = view.getUint16(6, true)
  let height = view.getUint16(8, true)
  let offset = 13 + colorTableBytes(b[10]!)
  let frames = 0
  const skipSubBlocks = (from: number): number => {
    let at = from
    while (at < b.length && b[at] !== 0) at += 1 + b[at]!
    return at + 1
  }
  while (offset < b.length) {
    const block = b[offset]!
    if (block === 0x3b) break
    if (block === 0x21) {
      offset = skipSubBlocks(offset + 2)
    } else if (block === 0x2c) {
      if (offset + 10 > b.length) break
      width = Math.max(width, view.getUint16(offset + 1, true) + view.getUint16(offset + 5, true))
      height = Math.max(height, view.getUint16(offset + 3, true) + view.getUint16(offset + 7, true))
      frames += 1
      offset = skipSubBlocks(offset + 10 + colorTableBytes(b[offset + 9]!) + 1)
    } else {
      break
    }
  }
  return { width, height, frames: Math.max(1, frames) }
}

/** Bytes of a GIF colour table announced by a packed flags byte. */
function colorTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0
}

/** WebP: the canvas of VP8X (its `ANMF` chunks are the frames), or the size of a plain VP8 / VP8L stream. */
function webpGeometry(b: Uint8Array, view: DataView): ImageGeometry | null {
  if (b.length < 30) return null
  const chunk = ascii(b, 12, 4)
  if (chunk === 'VP8X') {
    const width = 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16))
    const height = 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16))
    let frames = 0
    for (let offset = 12; offset + 8 <= b.length;) {
      if (ascii(b, offset, 4) === 'ANMF') frames += 1
      const size = view.getUint32(offset + 4, true)
      offset += 8 + size + (size % 2)
    }
    return { width, height, frames: Math.max(1, frames) }
  }
  if (chunk === 'VP8 ') {
    // The key frame's start code comes before its size.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null
    return {
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff,
      frames: 1,
    }
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null
    const bits = view.getUint32(21, true)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, frames: 1 }
  }
  return null
}

/** JPEG: markers walked segment by segment until a frame header (SOFn); none before the scan → null. */
function jpegGeometry(b: Uint8Array, view: DataView): ImageGeometry | null {
  let offset = 2
  while (offset + 4 <= b.length) {
    if (b[offset] !== 0xff) return null
    const marker = b[offset + 1]!
    if (marker === 0xff) {
      offset += 1
      continue
    }
    // Stand-alone markers (TEM, RSTn) carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2
      continue
    }
    // Start of scan or end of image before any frame header: the size was never said.
    if (marker === 0xda || marker === 0xd9) return null
    const length = view.getUint16(offset + 2)
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > b.length) return null
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7), frames: 1 }
    }
    if (length < 2) return null
    offset += 2 + length
  }
  return null
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length))
}
