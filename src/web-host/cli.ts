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
import { webHostSetup } from './host-options'
import { sandboxOnlyRouter } from './sandbox-only'
import { startWebHost } from './server'

/**
 * `npm run web [-- --data-dir DIR --port N --allow-real-profiles --sandbox-anchor TIME]`: starts
 * the embedded sandbox, the core on the Sandbox profile and the web host,
 * then prints one line `WEB_HOST_URL=http://127.0.0.1:PORT/#token=TOKEN`.
 * By default the data folder is a temporary one, the keychain lives in
 * memory and only the Sandbox profile may be used (`host-options.ts`).
 */
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
    'sandbox-size': { type: 'string' },
    'sandbox-anchor': { type: 'string' },
    'allow-real-profiles': { type: 'boolean', default: false },
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
const setup = webHostSetup(
  {
    dataDir: values['data-dir'] === undefined ? undefined : resolve(values['data-dir']),
    allowRealProfiles: values['allow-real-profiles'],
  },
  {
    temporaryDir: () => mkdtempSync(join(tmpdir(), 'appraisal-desk-web-')),
    userDataDir: defaultUserDataDir(),
  },
)

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
  router: setup.sandboxOnly
    ? sandboxOnlyRouter(core.router, () => core.profiles.activeId)
    : core.router,
  events: core.events,
  rendererDir: resolve(root, 'out/renderer'),
  port,
  cards: core.images,
  wallet: core.wallet,
})
console.log(`WEB_HOST_URL=${host.url}`)

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
