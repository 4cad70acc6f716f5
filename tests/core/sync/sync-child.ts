import { appendFileSync } from 'node:fs'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { storeFileFor } from '../../../src/core/store/paths'
import type { PageWrite } from '../../../src/core/store/write/page-write'
import type { StoreOp } from '../../../src/core/owner/store-ops'
import { StoreOwner, type StoreClient } from '../../../src/core/owner/store-owner'
import { clientSyncSource } from '../../../src/core/sync/paged-pass'
import { DEFAULT_MAX_PENDING_WRITES, SyncEngine } from '../../../src/core/sync/sync-engine'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'

/**
 * A sync in a separate process, for the kill -9 test (docs/faults.md F26): it
 * SIGKILLs itself right after committing page `KILL_AT_PAGE`, the way a
 * crash or a force-quit would end it.
 *
 * The owner thread stands in for a slow disk: page `KILL_AT_PAGE`'s write
 * waits until the engine has queued every write it may queue behind it, and
 * the later ones never reach the owner. Each write is noted in `postedFile`
 * (synchronously, so the note survives the kill) when the engine sends it.
 * Without `postedFile` every write goes straight to the owner.
 */
const config = JSON.parse(process.env['SYNC_CHILD'] ?? '{}') as {
  baseUrl: string
  partnerId: string
  apiKey: string
  apiSecret: string
  dataDir: string
  killAtPage: number
  /** Given: the owner stands in for a slow disk and each posted write is noted here (see above). */
  postedFile?: string
  /** The lists to sync in full (default: inspections). */
  resources?: ('inspections' | 'guarantees')[]
}
const owner = await StoreOwner.open({
  file: storeFileFor(config.dataDir, 'sandbox'),
  threads: SOURCE_STORE_WORKER,
})
const forward = owner.call as (op: StoreOp, ...args: unknown[]) => Promise<unknown>
let posted = 0
let queueFull: () => void = () => undefined
const filled = new Promise<void>((resolve) => (queueFull = resolve))
const store: StoreClient = {
  resetWrites: () => owner.resetWrites(),
  call: (async (op: StoreOp, ...args: unknown[]) => {
    const checkpoint = (args[0] as PageWrite | undefined)?.state?.checkpoint
    if (op !== 'writePage' || !checkpoint || !config.postedFile) {
      return forward.call(owner, op, ...args)
    }
    const page = checkpoint.nextPage - 1
    appendFileSync(config.postedFile, `${page}\n`)
    posted = page
    if (posted === config.killAtPage + DEFAULT_MAX_PENDING_WRITES) queueFull()
    if (page > config.killAtPage) return new Promise<never>(() => undefined)
    if (page === config.killAtPage) await filled
    return forward.call(owner, op, ...args)
  }) as StoreClient['call'],
}
const client = new PartnerClient({
  fetch: globalThis.fetch,
  target: { baseUrl: config.baseUrl, partnerId: config.partnerId },
  credentials: async () => ({ apiKey: config.apiKey, apiSecret: config.apiSecret }),
})
const engine = new SyncEngine({
  store,
  source: clientSyncSource(client),
  events: new EventBus(),
  concurrency: 1,
  afterPage: (_resource, page) => {
    if (page === config.killAtPage) process.kill(process.pid, 'SIGKILL')
  },
})
await engine.run(config.resources ?? ['inspections'], 'full')
process.exit(3)
