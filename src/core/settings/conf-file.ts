import Conf, { type Options } from 'conf'
import { PRIVATE_FILE_MODE } from '../fs-private'
import type { OpenSettingsFile, SettingsFile } from './settings-file'

/**
 * The options both settings engines open a file with: `conf` here (tests and
 * the web host) and `electron-store` in the Electron shell
 * (`src/main/settings-file.ts`), which wraps `conf` and takes the same
 * options. One object, so the two never drift apart.
 *
 * The layout is versioned by core, not by `conf`: the document carries
 * `schemaVersion` and core's numbered migrations (`settings.ts`) bring an
 * older file up to date whichever engine read it. `conf`'s own `migrations`
 * option is left unset on purpose: it is keyed by the app's version and
 * stores its bookkeeping (`__internal__`) inside the document core validates.
 */
export function settingsStoreOptions(
  dir: string,
  name: string,
): Options<Record<string, unknown>> & { readonly cwd: string; readonly configName: string } {
  return {
    cwd: dir,
    configName: name,
    // Damaged files are handled by core (kept aside with a notice), never silently cleared.
    clearInvalidConfig: false,
    // Owner-only (docs/security.md, "A hostile local user"); conf applies it to a file that already exists too.
    configFileMode: PRIVATE_FILE_MODE,
    accessPropertiesByDotNotation: false,
    watch: false,
  }
}

/** The `conf` engine (used in tests and the web host; the Electron shell uses electron-store). */
export const openConfFile: OpenSettingsFile = (dir, name) =>
  confFile(new Conf<Record<string, unknown>>(settingsStoreOptions(dir, name)))

/** Adapts a `conf` instance (or an `electron-store`, its subclass) to {@link SettingsFile}. */
export function confFile(conf: {
  readonly path: string
  store: Record<string, unknown>
}): SettingsFile {
  return {
    path: conf.path,
    read: () => ({ ...conf.store }),
    write: (data) => {
      conf.store = data
    },
  }
}
