import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox'
import type { FetchLike } from './api/http'
import { createCore, type Core, type CoreDeps } from './app'
import type { AppInfo } from '../shared/domain'

/** The id of the built-in demo profile. */
export const SANDBOX_PROFILE_ID = 'sandbox'

/** Options of {@link bootWithEmbeddedSandbox}. */
export interface BootOptions {
  readonly fetch: FetchLike
  readonly dataDir: string
  readonly host: AppInfo['host']
  readonly version: string
  readonly sandbox?: SandboxOptions
  /** The cache-writer thread entry (see `CoreDeps.writerWorker`). */
  readonly writerWorker?: CoreDeps['writerWorker']
}

/** A core running on the built-in "Sandbox" profile, with the sandbox it owns. */
export interface BootedCore extends Core {
  readonly sandbox: Sandbox
}

/**
 * Starts the embedded sandbox on 127.0.0.1 and a free port, and composes core
 * on the built-in "Sandbox" profile, so a new user sees a working app at once.
 * Both hosts (Electron main and the web host) start the app this way.
 */
export async function bootWithEmbeddedSandbox(options: BootOptions): Promise<BootedCore> {
  const sandbox = await startSandbox({ seed: 1, size: 3000, ...options.sandbox })
  const core = createCore({
    fetch: options.fetch,
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    ...(options.writerWorker ? { writerWorker: options.writerWorker } : {}),
    profile: {
      summary: {
        id: SANDBOX_PROFILE_ID,
        name: 'Sandbox',
        kind: 'sandbox',
        baseUrl: sandbox.baseUrl,
        partnerId: sandbox.partnerId,
        timeZone: 'Asia/Seoul',
      },
      credentials: () => Promise.resolve({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
      imageOrigins: [sandbox.staticUrl],
    },
  })
  return {
    ...core,
    sandbox,
    async close() {
      await core.close()
      await sandbox.close()
    },
  }
}
