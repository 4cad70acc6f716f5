import { openConfFile } from '../src/core/settings/conf-file'
import { MemoryStore } from '../src/core/vault/memory-store'
import { bootWithEmbeddedSandbox } from '../tests/support/boot'
import { bundledThreads } from './bundled-threads'

/**
 * `start_first_rows_ms_*` and `idle_rss_mb_*`: a new process, bundled as the
 * app is (`bench/bundle.ts`), starts the core
 * on a data folder whose sandbox profile's store is already full (the bench
 * fills it), asks the first page of inspections, then idles until the owner
 * has built its cell indexes. Prints one line `START={json}`.
 */
const dataDir = process.argv[2] ?? ''
const t0 = performance.now()
const core = await bootWithEmbeddedSandbox({
  fetch: globalThis.fetch,
  dataDir,
  host: 'web',
  version: '0.0.0-bench',
  keychain: new MemoryStore(),
  keychainService: 'bench-start',
  openSettings: openConfFile,
  log: () => undefined,
  sandbox: { size: 10 },
  ...bundledThreads(import.meta.url),
})
const result = await core.router.dispatch('inspections.query', { limit: 50 })
const firstMs = performance.now() - t0
// CPU time of the whole process (every thread) from its start to the first page: what a loaded
// machine does not inflate.
const firstCpu = process.cpuUsage()
if (!result.ok) throw new Error(`inspections.query: ${result.error.message}`)
const rssFirst = process.memoryUsage.rss()
// Idle: the owner builds its cell indexes in its idle steps. The process (every thread) is idle
// once half a second passes with under 10 ms of its CPU time; then a quiet second more.
for (let last = process.cpuUsage(); performance.now() - t0 < 60_000;) {
  await new Promise((resolve) => setTimeout(resolve, 500))
  const used = process.cpuUsage(last)
  last = process.cpuUsage()
  if ((used.user + used.system) / 1000 < 10) break
}
await new Promise((resolve) => setTimeout(resolve, 1000))
const rssIdle = process.memoryUsage.rss()
const heap = process.memoryUsage()
process.stdout.write(
  `START=${JSON.stringify({
    firstMs,
    cpuToFirstMs: (firstCpu.user + firstCpu.system) / 1000,
    sinceProcessStartMs: t0 + firstMs,
    answer: Object.keys(result.value as object),
    rssFirstMb: rssFirst / 2 ** 20,
    rssIdleMb: rssIdle / 2 ** 20,
    heapUsedMb: heap.heapUsed / 2 ** 20,
    externalMb: heap.external / 2 ** 20,
  })}\n`,
)
await core.close()
