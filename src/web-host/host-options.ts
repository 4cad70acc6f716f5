import { join } from 'node:path'

/** The web host's command-line flags after parsing. */
export interface WebHostFlags {
  readonly dataDir?: string | undefined
  readonly allowRealProfiles?: boolean | undefined
}

/** Where the web host keeps its data, which keychain it uses, and whether other profiles are refused. */
export interface WebHostSetup {
  readonly dataDir: string
  /** The data folder is a fresh temporary one, removed when the host stops. */
  readonly temporary: boolean
  /** `system`: the OS keychain; `memory`: secrets live until the host stops. */
  readonly keychain: 'system' | 'memory'
  /** Only the Sandbox profile may be active (`sandboxOnlyRouter`). */
  readonly sandboxOnly: boolean
}

/**
 * Decides the web host's setup from its flags (the router guard is
 * `sandboxOnlyRouter` in `sandbox-only.ts`). By default it is a
 * development and test host: a temporary data folder, an in-memory keychain
 * and the Sandbox profile only, so it never reads or writes the desktop
 * app's data, keychain entries or production profiles. `--allow-real-profiles`
 * lifts all three (the data folder is then `--data-dir` or the app's own);
 * `--data-dir` alone chooses the folder and keeps the rest.
 */
export function webHostSetup(
  flags: WebHostFlags,
  places: { readonly temporaryDir: () => string; readonly userDataDir: string },
): WebHostSetup {
  const real = flags.allowRealProfiles === true
  const chosen = flags.dataDir ?? (real ? places.userDataDir : undefined)
  return {
    dataDir: chosen ?? join(places.temporaryDir(), 'data'),
    temporary: chosen === undefined,
    keychain: real ? 'system' : 'memory',
    sandboxOnly: !real,
  }
}
