import { join, relative, resolve, isAbsolute } from 'node:path'

/** The web host's command-line flags after parsing. */
export interface WebHostFlags {
  readonly dataDir?: string | undefined
  /** `--other-profiles`: accounts other than the Sandbox, in a `--data-dir` of their own. */
  readonly otherProfiles?: boolean | undefined
}

/** Where the web host keeps its data, which keychain it uses, and whether other profiles are refused. */
export interface WebHostSetup {
  readonly dataDir: string
  /** The data folder is a fresh temporary one, removed when the host stops. */
  readonly temporary: boolean
  /**
   * `system`: the OS keychain, under the web host's own service name (never
   * the desktop app's entries); `memory`: secrets live until the host stops.
   */
  readonly keychain: 'system' | 'memory'
  /** Only the Sandbox profile may be active (`webHostRouter`). */
  readonly sandboxOnly: boolean
}

/** The web host's keychain service: its entries never mix with the desktop app's. */
export const WEB_HOST_KEYCHAIN_SERVICE = 'Appraisal Desk (web host)'

/** A start the web host refuses, with the line it prints. */
export class WebHostRefusal extends Error {
  override readonly name = 'WebHostRefusal'
}

/**
 * Decides the web host's setup from its flags (the router guard is
 * `webHostRouter` in `host-router.ts`). It is a development and test host
 * and never the desktop app in a browser: by default a temporary data
 * folder, an in-memory keychain and the Sandbox profile only. `--data-dir`
 * chooses the folder and keeps the rest; `--other-profiles` (only with a
 * `--data-dir`) allows other accounts there, with their keys in the OS
 * keychain under {@link WEB_HOST_KEYCHAIN_SERVICE}. The desktop app's own
 * data folder, or a folder inside it, is refused whatever the flags.
 */
export function webHostSetup(
  flags: WebHostFlags,
  places: { readonly temporaryDir: () => string; readonly userDataDir: string },
): WebHostSetup {
  const other = flags.otherProfiles === true
  if (flags.dataDir !== undefined && within(places.userDataDir, flags.dataDir)) {
    throw new WebHostRefusal(
      `--data-dir ${flags.dataDir} is the desktop app's own data folder (${places.userDataDir}); the web host never uses it. Choose another folder.`,
    )
  }
  if (other && flags.dataDir === undefined) {
    throw new WebHostRefusal(
      '--other-profiles needs a --data-dir of its own (never the desktop app’s data folder).',
    )
  }
  return {
    dataDir: flags.dataDir ?? join(places.temporaryDir(), 'data'),
    temporary: flags.dataDir === undefined,
    keychain: other ? 'system' : 'memory',
    sandboxOnly: !other,
  }
}

/** Whether `path` is `folder` or inside it. */
function within(folder: string, path: string): boolean {
  const rest = relative(resolve(folder), resolve(path))
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest))
}
