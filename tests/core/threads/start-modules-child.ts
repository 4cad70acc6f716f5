import { registerHooks } from 'node:module'

/**
 * A core in a process of its own, as a host starts it: it answers the first
 * page of a list, then exports that list, and prints the modules its main
 * thread loaded by then (each time, those matching the test's names).
 */
const loaded: string[] = []
registerHooks({
  load(url, context, next) {
    loaded.push(url)
    return next(url, context)
  },
})
const { mkdtempSync, rmSync } = await import('node:fs')
const { tmpdir } = await import('node:os')
const { join } = await import('node:path')
const { openConfFile } = await import('../../../src/core/settings/conf-file')
const { MemoryStore } = await import('../../../src/core/vault/memory-store')
const { bootWithEmbeddedSandbox } = await import('../../support/boot')

const dataDir = mkdtempSync(join(tmpdir(), 'start-modules-'))
const core = await bootWithEmbeddedSandbox({
  fetch: globalThis.fetch,
  dataDir,
  host: 'web',
  version: '0.0.0-test',
  keychain: new MemoryStore(),
  keychainService: 'start-modules-test',
  openSettings: openConfFile,
  log: () => undefined,
  sandbox: { size: 20 },
})
const dispatch = async (channel: string, args: unknown): Promise<void> => {
  const result = await core.router.dispatch(channel as never, args as never)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
}
await dispatch('inspections.query', { limit: 50 })
const atStart = [...loaded]
await dispatch('lists.export', { resource: 'inspections', lang: 'ko', format: 'csv' })
const afterExport = [...loaded]
await core.close()
rmSync(dataDir, { recursive: true, force: true })
process.stdout.write(`RESULT=${JSON.stringify({ atStart, afterExport })}\n`)
