/**
 * Image type by magic bytes, never by `Content-Type` or file name (FAULTS
 * row 30): only PNG, GIF, JPEG and WebP are accepted, so an SVG or HTML file
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

/** Width and height read from the header, or null when the header does not say (yet). */
export function imageDimensions(
  head: Uint8Array,
  type: ImageType,
): { width: number; height: number } | null {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength)
  switch (type.ext) {
    case 'png':
      // IHDR is always the first chunk: width and height at offsets 16 and 20, big-endian.
      return head.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null
    case 'gif':
      return head.length >= 10
        ? { width: view.getUint16(6, true), height: view.getUint16(8, true) }
        : null
    case 'webp':
      return webpDimensions(head, view)
    case 'jpg':
      return jpegDimensions(head, view)
  }
}

function webpDimensions(
  head: Uint8Array,
  view: DataView,
): { width: number; height: number } | null {
  if (head.length < 30) return null
  const chunk = ascii(head, 12, 4)
  if (chunk === 'VP8X') {
    const width = 1 + (head[24]! | (head[25]! << 8) | (head[26]! << 16))
    const height = 1 + (head[27]! | (head[28]! << 8) | (head[29]! << 16))
    return { width, height }
  }
  if (chunk === 'VP8 ') {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff }
  }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  return null
}

function jpegDimensions(
  head: Uint8Array,
  view: DataView,
): { width: number; height: number } | null {
  let offset = 2
  while (offset + 9 < head.length) {
    if (head[offset] !== 0xff) return null
    const marker = head[offset + 1]!
    if (marker === 0xff) {
      offset += 1
      continue
    }
    const length = view.getUint16(offset + 2)
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) }
    }
    offset += 2 + length
  }
  return null
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length))
}
