import type { ThreadEntry } from './spawn'

/**
 * Every data thread's entry, declared once: its bundle's name → its
 * TypeScript source (from `src/core`). The Electron build
 * (`electron.vite.config.ts`) and the bench (`bench/bundle.ts`) bundle each
 * under its name; the Electron host passes the bundles (`src/main/index.ts`),
 * the web host, the tests and the bench the sources or their own bundles
 * (`threads/source-entries.ts`, `bench/bundled-threads.ts`), all through
 * {@link appThreads}.
 */
export const THREAD_ENTRIES = {
  /** A profile's database owner: every query and write. */
  'owner-worker': 'owner/worker.ts',
  /** A profile's WAL checkpointer and deep check. */
  'checkpoint-worker': 'owner/checkpoint-worker.ts',
  /** The sync's page thread: parses list answers. */
  'page-worker': 'sync/page-thread/worker.ts',
  /** The card-image cache's index. */
  'image-index-worker': 'images/index-worker.ts',
  /** The team worker: syncs marks with the profile's team server. */
  'team-worker': 'team/worker.ts',
} as const

/** A data thread's bundle name. */
export type ThreadName = keyof typeof THREAD_ENTRIES

/**
 * The names of {@link THREAD_ENTRIES}, in declaration order.
 * @internal
 */
export const THREAD_NAMES = Object.keys(THREAD_ENTRIES) as ThreadName[]

/** The data threads' entries as the core takes them (`CoreDeps`). */
export interface AppThreads {
  readonly storeWorker: { readonly owner: ThreadEntry; readonly checkpointer: ThreadEntry }
  readonly pageWorker: ThreadEntry
  readonly teamWorker: ThreadEntry
  readonly imageIndexWorker: ThreadEntry
}

/**
 * The core's thread entries, each located by `at` from its name (a bundle
 * beside the host's own, or the TypeScript source).
 */
export function appThreads(at: (name: ThreadName) => ThreadEntry): AppThreads {
  return {
    storeWorker: { owner: at('owner-worker'), checkpointer: at('checkpoint-worker') },
    pageWorker: at('page-worker'),
    teamWorker: at('team-worker'),
    imageIndexWorker: at('image-index-worker'),
  }
}
