import { existsSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { secondShop } from '../../support/second-shop'
import { storeFileFor } from '../../../src/core/store/paths'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { InspectionRow, QueryPage, SyncStatus } from '../../../src/shared/lists'
import { bootForTest, call } from '../helpers/core'

/**
 * Each profile has its own cache file and sync engine: switching profiles
 * must switch what the lists show, and switching back must find the first
 * profile's cache as it was left (offline work per account).
 */
const second = secondShop(30)

async function syncInspections(core: BootedCore): Promise<void> {
  await call(core, 'sync.start', { resources: ['inspections'], mode: 'full' })
  await core.sync.idle()
  const status: SyncStatus = await call(core, 'sync.status', {})
  expect(status.resources.find((entry) => entry.resource === 'inspections')?.status).toBe('idle')
}

async function inspectionNumbers(core: BootedCore): Promise<string[]> {
  const page: QueryPage<InspectionRow> = await call(core, 'inspections.query', { limit: 500 })
  return page.rows.map((row) => row.inspectionNum)
}

describe('per-profile cache', () => {
  it('switching profiles switches the cache file and sync engine, and keeps each cache', async () => {
    const core = second.keep(
      await bootForTest({ keychain: new MemoryStore(), keychainService: 'test-profile-cache' }),
    )
    await syncInspections(core)
    const sandboxRows = await inspectionNumbers(core)
    expect(sandboxRows).toHaveLength(50)
    const firstEngine = core.sync

    const id = await second.save(core)
    await call(core, 'profiles.setSecret', {
      id,
      apiKey: second.sandbox.apiKey,
      apiSecret: second.sandbox.apiSecret,
      sessionOnly: true,
    })
    await call(core, 'profiles.select', { id })
    expect(core.sync).not.toBe(firstEngine)
    // The switch answers once the new account's file is open, at the newest schema.
    const opened = new DatabaseSync(storeFileFor(core.dataDir, id), { readOnly: true })
    try {
      expect(opened.prepare('PRAGMA user_version').get()).toEqual({ user_version: LATEST_VERSION })
    } finally {
      opened.close()
    }
    expect(await inspectionNumbers(core)).toEqual([])

    await syncInspections(core)
    const secondRows = await inspectionNumbers(core)
    expect(secondRows).toHaveLength(30)
    expect(existsSync(storeFileFor(core.dataDir, id))).toBe(true)

    await call(core, 'profiles.select', { id: 'sandbox' })
    expect(await inspectionNumbers(core)).toEqual(sandboxRows)
  })
})

describe('automatic sync', () => {
  it('with autoSync the app fills the active profile’s cache by itself at start', async () => {
    const core = second.keep(
      await bootForTest({
        keychain: new MemoryStore(),
        keychainService: 'test-profile-cache',
        sandboxSize: 40,
        autoSync: true,
      }),
    )
    await core.sync.idle()
    expect(await inspectionNumbers(core)).toHaveLength(40)
    const guarantees = await call(core, 'guarantees.query', {})
    expect(guarantees.total).toBe(40)
  })
})
