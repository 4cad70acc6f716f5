import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { getCurrentFuseWire } from '@electron/fuses'
import { FuseV1Options } from '@electron/fuses/dist/config'
import { FuseState } from '@electron/fuses/dist/constants'

/**
 * The check `npm run package` ends with (docs/release.md): every built
 * Electron binary's fuses, read back with `@electron/fuses`, must be what
 * `electronFuses` in electron-builder.yml asks for. A fuse left as Electron
 * ships it (e.g. `runAsNode` on) fails the package.
 */

/** electron-builder's `electronFuses` keys and the fuse each one sets. */
const FUSE_OF: Record<string, FuseV1Options> = {
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
  loadBrowserProcessSpecificV8Snapshot: FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
  grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
}

/** The fuses of `binary` that differ from `expected` (electron-builder's keys), as readable lines. */
export async function fuseMismatches(
  binary: string,
  expected: Readonly<Record<string, boolean | undefined>>,
): Promise<string[]> {
  const wire = (await getCurrentFuseWire(binary)) as unknown as Record<number, FuseState>
  const wrong: string[] = []
  for (const [key, want] of Object.entries(expected)) {
    if (want === undefined || key === 'resetAdHocDarwinSignature') continue
    const fuse = FUSE_OF[key]
    if (fuse === undefined) {
      wrong.push(`${key}: not a fuse this check knows`)
      continue
    }
    const state = wire[fuse]
    const on = state === FuseState.ENABLE
    if (state !== FuseState.ENABLE && state !== FuseState.DISABLE) {
      wrong.push(`${key}: missing from the binary's fuse wire`)
    } else if (on !== want) {
      wrong.push(`${key}: ${on ? 'on' : 'off'}, expected ${want ? 'on' : 'off'}`)
    }
  }
  return wrong
}

/**
 * The Electron binaries electron-builder left in `releaseDir`: the Linux and
 * Windows `*-unpacked` folders' executables and the macOS `.app` bundles.
 */
export function builtBinaries(
  releaseDir: string,
  names: { readonly product: string; readonly executable: string },
): string[] {
  if (!existsSync(releaseDir)) return []
  const found: string[] = []
  for (const folder of readdirSync(releaseDir).sort()) {
    const dir = join(releaseDir, folder)
    const candidates = folder.endsWith('-unpacked')
      ? [join(dir, names.executable), join(dir, `${names.product}.exe`)]
      : folder.startsWith('mac')
        ? [join(dir, `${names.product}.app`)]
        : []
    found.push(...candidates.filter((path) => existsSync(path)))
  }
  return found
}
