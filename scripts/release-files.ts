import { readdirSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { createPrivateKey, type KeyObject } from 'node:crypto'
import {
  fileSha512,
  manifestBytes,
  publicPemOf,
  RELEASE_PUBLIC_KEY,
  signManifest,
  type ReleaseManifest,
} from '../src/core/updates/release-signature'

/**
 * The release side of signed updates (docs/release.md): which files of an
 * electron-builder output folder are signed, where the private key comes
 * from, and the signed manifest itself. `scripts/sign-release.ts` is the
 * command; this module is what its tests call.
 */

/** Installers and update files electron-updater downloads; metadata and blockmaps are not. */
const SIGNED = /\.(AppImage|deb|rpm|snap|exe|msi|dmg|pkg|zip|tar\.gz)$/

/** The files of `dir` (top level) that the manifest names, sorted. */
export function releaseFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => SIGNED.test(name) && statSync(join(dir, name)).isFile())
    .sort()
}

/** The manifest of `dir`'s release files for `version`. */
export async function buildManifest(dir: string, version: string): Promise<ReleaseManifest> {
  const files: ReleaseManifest['files'] = {}
  for (const name of releaseFiles(dir)) {
    const path = join(dir, name)
    files[name] = { sha512: await fileSha512(path), size: statSync(path).size }
  }
  if (Object.keys(files).length === 0) throw new Error(`no release files in ${dir}`)
  return { v: 1, product: 'Appraisal Desk', version, files }
}

/**
 * The private key: `RELEASE_SIGNING_KEY` (the PEM itself), else the file
 * `RELEASE_SIGNING_KEY_FILE` or `--key-file` names, which must lie outside
 * the repository.
 */
export function loadPrivateKey(options: {
  readonly env: NodeJS.ProcessEnv
  readonly keyFile?: string | undefined
  readonly repoRoot: string
  readonly readText: (path: string) => string
}): KeyObject {
  const inline = options.env['RELEASE_SIGNING_KEY']?.trim()
  if (inline) return createPrivateKey(inline)
  const file = options.keyFile ?? options.env['RELEASE_SIGNING_KEY_FILE']
  if (!file) {
    throw new Error(
      'No release key: set RELEASE_SIGNING_KEY (the PEM) or RELEASE_SIGNING_KEY_FILE, or pass --key-file.',
    )
  }
  const path = resolve(file)
  const inside = relative(resolve(options.repoRoot), path)
  if (!inside.startsWith('..') && !isAbsolute(inside)) {
    throw new Error(`The release key must not lie inside the repository: ${path}`)
  }
  return createPrivateKey(options.readText(path))
}

/**
 * Signs: answers the manifest's bytes and their signature. Refuses a key
 * whose public half is not `expectedPublicKey` (the app's own, unless a
 * test names its throwaway one): the app would refuse such an update.
 */
export async function signRelease(options: {
  readonly dir: string
  readonly version: string
  readonly privateKey: KeyObject
  readonly expectedPublicKey?: string
}): Promise<{ manifest: Buffer; signature: string }> {
  const expected = options.expectedPublicKey ?? RELEASE_PUBLIC_KEY
  if (publicPemOf(options.privateKey).trim() !== expected.trim()) {
    throw new Error(
      'This private key is not the release key whose public half the app carries (RELEASE_PUBLIC_KEY in src/core/updates/release-signature.ts); the app would refuse what it signs.',
    )
  }
  const manifest = manifestBytes(await buildManifest(options.dir, options.version))
  return { manifest, signature: signManifest(manifest, options.privateKey) }
}
