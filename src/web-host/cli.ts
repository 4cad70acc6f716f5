import { resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createCore } from '../core/app'
import { sourceThreads } from '../core/source-threads'
import { defaultUserDataDir } from '../core/paths'
import { openConfFile } from '../core/settings/conf-file'
import { KeytarStore } from '../core/vault/keytar-store'
import { startEmbeddedSandbox } from '../sandbox'
import { startWebHost } from './server'

/**
 * `npm run web [-- --data-dir DIR --port N]`: starts the embedded sandbox,
 * the core on the Sandbox profile and the web host, then prints one line
 * `WEB_HOST_URL=http://127.0.0.1:PORT/#token=TOKEN`.
 */
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
    'sandbox-size': { type: 'string' },
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

// The host starts the embedded sandbox and hands core its description (core never imports it).
const embedded = await startEmbeddedSandbox(size === undefined ? {} : { size })
const core = createCore({
  fetch: globalThis.fetch,
  dataDir: resolve(values['data-dir'] ?? defaultUserDataDir()),
  host: 'web',
  version: pkg.version,
  keychain: new KeytarStore(),
  openSettings: openConfFile,
  autoSync: true,
  // The data threads run from their TypeScript sources here, loaded through tsx.
  ...sourceThreads(),
  sandbox: embedded.profile,
})
const host = await startWebHost({
  router: core.router,
  events: core.events,
  rendererDir: resolve(root, 'out/renderer'),
  port,
  cards: core.images,
  wallet: core.wallet,
})
console.log(`WEB_HOST_URL=${host.url}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([host.close(), core.close()])
      .then(() => embedded.sandbox.close())
      .then(() => process.exit(0))
  })
}
