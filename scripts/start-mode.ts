import { dirname, join } from 'node:path'

/**
 * How `npm start` opens the app (`scripts/start.ts`): in Electron's window
 * when its binary is on this machine, otherwise in the default browser
 * through the web host, on the embedded sandbox.
 */
export type StartMode =
  | { readonly kind: 'electron'; readonly binary: string }
  | { readonly kind: 'web'; readonly reason: string }

/** What the decision reads of the machine (the real ones in `start.ts`, fakes in tests). */
export interface StartProbe {
  /** `require.resolve('electron/package.json')`: throws when the package is not installed. */
  readonly resolveElectronPackage: () => string
  readonly exists: (path: string) => boolean
  /** A text file's content, or null when it cannot be read. */
  readonly readText: (path: string) => string | null
  readonly env: NodeJS.ProcessEnv
}

/**
 * Finds Electron's binary the way the `electron` package does
 * (`node_modules/electron/index.js`: `path.txt` names the executable inside
 * `dist/`, or inside `ELECTRON_OVERRIDE_DIST_PATH`), without requiring the
 * package: requiring it starts a download when the binary is missing.
 */
export function chooseStartMode(probe: StartProbe): StartMode {
  let packageDir: string
  try {
    packageDir = dirname(probe.resolveElectronPackage())
  } catch {
    return { kind: 'web', reason: 'Electron is not installed' }
  }
  const executable = probe.readText(join(packageDir, 'path.txt'))?.trim()
  const override = probe.env['ELECTRON_OVERRIDE_DIST_PATH']
  if (override) {
    const binary = join(override, executable || 'electron')
    return probe.exists(binary)
      ? { kind: 'electron', binary }
      : { kind: 'web', reason: `no Electron binary at ELECTRON_OVERRIDE_DIST_PATH (${binary})` }
  }
  if (!executable) {
    const skipped = probe.env['ELECTRON_SKIP_BINARY_DOWNLOAD']
    return {
      kind: 'web',
      reason: skipped
        ? "Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set)"
        : "Electron's binary was not downloaded",
    }
  }
  const binary = join(packageDir, 'dist', executable)
  return probe.exists(binary)
    ? { kind: 'electron', binary }
    : { kind: 'web', reason: `Electron's binary is missing (${binary})` }
}

/**
 * The command that opens `url` in the default browser, or null where there
 * is none to open (Linux without a display).
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): readonly [string, ...string[]] | null {
  if (platform === 'darwin') return ['open', url]
  // What `start` does, without cmd's quoting rules (the address has `#` and `=`).
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url]
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return null
  return ['xdg-open', url]
}

/** The one line `npm start` prints when it falls back to the browser. */
export function fallbackLine(reason: string): string {
  return `${reason}: opening Appraisal Desk in the browser instead (web host, Sandbox profile).`
}
