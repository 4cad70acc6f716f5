import { SOURCE_IMAGE_INDEX_WORKER } from '../support/store-worker'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BootedCore } from '../support/boot'
import { tightenDataDir } from '../../src/core/fs-private'
import { ImageCache } from '../../src/core/images/image-cache'
import { createImageHostPolicy } from '../../src/core/images/url-policy'
import { storeFileFor } from '../../src/core/store/paths'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { SANDBOX_PROFILE_ID } from '../../src/shared/profiles'
import { bootForTest, call } from './helpers/core'
import { makePng, startImageServer } from './images/image-server'
import { tempDir } from './store/fixtures'

/**
 * On a shared computer no other user can read the data folder.
 * Checked with real stat modes under the usual umask 022 (which would leave
 * 0755 folders and 0644 files), so Linux and macOS only.
 */
const mode = (path: string) => statSync(path).mode & 0o777
const octal = (path: string) => `${path.split('/').slice(-2).join('/')} 0${mode(path).toString(8)}`

let previousUmask: number
beforeAll(() => {
  previousUmask = process.umask(0o022)
})
afterAll(() => {
  process.umask(previousUmask)
})

const cores: BootedCore[] = []
const temps: ReturnType<typeof tempDir>[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const temp of temps.splice(0)) temp.remove()
})

async function boot(dataDir: string) {
  const core = await bootForTest({
    keychain: new MemoryStore(),
    keychainService: 'fs-private-test',
    dataDir,
  })
  cores.push(core)
  return core
}

/** Every folder and file under `dir` with its mode, for one readable assertion. */
function modes(dir: string): string[] {
  const out: string[] = []
  const walk = (path: string) => {
    out.push(octal(path))
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  walk(dir)
  return out
}

describe.skipIf(process.platform === 'win32')('private data folder', () => {
  it('creates the data folder 0700 and the database, its WAL and SHM, and settings 0600', async () => {
    const temp = tempDir()
    temps.push(temp)
    const dataDir = join(temp.dir, 'Appraisal Desk')
    const core = await boot(dataDir)
    await call(core, 'profiles.save', {
      name: 'Shop',
      baseUrl: 'https://partner.good.example',
      staticUrl: 'https://static.good.example',
      partnerId: 'p1',
      redirectUri: 'https://shop.good.example/done',
    })
    await call(core, 'sync.start', {})
    await core.sync.idle()

    const db = storeFileFor(dataDir, SANDBOX_PROFILE_ID)
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(dataDir, 'settings.json')]) {
      expect(existsSync(file), file).toBe(true)
    }
    const all = modes(dataDir)
    expect(all.length).toBeGreaterThanOrEqual(8)
    for (const entry of all) expect(entry).toMatch(/ 0(700|600)$/)
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(db)).toBe(0o600)
    expect(mode(`${db}-wal`)).toBe(0o600)
    expect(mode(`${db}-shm`)).toBe(0o600)
    expect(mode(join(dataDir, 'settings.json'))).toBe(0o600)
    expect(mode(join(dataDir, 'images'))).toBe(0o700)
  })

  it('stores card images, their folders and their index owner-only', async () => {
    const temp = tempDir()
    temps.push(temp)
    const server = await startImageServer({
      '/c.png': (res) => {
        res.writeHead(200, { 'Content-Type': 'image/png' })
        res.end(makePng(8, 8))
      },
    })
    const images = new ImageCache({
      dir: join(temp.dir, 'images'),
      indexThread: SOURCE_IMAGE_INDEX_WORKER,
      fetch: globalThis.fetch,
      policy: () => createImageHostPolicy([server.origin]),
    })
    try {
      const image = await images.get(`${server.origin}/c.png`)
      expect(mode(image.file)).toBe(0o600)
      const all = modes(join(temp.dir, 'images'))
      expect(all.some((entry) => entry.includes('index.sqlite '))).toBe(true)
      for (const entry of all) expect(entry).toMatch(/ 0(700|600)$/)
    } finally {
      await images.close()
      await server.close()
    }
  })

  it('tightens a data folder an older version left 0755 with 0644 files, keeping its contents', async () => {
    const temp = tempDir()
    temps.push(temp)
    const dataDir = join(temp.dir, 'Appraisal Desk')
    const first = await boot(dataDir)
    await first.close()
    cores.splice(0)
    // What the previous version left behind.
    const loosen = (path: string) => {
      chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644)
      if (statSync(path).isDirectory())
        for (const name of readdirSync(path)) loosen(join(path, name))
    }
    mkdirSync(join(dataDir, 'images', 'ab'), { recursive: true })
    writeFileSync(join(dataDir, 'images', 'ab', 'old-card.png'), makePng(4, 4))
    loosen(dataDir)
    expect(mode(join(dataDir, 'settings.json'))).toBe(0o644)

    const again = await boot(dataDir)
    for (const entry of modes(dataDir)) expect(entry).toMatch(/ 0(700|600)$/)
    expect(existsSync(join(dataDir, 'images', 'ab', 'old-card.png'))).toBe(true)
    expect((await call(again, 'profiles.list')).activeId).toBe(SANDBOX_PROFILE_ID)
  })

  it('follows a data folder that is a link to another disk, but no link inside it', async () => {
    const temp = tempDir()
    temps.push(temp)
    const real = join(temp.dir, 'elsewhere')
    const outside = join(temp.dir, 'outside.txt')
    mkdirSync(real, { mode: 0o755 })
    writeFileSync(join(real, 'settings.json'), '{}', { mode: 0o644 })
    writeFileSync(outside, 'not ours', { mode: 0o644 })
    symlinkSync(outside, join(real, 'link-out'))
    const link = join(temp.dir, 'Appraisal Desk')
    symlinkSync(real, link)

    expect(tightenDataDir(link)).toBe(2)
    expect(mode(real)).toBe(0o700)
    expect(mode(join(real, 'settings.json'))).toBe(0o600)
    expect(mode(outside)).toBe(0o644)
    expect(tightenDataDir(link)).toBe(0)
  })
})
