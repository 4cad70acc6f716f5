import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { basename } from 'node:path'
import { z } from 'zod'
import type { FetchLike } from '../api/http'

/**
 * Signed releases (docs/release.md): beside electron-updater's metadata
 * (`latest*.yml`), every release's feed holds `release.json`, naming the
 * version and the SHA-512 of each file of the release, and
 * `release.json.sig`, an Ed25519 signature of exactly those bytes made with
 * the project's release key (`scripts/sign-release.ts`). Before the app
 * offers to install a downloaded update it checks, with the public key it
 * carries ({@link RELEASE_PUBLIC_KEY}):
 *
 * 1. the signature of `release.json`,
 * 2. that it names the version electron-updater downloaded,
 * 3. that every file electron-updater's metadata lists has the hash the
 *    signed manifest gives it (the metadata it acted on is the signed one),
 * 4. and the downloaded file's own SHA-512 against the signed manifest.
 *
 * Anything unsigned, signed by another key, or not matching is refused.
 */

/** The file names in the feed. */
export const RELEASE_MANIFEST = 'release.json'
export const RELEASE_SIGNATURE = 'release.json.sig'

/**
 * The project's release public key (Ed25519, SPKI PEM). Its private half is
 * held by the release manager outside the repository; `sign-release.ts`
 * refuses a private key whose public half is not this one.
 */
export const RELEASE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEA6z4qgn3Ftx3sYdo32dtOxwxSJKXMhkJuSpnLfb2Kw5Q=
-----END PUBLIC KEY-----
`

const manifestSchema = z.object({
  v: z.literal(1),
  product: z.string().min(1),
  version: z.string().min(1).max(64),
  files: z.record(
    z.string().min(1).max(255),
    z.object({ sha512: z.string().regex(/^[A-Za-z0-9+/]{86}==$/), size: z.number().int().min(0) }),
  ),
})

/** A signed release manifest. */
export type ReleaseManifest = z.output<typeof manifestSchema>

/** Why an update was refused. */
type ReleaseRefusal =
  | 'unsigned'
  | 'bad_signature'
  | 'malformed'
  | 'wrong_version'
  | 'metadata_mismatch'
  | 'file_mismatch'
  | 'unreachable'

/** The outcome of a check: ok, or refused with a reason and a secret-free detail for the log. */
export type ReleaseCheck =
  | { readonly ok: true; readonly version: string }
  | { readonly ok: false; readonly reason: ReleaseRefusal; readonly detail: string }

/** The manifest's bytes as the signing script writes them: sorted keys, two-space indent, a newline. */
export function manifestBytes(manifest: ReleaseManifest): Buffer {
  const files = Object.fromEntries(
    Object.keys(manifest.files)
      .sort()
      .map((name) => [
        name,
        { sha512: manifest.files[name]!.sha512, size: manifest.files[name]!.size },
      ]),
  )
  const ordered = { v: 1, product: manifest.product, version: manifest.version, files }
  return Buffer.from(`${JSON.stringify(ordered, null, 2)}\n`, 'utf8')
}

/** The base64 Ed25519 signature of `bytes` with a private key (PEM or KeyObject). */
export function signManifest(bytes: Buffer, privateKey: KeyObject | string): string {
  return sign(null, bytes, privateKey).toString('base64')
}

/** The SPKI PEM of a key's public half. */
export function publicPemOf(key: KeyObject | string): string {
  return createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()
}

/** The base64 SHA-512 of a file, as electron-builder writes it into `latest*.yml`. */
export async function fileSha512(path: string): Promise<string> {
  const hash = createHash('sha512')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('base64')
}

/** Checks a manifest's bytes and signature with `publicKey`; answers the manifest or the refusal. */
function verifyManifest(
  bytes: Buffer,
  signature: string | null,
  publicKey: string,
): { ok: true; manifest: ReleaseManifest } | Extract<ReleaseCheck, { ok: false }> {
  if (signature === null || signature.trim() === '') {
    return { ok: false, reason: 'unsigned', detail: `the feed has no ${RELEASE_SIGNATURE}` }
  }
  const raw = Buffer.from(signature.trim(), 'base64')
  let good: boolean
  try {
    good = raw.length === 64 && verify(null, bytes, createPublicKey(publicKey), raw)
  } catch {
    good = false
  }
  if (!good) {
    return {
      ok: false,
      reason: 'bad_signature',
      detail: `${RELEASE_MANIFEST} is not signed with the app's release key`,
    }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed', detail: `${RELEASE_MANIFEST} is not JSON` }
  }
  const checked = manifestSchema.safeParse(parsed)
  if (!checked.success) {
    return {
      ok: false,
      reason: 'malformed',
      detail: `${RELEASE_MANIFEST} has not the expected shape`,
    }
  }
  return { ok: true, manifest: checked.data }
}

