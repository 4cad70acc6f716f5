import { join, resolve } from 'node:path'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { parseArgs } from 'node:util'
import { createCore } from '../core/app'
import { sourceThreads } from '../core/threads/source-entries'
import { defaultUserDataDir } from '../core/paths'
import { sandboxAnchor } from '../core/sandbox-anchor'
import { openConfFile } from '../core/settings/conf-file'
import { KeytarStore } from '../core/vault/keytar-store'
import { MemoryStore } from '../core/vault/memory-store'
import { SANDBOX_PROFILE_ID } from '../shared/profiles'
import { startEmbeddedSandbox } from '../sandbox'
import { WEB_HOST_KEYCHAIN_SERVICE, WebHostRefusal, webHostSetup } from './host-options'
import { desktopLockHeld, machineProbe } from './desktop-lock'
import { webHostRouter } from './host-router'
import { startWebHost } from './server'

/**
 * `npm run web [-- --data-dir DIR --other-profiles --port N --sandbox-anchor TIME]`: starts
 * the embedded sandbox, the core on the Sandbox profile and the web host,
 * then prints `WEB_HOST_URL=http://127.0.0.1:PORT/#token=TOKEN` (for tests
 * and this terminal) and `WEB_HOST_OPEN=http://127.0.0.1:PORT/#code=CODE`
 * (a one-time code, the address `npm start` opens the browser with). By
 * default the data folder is a temporary one, the keychain lives in memory
 * and only the Sandbox profile may be used (`host-options.ts`); the desktop
 * app's data folder is never used, and the host does not start while the
 * desktop app runs (`desktop-lock.ts`).
 */
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
    'sandbox-size': { type: 'string' },
    'sandbox-anchor': { type: 'string' },
    'other-profiles': { type: 'boolean', default: false },
  },
  strict: true,
})

const root = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)})`,
  )
  process.exit(2)
}
const size = values['sandbox-size'] === undefined ? undefined : Number(values['sandbox-size'])
const userDataDir = defaultUserDataDir()
/** Ends the start with one line on stderr. */
function refuse(message: string): never {
  console.error(message)
  process.exit(2)
}
// The desktop app and this host never share a data folder, a cache file or a keychain entry.
if (desktopLockHeld(userDataDir, machineProbe)) {
  refuse(
    `The desktop app is running (it holds its lock in ${userDataDir}): quit it before starting the web host.`,
  )
}
let setup: ReturnType<typeof webHostSetup>
try {
  setup = webHostSetup(
    {
      dataDir: values['data-dir'] === undefined ? undefined : resolve(values['data-dir']),
      otherProfiles: values['other-profiles'],
    },
    {
      temporaryDir: () => mkdtempSync(join(tmpdir(), 'appraisal-desk-web-')),
      userDataDir,
    },
  )
} catch (error) {
  if (error instanceof WebHostRefusal) refuse(error.message)
  throw error
}
if (desktopLockHeld(setup.dataDir, machineProbe)) {
  refuse(`A desktop app holds the lock of ${setup.dataDir}: quit it or choose another --data-dir.`)
}

const anchorText = values['sandbox-anchor']
const anchor =
  anchorText === undefined ? sandboxAnchor(setup.dataDir, Date.now()) : Date.parse(anchorText)
if (!Number.isFinite(anchor)) {
  console.error(
    `--sandbox-anchor must be a date and time such as 2026-11-25T10:00:00+09:00 (got ${JSON.stringify(anchorText)})`,
  )
  process.exit(2)
}

// The host starts the embedded sandbox and hands core its description (core never imports it).
const embedded = await startEmbeddedSandbox({ anchor, ...(size === undefined ? {} : { size }) })
const core = createCore({
  fetch: globalThis.fetch,
  dataDir: setup.dataDir,
  host: 'web',
  version: pkg.version,
  keychain: setup.keychain === 'system' ? new KeytarStore() : new MemoryStore(),
  keychainService: WEB_HOST_KEYCHAIN_SERVICE,
  openSettings: openConfFile,
  autoSync: true,
  // The data threads run from their TypeScript sources here, loaded through tsx.
  ...sourceThreads(),
  sandbox: embedded.profile,
})
if (setup.sandboxOnly && core.profiles.activeId !== SANDBOX_PROFILE_ID) {
  // A data folder given with --data-dir may have another profile active: back to the Sandbox.
  await core.router.dispatch('profiles.select', { id: SANDBOX_PROFILE_ID })
}
const host = await startWebHost({
  router: webHostRouter(core.router, {
    sandboxOnly: setup.sandboxOnly,
    active: () => core.profiles.active().summary,
  }),
  events: core.events,
  rendererDir: resolve(root, 'out/renderer'),
  port,
  cards: core.images,
  wallet: core.wallet,
})
console.log(`WEB_HOST_URL=${host.url}`)
console.log(`WEB_HOST_OPEN=${host.openUrl()}`)

// A Ctrl+C reaches this process from the terminal and again through its parents
// (`npm start`, tsx): the first signal closes in order, later ones wait for it.
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    void Promise.all([host.close(), core.close()])
      .then(() => embedded.sandbox.close())
      .then(() => {
        if (setup.temporary) rmSync(resolve(setup.dataDir, '..'), { recursive: true, force: true })
        process.exit(0)
      })
  })
}
