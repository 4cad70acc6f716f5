import Conf from 'conf'
import { PRIVATE_FILE_MODE } from '../fs-private'
import type { OpenSettingsFile, SettingsFile } from './settings-file'

/** The `conf` engine (used in tests and the web host; the Electron shell uses electron-store). */
export const openConfFile: OpenSettingsFile = (dir, name) => {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: name,
    // Damaged files are handled by core (kept aside with a notice), never silently cleared.
    clearInvalidConfig: false,
    // Owner-only (docs/security.md, "A hostile local user"); conf applies it to a file that already exists too.
    configFileMode: PRIVATE_FILE_MODE,
    accessPropertiesByDotNotation: false,
    watch: false,
  })
  return confFile(conf)
}

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
