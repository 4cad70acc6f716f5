import type { StoreThreads } from '../../src/core/store/owner/store-owner'
import type { ThreadEntry } from '../../src/core/store/threads'

/** A data thread from its TypeScript source, loaded through tsx (as the web host does). */
function source(path: string): ThreadEntry {
  return { url: new URL(`../../src/core/${path}`, import.meta.url), execArgv: ['--import', 'tsx'] }
}

/** A profile's database owner and its checkpointer, from their TypeScript sources. */
export const SOURCE_STORE_WORKER: StoreThreads = {
  owner: source('store/owner/worker.ts'),
  checkpointer: source('store/owner/checkpoint-worker.ts'),
}

/** The page thread from its TypeScript source. */
export const SOURCE_PAGE_WORKER: ThreadEntry = source('sync/page-thread/worker.ts')
