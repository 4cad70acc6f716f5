import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  DATA_THREAD_OLD_GENERATION_MB,
  DATA_THREAD_YOUNG_GENERATION_MB,
  spawnStoreThread,
} from '../../../src/core/threads/spawn'

/** A thread that only waits, started as the data threads are. */
const IDLE_THREAD = { url: new URL('data:text/javascript,setInterval(() => {}, 60000)') }

describe('a data thread', () => {
  it('runs with a bounded heap, so its garbage is collected long before it reaches the default heap', async () => {
    const worker = spawnStoreThread(IDLE_THREAD)
    try {
      await once(worker, 'online')
      const { heap_size_limit: limit } = await worker.getHeapStatistics()
      // The old generation's bound plus the young generation. From 2 GB up V8 lets a heap grow
      // to 4 times its live objects between full collections; its default here is above that.
      expect(limit / 2 ** 20).toBeGreaterThanOrEqual(DATA_THREAD_OLD_GENERATION_MB)
      expect(limit / 2 ** 20).toBeLessThan(2048)
    } finally {
      await worker.terminate()
    }
  })

  it('keeps a bound its handle gives', async () => {
    const worker = spawnStoreThread(IDLE_THREAD, { resourceLimits: { maxOldGenerationSizeMb: 64 } })
    try {
      await once(worker, 'online')
      const { heap_size_limit: limit } = await worker.getHeapStatistics()
      expect(limit / 2 ** 20).toBeLessThan(DATA_THREAD_OLD_GENERATION_MB)
    } finally {
      await worker.terminate()
    }
  })

  it('has a young generation bound, its own or the default (heap-sizing.ts starts it there)', async () => {
    const plain = spawnStoreThread(IDLE_THREAD)
    const larger = spawnStoreThread(IDLE_THREAD, {
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    })
    try {
      await Promise.all([once(plain, 'online'), once(larger, 'online')])
      expect(plain.resourceLimits?.maxYoungGenerationSizeMb).toBe(DATA_THREAD_YOUNG_GENERATION_MB)
      expect(larger.resourceLimits?.maxYoungGenerationSizeMb).toBe(8)
      expect(larger.resourceLimits?.maxOldGenerationSizeMb).toBe(DATA_THREAD_OLD_GENERATION_MB)
    } finally {
      await Promise.all([plain.terminate(), larger.terminate()])
    }
  })
})
