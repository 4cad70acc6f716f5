import Store from 'electron-store'
import { PRIVATE_FILE_MODE } from '../core/fs-private'
import { confFile } from '../core/settings/conf-file'
import type { OpenSettingsFile } from '../core/settings/settings-file'

/**
 * The electron-store engine for core's settings (electron-store wraps
 * `conf`, which the web host and tests use). Damaged files are not cleared
 * here: core keeps them aside and tells the user.
 */
export const openElectronStoreFile: OpenSettingsFile = (dir, name) =>
  confFile(
    new Store<Record<string, unknown>>({
      cwd: dir,
      name,
      clearInvalidConfig: false,
      configFileMode: PRIVATE_FILE_MODE,
      accessPropertiesByDotNotation: false,
      watch: false,
    }),
  )
