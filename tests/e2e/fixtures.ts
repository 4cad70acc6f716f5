import { test as base } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { bootWithEmbeddedSandbox, type BootedCore, type BootOptions } from '../support/boot'
import { startWebHost, type WebHost } from '../../src/web-host/server'
import { openConfFile } from '../../src/core/settings/conf-file'
import { MemoryStore } from '../../src/core/vault/memory-store'
import type { ChannelName } from '../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../src/shared/contract'

/** A running app: the embedded sandbox, the real core, and the web host serving the built renderer. */
export interface RunningApp {
  readonly core: BootedCore
  readonly host: WebHost
  readonly dataDir: string
  /** What the core logged, in order (a failed test gets its share attached). */
  readonly log: readonly string[]
}

/**
 * Starts an app on a fresh data folder: the embedded sandbox (500 records
 * unless `options.sandbox` says otherwise), the real core with session-only
 * credentials (the keychain itself is tested against a real one in
 * tests/core), and the web host. `close` stops all three.
 */
export async function startApp(
  options: Partial<BootOptions> = {},
): Promise<RunningApp & { close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ad-e2e-'))
  const log: string[] = []
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir,
    host: 'web',
    version: '0.0.0-e2e',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    log: (message) => log.push(`${new Date().toISOString()} ${message}`),
    sandbox: { size: 500 },
    ...options,
  })
  const host = await startWebHost({
    router: core.router,
    events: core.events,
    rendererDir: resolve('out/renderer'),
    cards: core.images,
    wallet: core.wallet,
  })
  return {
    core,
    host,
    dataDir,
    log,
    async close() {
      await host.close()
      await core.close()
    },
  }
}

/**
 * The apps of one worker, one a spec file: a test gets its file's app, and
 * the first test of the next file closes the one before. (A worker-scoped
 * app would be shared by every file the worker runs, so one file's wallet
 * account, PIN or marks would meet the next file's tests.)
 */
export class AppShelf {
  #file: string | undefined
  #app: Promise<RunningApp & { close(): Promise<void> }> | undefined

  /** The app of `file`, started by `start` the first time that file asks. */
  async for(
    file: string,
    start: () => Promise<RunningApp & { close(): Promise<void> }>,
  ): Promise<RunningApp> {
    if (this.#file !== file) {
      await this.close()
      this.#file = file
      this.#app = start()
    }
    return this.#app!
  }

  async close(): Promise<void> {
    const app = this.#app
    this.#app = undefined
    this.#file = undefined
    if (app) await (await app).close()
  }
}

type AppStart = () => Promise<RunningApp & { close(): Promise<void> }>

/** The `app` fixture: the app of the test's spec file, started by `start` for its first test. */
function appOfFile(
  start: AppStart,
): [
  (
    fixtures: { appShelf: AppShelf },
    use: (app: RunningApp) => Promise<void>,
    testInfo: { file: string },
  ) => Promise<void>,
  { scope: 'test'; timeout: number },
] {
  return [
    async (
      { appShelf }: { appShelf: AppShelf },
      use: (app: RunningApp) => Promise<void>,
      testInfo: { file: string },
    ) => {
      await use(await appShelf.for(testInfo.file, start))
    },
    { scope: 'test', timeout: 120_000 },
  ]
}

/**
 * Each spec file gets one app of its own, with its own data folder, shared
 * by that file's tests. The UI language and the lists' last filters are
 * settings of that app, so each test starts in Korean, the default, with no
 * filter on the lists, whatever the test before it chose.
 */
export const test = base.extend<
  { app: RunningApp; koreanFirst: void; coreReport: void },
  { appShelf: AppShelf }
>({
  appShelf: [
    // Playwright requires an object pattern for the (unused) fixtures argument.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const shelf = new AppShelf()
      await use(shelf)
      await shelf.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  app: appOfFile(() => startApp()),
  koreanFirst: [
    async ({ app }, use) => {
      await freshStart(app)
      await use()
    },
    { auto: true },
  ],
  // A failed test gets what the core logged meanwhile and its sync status, as the app would show.
  coreReport: [
    async ({ app }, use, testInfo) => {
      const from = app.log.length
      await use()
      if (testInfo.status === testInfo.expectedStatus) return
      const sync = await call(app, 'sync.status').then(
        (status) =>
          status.resources.map(
            (r) =>
              `${r.resource}: ${r.status}, ${r.recordCount} records` +
              (r.error ? `, ${r.error.code}: ${r.error.message}` : ''),
          ),
        (error: unknown) => [String(error)],
      )
      await testInfo.attach('core', {
        contentType: 'text/plain',
        body: [
          ...sync,
          'log:',
          ...(app.log.length > from ? app.log.slice(from) : ['(nothing)']),
        ].join('\n'),
      })
    },
    { auto: true },
  ],
})

/** Calls a channel of the running core directly and answers its value. */
export async function call<C extends ChannelName>(
  app: RunningApp,
  channel: C,
  args: ChannelArgs<C> = {} as ChannelArgs<C>,
): Promise<ChannelResult<C>> {
  const answer = await app.core.router.dispatch(channel, args)
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
  return answer.value as ChannelResult<C>
}

export { expect } from '@playwright/test'

/** The web host's address opening on one screen (`#inspections&token=…`), as a bookmark would. */
export function screenUrl(url: string, screen: string): string {
  return url.replace('#token=', `#${screen}&token=`)
}

/**
 * Puts an app shared by a file's tests back where a test starts: Korean (and
 * any other settings given), and the lists on no filter (they open on their
 * last one, kept in the settings), whatever the test before it chose.
 */
export async function freshStart(
  app: RunningApp,
  settings: { theme?: 'light' | 'dark' | 'system' } = {},
): Promise<void> {
  const answer = await app.core.router.dispatch('settings.set', { language: 'ko', ...settings })
  if (!answer.ok) throw new Error(`settings.set: ${answer.error.message}`)
  for (const resource of ['inspections', 'guarantees'] as const) {
    const reset = await app.core.router.dispatch('views.setLast', { resource, filter: {} })
    if (!reset.ok) throw new Error(`views.setLast: ${reset.error.message}`)
  }
}

/**
 * The fixtures of a spec file whose app starts another way than
 * `startApp()` (another sandbox, a clock, a first sync): `testWithApp(async () => …)`.
 */
export function testWithApp(start: AppStart) {
  return test.extend<{ app: RunningApp }>({ app: appOfFile(start) })
}
