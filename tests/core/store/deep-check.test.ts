import { closeSync, existsSync, openSync, writeSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/database'
import { damagedMarkerFor } from '../../../src/core/store/deep-check'
import { StoreOwner } from '../../../src/core/store/owner/store-owner'
import { storeFileFor } from '../../../src/core/store/paths'
import { upsertInspections } from '../../support/store-writes'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'
import { inspection, tempDir } from './fixtures'

const temp = tempDir()
afterEach(() => temp.remove())

/** A store of 300 inspections with one page in the middle overwritten by garbage. */
function damagedStore(): string {
  const file = storeFileFor(temp.dir, 'sandbox')
  const first = openStore(file)
  transaction(first.db, () =>
    upsertInspections(
      first.db,
      Array.from({ length: 300 }, (_, i) => inspection(i + 1)),
      1,
      'now',
    ),
  )
  first.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  first.db.close()
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, 4096 * 2)
  closeSync(fd)
  return file
}

describe('the deep check of a profile file', () => {
  it('runs after the owner has opened the file; a damage it finds makes the next open rebuild it', async () => {
    const file = damagedStore()
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
