import type { StoreWorkerEntry } from '../../src/core/store/owner/store-owner'

/** The database owner thread from its TypeScript source, loaded through tsx (as the web host does). */
export const SOURCE_STORE_WORKER: StoreWorkerEntry = {
  url: new URL('../../src/core/store/owner/worker.ts', import.meta.url),
  execArgv: ['--import', 'tsx'],
}

/** The page thread from its TypeScript source, loaded through tsx (as the web host does). */
export const SOURCE_PAGE_WORKER: StoreWorkerEntry = {
  url: new URL('../../src/core/sync/page-thread/worker.ts', import.meta.url),
  execArgv: ['--import', 'tsx'],
}
