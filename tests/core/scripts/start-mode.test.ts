import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserCommand, chooseStartMode, type StartProbe } from '../../../scripts/start-mode'

/** `npm start`'s decision against a fake machine: which files exist and what `path.txt` says. */
const pkg = join('/repo', 'node_modules', 'electron')

function probe(
  files: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
  installed = true,
): StartProbe {
  return {
    resolveElectronPackage: () => {
      if (!installed) throw new Error("Cannot find module 'electron/package.json'")
      return join(pkg, 'package.json')
    },
    exists: (path) => path in files,
    readText: (path) => files[path] ?? null,
    env,
  }
}

describe('npm start', () => {
  it('opens Electron when path.txt names a binary that exists', () => {
    const binary = join(pkg, 'dist', 'electron')
    expect(chooseStartMode(probe({ [join(pkg, 'path.txt')]: 'electron', [binary]: '' }))).toEqual({
      kind: 'electron',
      binary,
    })
  })

  it('falls back to the browser, saying why, when the binary was never downloaded', () => {
    expect(chooseStartMode(probe({}, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }))).toEqual({
      kind: 'web',
      reason: "Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set)",
    })
    expect(chooseStartMode(probe({})).kind).toBe('web')
  })

  it('falls back when path.txt names a binary that is gone, or Electron is not installed', () => {
    const mode = chooseStartMode(probe({ [join(pkg, 'path.txt')]: 'electron' }))
    expect(mode).toEqual({
      kind: 'web',
      reason: `Electron's binary is missing (${join(pkg, 'dist', 'electron')})`,
    })
    expect(chooseStartMode(probe({}, {}, false))).toEqual({
      kind: 'web',
      reason: 'Electron is not installed',
    })
  })

  it('honours ELECTRON_OVERRIDE_DIST_PATH as the electron package does', () => {
    const binary = join('/opt/electron', 'electron')
    expect(
      chooseStartMode(probe({ [binary]: '' }, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' })),
    ).toEqual({ kind: 'electron', binary })
    expect(chooseStartMode(probe({}, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' })).kind).toBe(
      'web',
    )
  })

  it('opens the browser with the platform’s own command, and none on Linux without a display', () => {
    const url = 'http://127.0.0.1:4000/#token=abc'
    expect(browserCommand(url, 'darwin', {})).toEqual(['open', url])
    expect(browserCommand(url, 'win32', {})).toEqual([
      'rundll32',
      'url.dll,FileProtocolHandler',
      url,
    ])
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual(['xdg-open', url])
    expect(browserCommand(url, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual([
      'xdg-open',
      url,
    ])
    expect(browserCommand(url, 'linux', {})).toBeNull()
  })
})
