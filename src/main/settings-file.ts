import Store from 'electron-store'
import { confFile, settingsStoreOptions } from '../core/settings/conf-file'
import type { OpenSettingsFile } from '../core/settings/settings-file'

/**
 * The electron-store engine for core's settings, opened with the same
 * options as the `conf` engine (`settingsStoreOptions`; electron-store
 * names the file with `name` where `conf` says `configName`). Damaged files
 * are not cleared here: core keeps them aside and tells the user.
 */
export const openElectronStoreFile: OpenSettingsFile = (dir, name) => {
  const { configName, ...options } = settingsStoreOptions(dir, name)
  return confFile(new Store<Record<string, unknown>>({ ...options, name: configName }))
}
