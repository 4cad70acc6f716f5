import { test as base } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bootWithEmbeddedSandbox, type BootedCore } from '../support/boot'
import { SOURCE_STORE_WORKER } from '../support/store-worker'
import { startWebHost, type WebHost } from '../../src/web-host/server'
import { openConfFile } from '../../src/core/settings/conf-file'
import { MemoryStore } from '../../src/core/vault/memory-store'

/** A running app: the embedded sandbox, the real core, and the web host serving the built renderer. */
export interface RunningApp {
  readonly core: BootedCore
  readonly host: WebHost
  readonly dataDir: string
}

/** Each test file gets one app (worker scope), with its own data folder. */
export const test = base.extend<object, { app: RunningApp }>({
  app: [
    // Playwright requires an object pattern for the (unused) fixtures argument.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ad-e2e-'))
      const core = await bootWithEmbeddedSandbox({
        fetch: globalThis.fetch,
        dataDir,
        host: 'web',
        version: '0.0.0-e2e',
        // Session-only credentials: the keychain itself is tested against a real one in tests/core.
        keychain: new MemoryStore(),
        openSettings: openConfFile,
        storeWorker: SOURCE_STORE_WORKER,
        sandbox: { size: 500 },
      })
      const host = await startWebHost({
        router: core.router,
        events: core.events,
        rendererDir: resolve('out/renderer'),
        cards: core.images,
      })
      await use({ core, host, dataDir })
      await host.close()
      await core.close()
    },
    { scope: 'worker' },
  ],
})

export { expect } from '@playwright/test'