/** What electron-updater says it downloaded (its `update-downloaded` event). */
export interface DownloadedUpdate {
  readonly version: string
  readonly downloadedFile: string
  readonly files: readonly { readonly url: string; readonly sha512: string }[]
}

/**
 * Checks a downloaded update against the signed manifest of its feed.
 * `fetch` reads `release.json` and its signature from `feedUrl` (no cache).
 */
export async function checkDownloadedUpdate(options: {
  readonly fetch: FetchLike
  readonly feedUrl: string
  readonly publicKey?: string
  readonly update: DownloadedUpdate
}): Promise<ReleaseCheck> {
  const { update } = options
  let bytes: Buffer | null
  let signature: string | null
  try {
    ;[bytes, signature] = await Promise.all([
      fetchFile(options.fetch, options.feedUrl, RELEASE_MANIFEST),
      fetchFile(options.fetch, options.feedUrl, RELEASE_SIGNATURE).then((body) =>
        body === null ? null : body.toString('utf8'),
      ),
    ])
  } catch (error) {
    return {
      ok: false,
      reason: 'unreachable',
      detail: `the feed did not answer: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
  if (bytes === null) {
    return { ok: false, reason: 'unsigned', detail: `the feed has no ${RELEASE_MANIFEST}` }
  }
  const verified = verifyManifest(bytes, signature, options.publicKey ?? RELEASE_PUBLIC_KEY)
  if (!verified.ok) return verified
  const { manifest } = verified
  if (manifest.version !== update.version) {
    return {
      ok: false,
      reason: 'wrong_version',
      detail: `the signed manifest is for ${manifest.version}, the download for ${update.version}`,
    }
  }
  for (const file of update.files) {
    const name = fileNameOf(file.url)
    if (manifest.files[name]?.sha512 !== file.sha512) {
      return {
        ok: false,
        reason: 'metadata_mismatch',
        detail: `the update metadata's hash of ${name} is not the signed one`,
      }
    }
  }
  // electron-updater keeps the download under the feed's file name; when not, the one file
  // its metadata lists (checked against the signed manifest just above) is the one.
  const name = basename(update.downloadedFile)
  const only = update.files.length === 1 ? fileNameOf(update.files[0]!.url) : null
  const signed = manifest.files[name] ?? (only === null ? undefined : manifest.files[only])
  const actual = await fileSha512(update.downloadedFile).catch(() => null)
  if (!signed || actual !== signed.sha512) {
    return {
      ok: false,
      reason: 'file_mismatch',
      detail: `the downloaded ${name} does not have the signed hash`,
    }
  }
  return { ok: true, version: update.version }
}

function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(basename(new URL(url, 'https://feed.invalid/').pathname))
  } catch {
    return basename(url)
  }
}

async function fetchFile(fetch: FetchLike, feedUrl: string, name: string): Promise<Buffer | null> {
  const base = feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`
  const response = await fetch(new URL(name, base).toString(), {
    method: 'GET',
    cache: 'no-store',
    redirect: 'error',
    signal: AbortSignal.timeout(30_000),
  })
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined)
    return null
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined)
    throw new Error(`HTTP ${response.status} for ${name}`)
  }
  const body = Buffer.from(await response.arrayBuffer())
  if (body.length > 1024 * 1024) throw new Error(`${name} is larger than 1 MB`)
  return body
}

/**
 * The feed address electron-builder wrote into `app-update.yml` (its `url:`
 * line), or null when there is none.
 */
export function feedUrlOf(appUpdateYml: string): string | null {
  const line = /^url:\s*(.+?)\s*$/m.exec(appUpdateYml)?.[1]
  if (!line) return null
  const unquoted = line.replace(/^(['"])(.*)\1$/, '$2')
  try {
    return new URL(unquoted).protocol === 'https:' ? unquoted : null
  } catch {
    return null
  }
}
