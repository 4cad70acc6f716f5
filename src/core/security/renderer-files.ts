import { realpath } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'

/**
 * The built renderer's files, as both hosts serve them: the Electron shell's
 * `app://renderer/…` scheme (`src/main/app-protocol.ts`) and the web host's
 * static route (`src/web-host/server.ts`). One resolver confines both to the
 * renderer folder.
 */

/** Content types of the files the renderer build writes. */
const RENDERER_MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
}

/** The content type to answer for `file` (never one a browser would guess). */
export function rendererMime(file: string): string {
  return RENDERER_MIME[extname(file)] ?? 'application/octet-stream'
}

/**
 * Maps a request path to a file inside `root`, or null. Rejects anything that
 * decodes to a traversal, a backslash, a NUL, or a dotfile segment; `/` is
 * the index page. Lexical only: {@link resolveRendererFile} also follows links.
 * @internal
 */
export function rendererPath(root: string, rawPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return null
  }
  if (decoded === '/' || decoded === '') decoded = '/index.html'
  if (!decoded.startsWith('/') || decoded.includes('\\') || decoded.includes('\0')) return null
  const segments = decoded.split('/').slice(1)
  if (segments.some((segment) => segment === '' || segment.startsWith('.'))) return null
  const file = resolve(join(root, ...segments))
  return file.startsWith(root + sep) ? file : null
}

/**
 * {@link rendererPath}, then the real path of the file (symbolic links
 * followed) must still be inside the real path of `root`: a link in the
 * folder that points out of it is refused. Null when refused or missing.
 */
export async function resolveRendererFile(root: string, rawPath: string): Promise<string | null> {
  const file = rendererPath(root, rawPath)
  if (!file) return null
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)])
    return realFile.startsWith(realRoot + sep) ? realFile : null
  } catch {
    return null
  }
}
