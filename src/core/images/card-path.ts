import { join } from 'node:path'

/**
 * The one resolver behind Electron's `card:` protocol and the web host's
 * `/card/…` route (docs/faults.md F33). A request names either a cached file by
 * its content hash (`/<sha256>.<ext>`) or a remote card image by its URL
 * (`/u/<base64url of the URL>`). Anything else — `../`, `%2e%2e`, `..%5c`,
 * absolute paths, other names — resolves to nothing. The hashed-name form is
 * matched against a fixed pattern, so a name can never leave the cache folder.
 */
export type CardRequest =
  { readonly kind: 'file'; readonly name: string } | { readonly kind: 'url'; readonly url: string }

const HASHED_NAME = /^[0-9a-f]{64}\.(png|gif|jpg|webp)$/
const ENCODED_URL = /^[A-Za-z0-9_-]{1,4096}$/

/** Parses the path part after `card://…` or `/card`, or null when it names nothing servable. */
export function parseCardPath(path: string): CardRequest | null {
  if (HASHED_NAME.test(path.slice(1)) && path.startsWith('/')) {
    return { kind: 'file', name: path.slice(1) }
  }
  if (path.startsWith('/u/')) {
    const encoded = path.slice(3)
    if (!ENCODED_URL.test(encoded)) return null
    const url = Buffer.from(encoded, 'base64url').toString('utf8')
    return url.length > 0 ? { kind: 'url', url } : null
  }
  return null
}

/** The file of a hashed name inside the cache folder, or null for any other name. */
export function cachedFilePath(dir: string, name: string): string | null {
  return HASHED_NAME.test(name) ? join(dir, name) : null
}
