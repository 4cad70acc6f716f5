import { execFile } from 'node:child_process'
import { generateKeyPairSync, type KeyObject } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkDownloadedUpdate,
  feedUrlOf,
  fileSha512,
  publicPemOf,
  RELEASE_MANIFEST,
  RELEASE_PUBLIC_KEY,
  RELEASE_SIGNATURE,
  type DownloadedUpdate,
} from '../../../src/core/updates/release-signature'
import { loadPrivateKey, releaseFiles, signRelease } from '../../../scripts/release-files'

/**
 * Signed updates end to end in Node: a release folder signed with a
 * throwaway key (never the project's), served as a feed over real HTTP, and
 * the check the app runs before it offers an install.
 */
const root = resolve(import.meta.dirname, '../../..')
const run = promisify(execFile)
const APP = 'Appraisal-Desk-0.2.0.AppImage'

function keyPair(): { privateKey: KeyObject; publicPem: string } {
  const { privateKey } = generateKeyPairSync('ed25519')
  return { privateKey, publicPem: publicPemOf(privateKey) }
}

let feedDir = ''
let server: Server
let feedUrl = ''
const throwaway = keyPair()

/** Writes a release folder: the AppImage, a deb, electron-builder's metadata and a blockmap. */
function releaseFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ad-release-'))
  writeFileSync(join(dir, APP), 'the real 0.2.0 AppImage')
  writeFileSync(join(dir, 'appraisal-desk_0.2.0_amd64.deb'), 'the real 0.2.0 deb')
  writeFileSync(join(dir, 'latest-linux.yml'), 'version: 0.2.0\n')
  writeFileSync(join(dir, `${APP}.blockmap`), 'blocks')
  return dir
}

/** Signs `dir` as the release script does, with `key` checked against its own public half. */
async function signInto(dir: string, key = throwaway, version = '0.2.0'): Promise<void> {
  const { manifest, signature } = await signRelease({
    dir,
    version,
    privateKey: key.privateKey,
    expectedPublicKey: key.publicPem,
  })
  writeFileSync(join(dir, RELEASE_MANIFEST), manifest)
  writeFileSync(join(dir, RELEASE_SIGNATURE), `${signature}\n`)
}

/** What electron-updater reports after downloading the AppImage (a copy in its cache). */
async function downloadedCopy(content = 'the real 0.2.0 AppImage'): Promise<DownloadedUpdate> {
  const pending = mkdtempSync(join(tmpdir(), 'ad-pending-'))
  const downloadedFile = join(pending, APP)
  writeFileSync(downloadedFile, content)
  return {
    version: '0.2.0',
    downloadedFile,
    files: [{ url: APP, sha512: await fileSha512(join(feedDir, APP)) }],
  }
}

function check(update: DownloadedUpdate, publicKey: string = throwaway.publicPem) {
  return checkDownloadedUpdate({ fetch: globalThis.fetch, feedUrl, publicKey, update })
}

