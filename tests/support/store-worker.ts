import { sourceThreads } from '../../src/core/threads/source-entries'

/** A profile's database owner and its checkpointer, from their TypeScript sources. */
export const SOURCE_STORE_WORKER = sourceThreads().storeWorker

/** The page thread from its TypeScript source. */
export const SOURCE_PAGE_WORKER = sourceThreads().pageWorker

/** The image-index thread from its TypeScript source. */
export const SOURCE_IMAGE_INDEX_WORKER = sourceThreads().imageIndexWorker
