import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox'
import { createCore, type Core, type CoreDeps } from './app'

export { SANDBOX_PROFILE_ID } from '../shared/profiles'

/** Options of {@link bootWithEmbeddedSandbox}: core's parts, with the embedded sandbox's options in place of a profile. */
export interface BootOptions extends Omit<CoreDeps, 'sandbox'> {
  readonly sandbox?: SandboxOptions
}

/** A core with the built-in "Sandbox" profile, with the sandbox it owns. */
export interface BootedCore extends Core {
  readonly sandbox: Sandbox
}

/**
 * Starts the embedded sandbox on 127.0.0.1 and a free port, and composes core
 * with it as the built-in "Sandbox" profile (the default on first run, so a
 * new user sees a working app at once); the last used profile opens
 * otherwise. Both hosts (Electron main and the web host) start the app this way.
 */
export async function bootWithEmbeddedSandbox(options: BootOptions): Promise<BootedCore> {
  const { sandbox: sandboxOptions, ...deps } = options
  const sandbox = await startSandbox({ seed: 1, size: 3000, ...sandboxOptions })
  const core = await createCore({
    ...deps,
    sandbox: {
      name: 'Sandbox',
      baseUrl: sandbox.baseUrl,
      staticUrl: sandbox.staticUrl,
      partnerId: sandbox.partnerId,
      // The sandbox's wallet-link pages end here (an assumption until the wallet flow exists).
      redirectUri: new URL('/wallet/done', sandbox.baseUrl).toString(),
      credentials: { apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret },
    },
  })
  // Not a spread: `sync` and `storeNotice` are getters that follow the active profile.
  const closeCore = core.close.bind(core)
  return Object.defineProperties(core, {
    sandbox: { value: sandbox, enumerable: true },
    close: {
      value: async () => {
        await closeCore()
        await sandbox.close()
      },
    },
  }) as BootedCore
}
