import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { minimatch } from 'minimatch'
import type { Configuration } from 'app-builder-lib'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util/out/DebugLogger'
import { ICNS_ENTRIES, ICO_SIZES, LINUX_SIZES } from '../../../scripts/icon-formats'

/**
 * What `npm run package` would ship, read from `electron-builder.yml` with
 * electron-builder's own loader and schema (no installer is built here: that
 * needs Electron's binary).
 */
const root = resolve(import.meta.dirname, '../../..')

async function config(): Promise<Configuration> {
  const loaded = await getConfig(root, 'electron-builder.yml', null)
  await validateConfiguration(loaded, new DebugLogger(false))
  return loaded
}

/** electron-builder's `files` rule: the last pattern a path matches decides (`!` excludes). */
function ships(patterns: readonly string[], path: string): boolean {
  let included = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (minimatch(path, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated
  }
  return included
}

/**
 * The `files` patterns as electron-builder's loader normalises them
 * (`{ filter: [...] }`); a `from`/`to` entry would copy other folders, so none is allowed.
 */
function filePatterns(files: Configuration['files']): string[] {
  return [files ?? []].flat().flatMap((entry) => {
    if (typeof entry === 'string') return [entry]
    expect(entry.from, 'a files entry copying another folder').toBeUndefined()
    expect(entry.to).toBeUndefined()
    return [entry.filter ?? []].flat()
  })
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => relative(root, path).split('\\').join('/'))
}

/** Width and height from a PNG's IHDR. */
function pngSize(data: Buffer, at = 0): [number, number] {
  expect(data.subarray(at + 1, at + 4).toString('ascii')).toBe('PNG')
  return [data.readUInt32BE(at + 16), data.readUInt32BE(at + 20)]
}

describe('packaging configuration', () => {
  it('passes electron-builder’s schema and names the app and every target', async () => {
    const built = await config()
    expect(built.appId).toBe('kr.co.appraisaldesk.app')
    expect(built.productName).toBe('Appraisal Desk')
    expect(built.linux?.target).toEqual(['AppImage', 'deb'])
    expect(built.win?.target).toBe('nsis')
    expect(built.mac?.target).toBe('dmg')
  })

  it('sets the fuses: no run-as-node, NODE_OPTIONS or --inspect; asar checked and required; cookies encrypted', async () => {
    expect((await config()).electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('ships keytar as a dependency, unpacked from the asar', async () => {
    const built = await config()
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(pkg.dependencies).toHaveProperty('keytar')
    expect(built.asar).not.toBe(false)
    const unpack = [built.asarUnpack ?? []].flat()
    expect(ships(unpack, 'node_modules/keytar/build/Release/keytar.node')).toBe(true)
  })

  it('ships only the built app: no sources, tests, benchmarks or source maps', async () => {
    const files = filePatterns((await config()).files)
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
    const built = existsSync(join(root, 'out'))
      ? filesUnder(join(root, 'out'))
      : [
          'out/main/index.js',
          'out/main/index.js.map',
          'out/preload/index.cjs',
          'out/renderer/index.html',
        ]
    const shipped = [...tracked, ...built].filter((path) => ships(files, path))
    expect(shipped).toContain('package.json')
    expect(shipped).toContain('out/main/index.js')
    expect(shipped).toContain('out/preload/index.cjs')
    expect(shipped).toContain('out/renderer/index.html')
    for (const path of shipped) {
      expect(path, path).toMatch(/^(out\/(main|preload|renderer)\/|package\.json$)/)
      expect(path, path).not.toMatch(/\.(ts|map)$|(^|\/)(tests?|bench|src)\//)
    }
  })

  it('has the icons each target needs, at every size', async () => {
    const built = await config()
    const linuxDir = join(root, String(built.linux?.icon))
    for (const size of LINUX_SIZES) {
      expect(pngSize(readFileSync(join(linuxDir, `${size}x${size}.png`)))).toEqual([size, size])
    }

    const ico = readFileSync(join(root, String(built.win?.icon)))
    expect(ico.readUInt16LE(2)).toBe(1)
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, index) => {
      const entry = 6 + index * 16
      const [width, height] = pngSize(ico, ico.readUInt32LE(entry + 12))
      expect(height).toBe(width)
      expect(ico.readUInt8(entry) || 256).toBe(width)
      return width
    })
    expect(icoSizes).toEqual([...ICO_SIZES])

    const icns = readFileSync(join(root, String(built.mac?.icon)))
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns')
    expect(icns.readUInt32BE(4)).toBe(icns.length)
    const found: [string, number][] = []
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      found.push([icns.subarray(at, at + 4).toString('ascii'), pngSize(icns, at + 8)[0]])
    }
    expect(found).toEqual(ICNS_ENTRIES.map(([type, size]) => [type, size]))
  })
})
