import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { AppError, isAppError } from '../app-error'
import {
  errorForStatus,
  fetchFollowingRedirects,
  readCapped,
  RequestDeadline,
  type FetchLike,
} from '../api/http'
import { ensurePrivateDir } from '../fs-private'
import type { ThreadEntry } from '../threads/spawn'
import { cachedFilePath, parseCardPath } from './card-path'
import { ImageIndex } from './index-client'
import { nodeImageFs, type ImageFs, type WritableFile } from './image-fs'
import { decodedPixels, imageGeometry, sniffImage, SNIFF_BYTES, type ImageType } from './magic'
import { checkImageUrl, type ImageHostPolicy } from './url-policy'

/** Options of {@link ImageCache}. */
export interface ImageCacheOptions {
  /** Folder of the cached files, its index and its temp folder. */
  readonly dir: string
  /** The image-index thread's entry (`index-worker.ts`): the index's SQL runs there. */
  readonly indexThread: ThreadEntry
  readonly fetch: FetchLike
  /** The profile's image host(s); read on every fetch, so a profile switch applies at once. */
  readonly policy: () => ImageHostPolicy
  /** Largest image in bytes (default 10 MB). */
  readonly maxImageBytes?: number
  /** Total size kept before least-recently-used files are evicted (default 1 GB). */
  readonly maxTotalBytes?: number
  /** Largest width or height in pixels a header may declare (default 10,000). */
  readonly maxSide?: number
  /**
   * Most pixels decoding may cost, width × height × frames of an animation
   * (default {@link DEFAULT_MAX_PIXELS}).
   */
  readonly maxPixels?: number
  /** Per-image deadline (default 20 s). */
  readonly timeoutMs?: number
  /** How long a failed URL is answered from memory without a new request (default 60 s). */
  readonly failureTtlMs?: number
  readonly fs?: ImageFs
  readonly now?: () => number
  /** While this answers true (the app is locked), no image is served: `serve` answers 423 `locked`. */
  readonly refuse?: () => boolean
}

/** A cached image ready to serve. */
export interface CachedImage {
  readonly file: string
  /** `<sha256>.<ext>`: the content hash names the file. */
  readonly name: string
  readonly mime: ImageType['mime']
  readonly size: number
}

/** How a card request is answered by both hosts. */
export type CardResponse =
  | { readonly ok: true; readonly image: CachedImage }
  | {
      readonly ok: false
      readonly status: 400 | 404 | 413 | 415 | 423 | 502 | 504
      readonly code: string
    }

/** Headers of every served image: the sniffed type, and no sniffing or scripting by the browser. */
export function cardHeaders(image: CachedImage): Record<string, string> {
  return {
    'Content-Type': image.mime,
    'Content-Length': String(image.size),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
    'Cache-Control': 'private, max-age=31536000, immutable',
  }
}

const MIME_OF_EXT: Record<string, ImageType['mime']> = {
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  webp: 'image/webp',
}
const HEAD_BYTES = 64 * 1024

/** Default cap of decoded pixels per card image, all frames together: 40 megapixels (about 160 MB decoded). */
const DEFAULT_MAX_PIXELS = 40_000_000

/**
 * The card-image cache (docs/faults.md F25, F30–F33). Images are fetched on demand
 * from the profile's image host only, checked by magic bytes and header
 * dimensions, size-capped while streaming, written to a temp file that is
 * removed on any error, and stored under their content hash. The total size
 * is capped with least-recently-used eviction. Failed URLs are remembered
 * briefly, so an offline app shows placeholders without a storm of requests.
 */
export class ImageCache {
  readonly #options: Required<Omit<ImageCacheOptions, 'fs' | 'now' | 'indexThread' | 'refuse'>>
  readonly #refuse: () => boolean
  readonly #fs: ImageFs
  readonly #now: () => number
  readonly #index: ImageIndex
  readonly #inflight = new Map<string, Promise<CachedImage>>()
  readonly #failures = new Map<string, { error: AppError; until: number }>()
  readonly #ready: Promise<void>

