import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox'
import type { FetchLike } from './api/http'
import { createCore, type Core, type CoreDeps } from './app'
import type { AppInfo } from '../shared/domain'
import type { OpenSettingsFile } from './settings/settings-file'
import type { SecureStore } from './vault/secure-store'

export { SANDBOX_PROFILE_ID } from '../shared/profiles'

/** Options of {@link bootWithEmbeddedSandbox}. */
export interface BootOptions {
  readonly fetch: FetchLike
  readonly dataDir: string
  readonly host: AppInfo['host']
  readonly version: string
  /** The OS keychain (keytar in both hosts). */
  readonly keychain: SecureStore
  /** electron-store in the shell, conf in the web host and tests. */
  readonly openSettings: OpenSettingsFile
  readonly keychainService?: string
  readonly keychainTimeoutMs?: number
  readonly log?: (message: string) => void
  readonly sandbox?: SandboxOptions
  /** Sync in the background at start and after a profile switch (see `CoreDeps.autoSync`). */
  readonly autoSync?: boolean
  /** The cache-writer thread entry (see `CoreDeps.writerWorker`). */
  readonly writerWorker?: CoreDeps['writerWorker']
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
  const sandbox = await startSandbox({ seed: 1, size: 3000, ...options.sandbox })
  const core = createCore({
    fetch: options.fetch,
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    ...(options.writerWorker ? { writerWorker: options.writerWorker } : {}),
    ...(options.autoSync ? { autoSync: true } : {}),
    keychain: options.keychain,
    openSettings: options.openSettings,
    ...(options.keychainService === undefined ? {} : { keychainService: options.keychainService }),
    ...(options.keychainTimeoutMs === undefined
      ? {}
      : { keychainTimeoutMs: options.keychainTimeoutMs }),
    ...(options.log === undefined ? {} : { log: options.log }),
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
