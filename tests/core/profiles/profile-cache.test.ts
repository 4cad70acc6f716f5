import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { storeFileFor } from '../../../src/core/store/paths'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import type { InspectionRow, QueryPage, SyncStatus } from '../../../src/shared/lists'
import { bootForTest, call } from '../helpers/core'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../../support/store-worker'

/**
 * Each profile has its own cache file and sync engine: switching profiles
 * must switch what the lists show, and switching back must find the first
 * profile's cache as it was left (offline work per account).
 */
let second: Sandbox
const cores: BootedCore[] = []

beforeAll(async () => {
  second = await startSandbox({ seed: 7, size: 30 })
})
afterAll(() => second.close())
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
})

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
    const core = await bootForTest({
      keychain: new MemoryStore(),
      keychainService: 'test-profile-cache',
    })
    cores.push(core)
    await syncInspections(core)
    const sandboxRows = await inspectionNumbers(core)
    expect(sandboxRows).toHaveLength(50)
    const firstEngine = core.sync

    const saved = await call(core, 'profiles.save', {
      name: '두 번째 매장',
      baseUrl: second.baseUrl,
      staticUrl: second.staticUrl,
      partnerId: second.partnerId,
      redirectUri: 'https://shop.example.com/wallet/done',
    })
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
      sessionOnly: true,
    })
    await call(core, 'profiles.select', { id: saved.id })
    expect(core.sync).not.toBe(firstEngine)
    expect(await inspectionNumbers(core)).toEqual([])

    await syncInspections(core)
    const secondRows = await inspectionNumbers(core)
    expect(secondRows).toHaveLength(30)
    expect(existsSync(storeFileFor(core.dataDir, saved.id))).toBe(true)

    await call(core, 'profiles.select', { id: 'sandbox' })
    expect(await inspectionNumbers(core)).toEqual(sandboxRows)
  })
})

describe('automatic sync', () => {
  it('with autoSync the app fills the active profile’s cache by itself at start', async () => {
    const core = await bootWithEmbeddedSandbox({
      fetch: globalThis.fetch,
      dataDir: mkdtempSync(join(tmpdir(), 'ad-autosync-')),
      host: 'web',
      version: '0.0.0-test',
      keychain: new MemoryStore(),
      openSettings: openConfFile,
      storeWorker: SOURCE_STORE_WORKER,
      pageWorker: SOURCE_PAGE_WORKER,
      imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
      sandbox: { size: 40 },
      autoSync: true,
    })
    cores.push(core)
    await core.sync.idle()
    expect(await inspectionNumbers(core)).toHaveLength(40)
    const guarantees = await call(core, 'guarantees.query', {})
    expect(guarantees.total).toBe(40)
  })
})
