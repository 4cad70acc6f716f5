import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { bootWithEmbeddedSandbox } from '../../support/boot'

/**
 * A core in a process of its own, as a host runs it: it syncs every list,
 * answers a query of each, serves a card image twice (fetched, then from the
 * image cache's index), switches nothing else, and prints the built-in
 * modules its main thread loaded (`process.moduleLoadList` is per thread).
 */
const dataDir = mkdtempSync(join(tmpdir(), 'main-thread-'))
const core = await bootWithEmbeddedSandbox({
  fetch: globalThis.fetch,
  dataDir,
  host: 'web',
  version: '0.0.0-test',
  keychain: new MemoryStore(),
  keychainService: 'main-thread-test',
  openSettings: openConfFile,
  log: () => undefined,
  sandbox: { size: 60 },
})
const steps: string[] = []
const dispatch = async (channel: string, args: unknown): Promise<unknown> => {
  const result = await core.router.dispatch(channel as never, args as never)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
  steps.push(channel)
  return result.value
}
await dispatch('sync.start', { resources: ['brands', 'inspections', 'guarantees'], mode: 'full' })
await core.sync.idle()
await dispatch('inspections.query', { limit: 5 })
const guarantees = await dispatch('guarantees.query', { limit: 5 })
await dispatch('brands.search', { query: '' })
const url = /https?:\/\/[^"]+\/cards\/\d+\.(?:png|gif)/.exec(JSON.stringify(guarantees))?.[0] ?? ''
for (let i = 0; i < 2; i += 1) {
  const served = await core.images.serve(`/u/${Buffer.from(url).toString('base64url')}`)
  steps.push(`card:${served.ok ? 'ok' : served.code}`)
}
await core.close()
rmSync(dataDir, { recursive: true, force: true })
process.stdout.write(
  `RESULT=${JSON.stringify({ steps, sqlite: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.filter((m) => /sqlite/i.test(m)) })}\n`,
)
