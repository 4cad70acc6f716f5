import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { damagedMarkerFor } from '../../../src/core/store/schema/deep-check'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'
import { damagedStoreFile, tempDir } from './fixtures'

const temp = tempDir()
afterEach(() => temp.remove())

describe('the deep check of a profile file', () => {
  it('runs after the owner has opened the file; a damage it finds makes the next open rebuild it', async () => {
    const file = damagedStoreFile(temp.dir)
    // The owner opens without reading every page: the first rows are not held up by the check.
    const owner = await StoreOwner.open({ file, threads: SOURCE_STORE_WORKER })
    expect(owner.notice).toBeNull()
    // The checkpointer's connection reads every page meanwhile and marks the file.
    await vi.waitFor(() => expect(owner.damaged).toBe(true), { timeout: 20_000, interval: 20 })
    expect(existsSync(damagedMarkerFor(file))).toBe(true)
    await owner.close()

    const again = await StoreOwner.open({ file, threads: SOURCE_STORE_WORKER })
    expect(again.notice?.code).toBe('store_corrupt')
    expect(existsSync(damagedMarkerFor(file))).toBe(false)
    expect((await again.call('queryInspections', { limit: 5 })).total).toBe(0)
    await again.close()
  })
})
