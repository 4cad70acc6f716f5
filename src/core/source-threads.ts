import type { StoreThreads } from './owner/store-owner'
import type { ThreadEntry } from './threads/spawn'

/** A data thread from its TypeScript source, loaded through tsx. */
function fromSource(url: URL): ThreadEntry {
  return { url, execArgv: ['--import', 'tsx'] }
}

/**
 * The data threads' entries as the TypeScript sources, for the hosts that
 * run from source (the web host, the tests, the bench). The Electron app
 * passes the bundled files instead (`src/main/index.ts`).
 */
export function sourceThreads(): {
  storeWorker: StoreThreads
  pageWorker: ThreadEntry
  teamWorker: ThreadEntry
} {
  return {
    storeWorker: {
      owner: fromSource(new URL('./owner/worker.ts', import.meta.url)),
      checkpointer: fromSource(new URL('./owner/checkpoint-worker.ts', import.meta.url)),
    },
    pageWorker: fromSource(new URL('./sync/page-thread/worker.ts', import.meta.url)),
    teamWorker: fromSource(new URL('./team/worker.ts', import.meta.url)),
  }
}