beforeAll(async () => {
  feedDir = releaseFolder()
  server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1))
    try {
      const body = readFileSync(join(feedDir, name))
      res.writeHead(200).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

describe('signed update manifests', () => {
  it('the release script names every installer with its hash, not the metadata or blockmaps', async () => {
    expect(releaseFiles(feedDir)).toEqual([APP, 'appraisal-desk_0.2.0_amd64.deb'])
    await signInto(feedDir)
    const manifest = JSON.parse(readFileSync(join(feedDir, RELEASE_MANIFEST), 'utf8')) as {
      version: string
      files: Record<string, { sha512: string; size: number }>
    }
    expect(manifest.version).toBe('0.2.0')
    expect(manifest.files[APP]).toEqual({ sha512: await fileSha512(join(feedDir, APP)), size: 23 })
  })

  it('a download matching a manifest signed with the key is accepted', async () => {
    await signInto(feedDir)
    expect(await check(await downloadedCopy())).toEqual({ ok: true, version: '0.2.0' })
  })

  it('a feed signed with another key is refused, and so is one signed with a throwaway key by the app’s own key', async () => {
    await signInto(feedDir)
    const other = keyPair()
    expect(await check(await downloadedCopy(), other.publicPem)).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    })
    expect(await check(await downloadedCopy(), RELEASE_PUBLIC_KEY)).toMatchObject({
      ok: false,
      reason: 'bad_signature',
    })
  })

  it('a tampered manifest is refused', async () => {
    await signInto(feedDir)
    const path = join(feedDir, RELEASE_MANIFEST)
    const signed = readFileSync(path, 'utf8')
    try {
      writeFileSync(path, signed.replace('"version": "0.2.0"', '"version": "0.2.1"'))
      expect(await check({ ...(await downloadedCopy()), version: '0.2.1' })).toMatchObject({
        ok: false,
        reason: 'bad_signature',
      })
    } finally {
      writeFileSync(path, signed)
    }
  })

  it('an unsigned feed is refused: no signature, or no manifest at all', async () => {
    await signInto(feedDir)
    rmSync(join(feedDir, RELEASE_SIGNATURE))
    expect(await check(await downloadedCopy())).toMatchObject({ ok: false, reason: 'unsigned' })
    rmSync(join(feedDir, RELEASE_MANIFEST))
    expect(await check(await downloadedCopy())).toMatchObject({ ok: false, reason: 'unsigned' })
  })

  it('a downloaded file that is not the signed one is refused, even when the feed’s metadata lists its hash', async () => {
    await signInto(feedDir)
    const swapped = await downloadedCopy('an AppImage from somewhere else')
    expect(await check(swapped)).toMatchObject({ ok: false, reason: 'file_mismatch' })
    // The feed's metadata changed to the other file's hash: electron-updater would accept it.
    const metadata = {
      ...swapped,
      files: [{ url: APP, sha512: await fileSha512(swapped.downloadedFile) }],
    }
    expect(await check(metadata)).toMatchObject({ ok: false, reason: 'metadata_mismatch' })
  })

  it('a manifest of another version is refused', async () => {
    await signInto(feedDir, throwaway, '0.1.9')
    expect(await check(await downloadedCopy())).toMatchObject({
      ok: false,
      reason: 'wrong_version',
    })
  })

  it('reads the feed address from app-update.yml, https only', () => {
    expect(feedUrlOf('provider: generic\nurl: https://updates.example/desk/\n')).toBe(
      'https://updates.example/desk/',
    )
    expect(feedUrlOf("provider: generic\nurl: 'https://updates.example/desk'\n")).toBe(
      'https://updates.example/desk',
    )
    expect(feedUrlOf('provider: generic\nurl: http://updates.example/\n')).toBeNull()
    expect(feedUrlOf('provider: generic\n')).toBeNull()
  })
})

describe('the release script', () => {
  it('refuses a private key that is not the app’s release key', async () => {
    const dir = releaseFolder()
    await expect(
      signRelease({ dir, version: '0.2.0', privateKey: throwaway.privateKey }),
    ).rejects.toThrow(/not the release key whose public half the app carries/)
  })

  it('takes the key from the environment or a file outside the repository, never one inside', () => {
    const pem = throwaway.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const fromEnv = loadPrivateKey({
      env: { RELEASE_SIGNING_KEY: pem },
      repoRoot: root,
      readText: () => '',
    })
    expect(publicPemOf(fromEnv)).toBe(throwaway.publicPem)
    expect(() =>
      loadPrivateKey({
        env: { RELEASE_SIGNING_KEY_FILE: join(root, 'resources', 'release.pem') },
        repoRoot: root,
        readText: () => pem,
      }),
    ).toThrow(/must not lie inside the repository/)
    expect(() => loadPrivateKey({ env: {}, repoRoot: root, readText: () => pem })).toThrow(
      /No release key/,
    )
  })

  it('as a command: exits with the reason and writes nothing when the key is not the release key', async () => {
    const dir = releaseFolder()
    const keyFile = join(mkdtempSync(join(tmpdir(), 'ad-key-')), 'throwaway.pem')
    writeFileSync(keyFile, throwaway.privateKey.export({ type: 'pkcs8', format: 'pem' }), {
      mode: 0o600,
    })
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/sign-release.ts', dir, '--key-file', keyFile],
      { cwd: root, env: { ...process.env, RELEASE_SIGNING_KEY: '' } },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed?.code).toBe(1)
    expect(failed?.stderr).toMatch(/not the release key/)
    expect(releaseFiles(dir)).toEqual([APP, 'appraisal-desk_0.2.0_amd64.deb'])
    expect(() => readFileSync(join(dir, RELEASE_MANIFEST))).toThrow()
  })
})
