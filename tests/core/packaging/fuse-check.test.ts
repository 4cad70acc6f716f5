import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getConfig } from 'app-builder-lib/out/util/config/config'
import { builtBinaries, fuseMismatches } from '../../../scripts/fuse-check'

/**
 * The fuse check `npm run package` ends with, on stand-ins for Electron's
 * binary (none is installed here): a file holding the fuse wire the way
 * Electron's does, after `@electron/fuses`' sentinel, read with
 * `@electron/fuses` itself.
 */
const root = resolve(import.meta.dirname, '../../..')
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/** Fuse order of wire version 1 (FuseV1Options). */
const ORDER = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
]

function binaryWith(fuses: Record<string, boolean>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ad-fuses-'))
  const states = ORDER.map((key) => ((fuses[key] ?? false) ? 49 : 48))
  const file = join(dir, 'appraisal-desk')
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('\u007fELF…'),
      Buffer.from(SENTINEL),
      Buffer.from([1, ORDER.length, ...states]),
      Buffer.from('…rest of the binary'),
    ]),
  )
  return file
}

async function configuredFuses(): Promise<Record<string, boolean>> {
  const config = await getConfig(root, 'electron-builder.yml', null)
  return config.electronFuses as Record<string, boolean>
}

describe('the fuse check after packaging', () => {
  it('passes a binary whose fuses are the configured ones', async () => {
    const expected = await configuredFuses()
    expect(await fuseMismatches(binaryWith(expected), expected)).toEqual([])
  })

  it('fails one with a fuse as Electron ships it, naming it', async () => {
    const expected = await configuredFuses()
    const shipped = { ...expected, runAsNode: true, enableNodeCliInspectArguments: true }
    expect(await fuseMismatches(binaryWith(shipped), expected)).toEqual([
      'runAsNode: on, expected off',
      'enableNodeCliInspectArguments: on, expected off',
    ])
  })

  it('finds the Linux, Windows and macOS binaries electron-builder leaves', () => {
    const release = mkdtempSync(join(tmpdir(), 'ad-release-out-'))
    mkdirSync(join(release, 'linux-unpacked'))
    writeFileSync(join(release, 'linux-unpacked', 'appraisal-desk'), '')
    mkdirSync(join(release, 'win-unpacked'))
    writeFileSync(join(release, 'win-unpacked', 'Appraisal Desk.exe'), '')
    mkdirSync(join(release, 'mac-arm64', 'Appraisal Desk.app'), { recursive: true })
    writeFileSync(join(release, 'Appraisal-Desk-0.1.0.AppImage'), '')
    expect(
      builtBinaries(release, { product: 'Appraisal Desk', executable: 'appraisal-desk' }),
    ).toEqual([
      join(release, 'linux-unpacked', 'appraisal-desk'),
      join(release, 'mac-arm64', 'Appraisal Desk.app'),
      join(release, 'win-unpacked', 'Appraisal Desk.exe'),
    ])
  })
})
