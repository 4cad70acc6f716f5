import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { RELEASE_MANIFEST, RELEASE_SIGNATURE } from '../src/core/updates/release-signature'
import { loadPrivateKey, releaseFiles, signRelease } from './release-files'

/**
 * `npm run sign-release -- [release-folder] [--key-file FILE]`: signs a
 * packaged release for the app's update check (docs/release.md). Writes
 * `release.json` (the version and every release file's SHA-512) and
 * `release.json.sig` (its Ed25519 signature) into the folder, to be
 * uploaded to the feed with the `latest*.yml` files. The private key comes
 * from `RELEASE_SIGNING_KEY` or a file outside the repository.
 */
const repoRoot = resolve(import.meta.dirname, '..')
const { values, positionals } = parseArgs({
  options: { 'key-file': { type: 'string' }, version: { type: 'string' } },
  allowPositionals: true,
})
const dir = resolve(positionals[0] ?? join(repoRoot, 'release'))
const version =
  values.version ??
  (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version
try {
  const privateKey = loadPrivateKey({
    env: process.env,
    keyFile: values['key-file'],
    repoRoot,
    readText: (path) => readFileSync(path, 'utf8'),
  })
  const { manifest, signature } = await signRelease({ dir, version, privateKey })
  writeFileSync(join(dir, RELEASE_MANIFEST), manifest)
  writeFileSync(join(dir, RELEASE_SIGNATURE), `${signature}\n`)
  console.log(`Signed ${version}: ${releaseFiles(dir).join(', ')}`)
  console.log(`Upload ${RELEASE_MANIFEST} and ${RELEASE_SIGNATURE} with the latest*.yml files.`)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
