import { homedir } from 'node:os'
import { join } from 'node:path'

/** The app's name as the OS shows it; also the user-data folder's name. */
export const APP_NAME = 'Appraisal Desk'

/**
 * The folder Electron's `app.getPath('userData')` would give, computed
 * without Electron, so that the web host and the app share one data folder.
 */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME)
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), APP_NAME)
}