  constructor(options: ImageCacheOptions) {
    this.#options = {
      maxImageBytes: 10 * 1024 * 1024,
      maxTotalBytes: 1024 * 1024 * 1024,
      maxSide: 10_000,
      maxPixels: DEFAULT_MAX_PIXELS,
      timeoutMs: 30_000,
      failureTtlMs: 60_000,
      ...options,
    }
    this.#refuse = options.refuse ?? (() => false)
    this.#fs = options.fs ?? nodeImageFs
    this.#now = options.now ?? Date.now
    ensurePrivateDir(this.#options.dir)
    this.#index = new ImageIndex(options.indexThread, this.#options.dir)
    this.#ready = this.#prepare()
  }

  async #prepare(): Promise<void> {
    await this.#fs.mkdir(join(this.#options.dir, 'tmp'))
    await this.#fs.clear(join(this.#options.dir, 'tmp'))
  }

  /** Total bytes of cached files. */
  totalBytes(): Promise<number> {
    return this.#index.totalBytes()
  }

  /** The cached image of `url`, fetching it on first use. */
  async get(url: string, signal?: AbortSignal): Promise<CachedImage> {
    const known = await this.#lookupUrl(url)
    if (known) return known
    const failed = this.#failures.get(url)
    if (failed && failed.until > this.#now()) throw failed.error
    let pending = this.#inflight.get(url)
    if (!pending) {
      pending = this.#fetchAndStore(url, signal).finally(() => this.#inflight.delete(url))
      this.#inflight.set(url, pending)
    }
    try {
      return await pending
    } catch (error) {
      const typed = isAppError(error)
        ? error
        : new AppError('internal', 'The card image could not be stored.', { cause: error })
      if (typed.code !== 'cancelled') {
        this.#failures.set(url, { error: typed, until: this.#now() + this.#options.failureTtlMs })
      }
      throw typed
    }
  }

  /** Why the image at `url` was refused or failed lately, or null (cached, never tried, or forgotten). */
  problemOf(url: string): AppError | null {
    const failed = this.#failures.get(url)
    return failed && failed.until > this.#now() ? failed.error : null
  }

  /** A cached file by its hashed name, or null. */
  async byName(name: string): Promise<CachedImage | null> {
    const file = cachedFilePath(this.#options.dir, name)
    if (!file) return null
    const size = await this.#index.use(name, this.#now())
    if (size === null || !existsSync(file)) return null
    return {
      file,
      name,
      mime: MIME_OF_EXT[name.split('.')[1] ?? ''] ?? 'image/png',
      size,
    }
  }

  /** Answers a `card:` / `/card/…` request path; both hosts call this one function. */
  async serve(path: string, signal?: AbortSignal): Promise<CardResponse> {
    if (this.#refuse()) return { ok: false, status: 423, code: 'locked' }
    const request = parseCardPath(path)
    if (!request) return { ok: false, status: 404, code: 'not_found' }
    if (request.kind === 'file') {
      const image = await this.byName(request.name)
      return image ? { ok: true, image } : { ok: false, status: 404, code: 'not_found' }
    }
    try {
      return { ok: true, image: await this.get(request.url, signal) }
    } catch (error) {
      const code = isAppError(error) ? error.code : 'internal'
      const status =
        code === 'invalid_argument'
          ? 400
          : code === 'too_large'
            ? 413
            : code === 'bad_response'
              ? 415
              : code === 'timeout'
                ? 504
                : code === 'not_found'
                  ? 404
                  : 502
      return { ok: false, status, code }
    }
  }

  /** Closes the index (its thread ends). */
  close(): Promise<void> {
    return this.#index.close()
  }

  async #lookupUrl(url: string): Promise<CachedImage | null> {
    const name = await this.#index.nameOfUrl(url)
    return name ? this.byName(name) : null
  }

  async #fetchAndStore(rawUrl: string, callerSignal?: AbortSignal): Promise<CachedImage> {
    await this.#ready
    const deadline = new RequestDeadline(this.#options.timeoutMs, callerSignal)
    try {
      return await this.#download(rawUrl, deadline)
    } finally {
      deadline.end()
    }
  }

  async #download(rawUrl: string, deadline: RequestDeadline): Promise<CachedImage> {
    const response = await fetchFollowingRedirects(
      this.#options.fetch,
      checkImageUrl(rawUrl, this.#options.policy()),
      {
        deadline,
        headers: { Accept: 'image/png, image/gif, image/jpeg, image/webp' },
        // Every hop is checked again: a redirect may not leave the image host (docs/faults.md F32).
        checkRedirect: (next) => {
          if (!next) throw new AppError('bad_response', 'The card image redirected nowhere.')
          return checkImageUrl(next.toString(), this.#options.policy())
        },
      },
    )
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined)
      throw errorForStatus(response, '')
    }
    if (!response.body) throw new AppError('bad_response', 'The card image is empty.')

    const temp = join(this.#options.dir, 'tmp', `${randomBytes(8).toString('hex')}.part`)
    let out: WritableFile | null = null
    try {
      const file = await this.#fs.create(temp)
      out = file
      const hash = createHash('sha256')
      const chunks: Uint8Array[] = []
      let head: Uint8Array = new Uint8Array(0)
      let type: ImageType | null = null
      const size = await readCapped(
        response,
        this.#options.maxImageBytes,
        deadline,
        async (chunk) => {
          chunks.push(chunk)
          if (head.length < HEAD_BYTES) head = concat(head, chunk)
          if (!type && head.length >= SNIFF_BYTES) {
            type = sniffImage(head)
            if (!type) throw notAnImage()
          }
          // A header that already asks for too much ends the download here.
          if (type) this.#checkGeometry(head, type, false)
          hash.update(chunk)
          await file.write(chunk)
        },
        () => this.#tooLarge(),
      )
      const sniffed = type ?? sniffImage(head)
      if (!sniffed) throw notAnImage()
      // The whole file decides: late JPEG frame headers, every frame of an animation.
      this.#checkGeometry(Buffer.concat(chunks), sniffed, true)
      await file.close()
      out = null
      const name = `${hash.digest('hex')}.${sniffed.ext}`
      const stored = join(this.#options.dir, name)
      await this.#fs.rename(temp, stored)
      const evicted = await this.#index.store({
        name,
        size,
        url: rawUrl,
        now: this.#now(),
        maxTotalBytes: this.#options.maxTotalBytes,
      })
      // Least-recently-used files over the total cap, never the one just stored.
      for (const old of evicted)
        await this.#fs.unlink(join(this.#options.dir, old)).catch(() => undefined)
      return { file: stored, name, mime: sniffed.mime, size }
    } catch (error) {
      await response.body.cancel().catch(() => undefined)
      await out?.close().catch(() => undefined)
      // A refused image is not kept, not even as a temp file.
      await this.#fs.unlink(temp).catch(() => undefined)
      throw toImageError(error)
    }
  }

  /**
   * Refuses an image whose decoding would cost too much memory (docs/faults.md F31):
   * a side over the cap, or width × height × frames over the pixel cap. With
   * `complete`, an image whose size cannot be read is refused too.
   */
  #checkGeometry(bytes: Uint8Array, type: ImageType, complete: boolean): void {
    const geometry = imageGeometry(bytes, type)
    if (!geometry) {
      if (!complete) return
      throw new AppError(
        'too_large',
        'The card image is too large to show safely: its size cannot be read.',
      )
    }
    const { width, height, frames } = geometry
    const pixels = decodedPixels(geometry)
    if (
      width > this.#options.maxSide ||
      height > this.#options.maxSide ||
      pixels > this.#options.maxPixels
    ) {
      const animation = frames > 1 ? ` in ${frames} frames` : ''
      throw new AppError(
        'too_large',
        `The card image is too large to show safely: ${width}×${height} pixels${animation} (${megapixels(pixels)} MP; at most ${megapixels(this.#options.maxPixels)} MP and ${this.#options.maxSide} per side).`,
      )
    }
  }

  #tooLarge(): AppError {
    return new AppError(
      'too_large',
      `The card image is larger than ${Math.round(this.#options.maxImageBytes / (1024 * 1024))} MB.`,
    )
  }
}

function megapixels(pixels: number): string {
  return (pixels / 1_000_000).toFixed(pixels < 10_000_000 ? 1 : 0)
}

function notAnImage(): AppError {
  return new AppError('bad_response', 'The card image is not a PNG, GIF, JPEG or WebP file.')
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** File-system failures become typed errors: a full disk says so, others are internal. */
function toImageError(error: unknown): AppError {
  if (isAppError(error)) return error
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : ''
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new AppError('disk_full', 'The disk is full; the card image was not stored.', {
      cause: error,
    })
  }
  return new AppError('internal', 'The card image could not be stored.', { cause: error })
}
