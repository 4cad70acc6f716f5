import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { storeFileFor } from '../../../src/core/store/database'
import { StoreOwner } from '../../../src/core/store/owner/store-owner'
import { clientSyncSource } from '../../../src/core/sync/partner-source'
import { SyncEngine } from '../../../src/core/sync/sync-engine'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'

/**
 * A sync in a separate process, for the kill -9 test (FAULTS row 26): it
 * SIGKILLs itself right after committing page `KILL_AT_PAGE`, the way a
 * crash or a force-quit would end it.
 */
const config = JSON.parse(process.env['SYNC_CHILD'] ?? '{}') as {
  baseUrl: string
  partnerId: string
  apiKey: string
  apiSecret: string
  dataDir: string
  killAtPage: number
  /** The lists to sync in full (default: inspections). */
  resources?: ('inspections' | 'guarantees')[]
}
const store = await StoreOwner.open({
  file: storeFileFor(config.dataDir, 'sandbox'),
  threads: SOURCE_STORE_WORKER,
})
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
