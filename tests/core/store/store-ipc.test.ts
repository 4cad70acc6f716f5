import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { openConfFile } from '../../../src/core/settings/conf-file'
import type { GuaranteeRow, InspectionRow, QueryPage, SyncStatus } from '../../../src/shared/lists'
import type { BrandSearchResult } from '../../../src/shared/domain'
import type { Result } from '../../../src/shared/errors'
import { tempDir } from './fixtures'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../../support/store-worker'

let core: BootedCore | null = null
let temp: ReturnType<typeof tempDir>
afterEach(async () => {
  await core?.close()
  core = null
  temp.remove()
})

async function boot(): Promise<BootedCore> {
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: temp.dir,
    host: 'web',
    version: 'test',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    sandbox: { size: 300 },
  })
  return core
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value as T
}

describe('store and sync over the router', () => {
  it('sync.start fills the cache; queries page through it with counts and freshness', async () => {
    temp = tempDir()
    const app = await boot()
    const progress: string[] = []
    app.events.subscribe((event, payload) => {
      if (event === 'sync.progress') progress.push((payload as { phase: string }).phase)
    })
    const started = value<SyncStatus>(await app.router.dispatch('sync.start', {}))
    expect(started.resources.map((r) => r.resource)).toEqual([
      'brands',
      'inspections',
      'guarantees',
    ])
    await app.sync.idle()
    expect(progress).toContain('done')

    const status = value<SyncStatus>(await app.router.dispatch('sync.status', {}))
    for (const resource of status.resources) {
      expect(resource.status).toBe('idle')
      expect(resource.lastSyncAt).not.toBeNull()
    }
    expect(status.resources.find((r) => r.resource === 'inspections')?.recordCount).toBe(300)

    const first = value<QueryPage<InspectionRow>>(
      await app.router.dispatch('inspections.query', { limit: 25 }),
    )
    expect(first.rows).toHaveLength(25)
    expect(first.total).toBe(300)
    expect(first.counts.reduce((sum, c) => sum + c.count, 0)).toBe(300)
    expect(first.freshness.lastSyncAt).not.toBeNull()
    const second = value<QueryPage<InspectionRow>>(
      await app.router.dispatch('inspections.query', { limit: 25, cursor: first.nextCursor }),
    )
    expect(second.rows[0]!.idx).not.toBe(first.rows[0]!.idx)

    const complete = value<QueryPage<GuaranteeRow>>(
      await app.router.dispatch('guarantees.query', { state: 'complete', limit: 5 }),
    )
    expect(
      complete.rows.every((row) => row.status === '발급완료' && row.state === 'complete'),
    ).toBe(true)

    const brands = value<BrandSearchResult>(
      await app.router.dispatch('brands.search', { query: '' }),
    )
    expect(brands.total).toBeGreaterThan(100)
    expect(brands.freshness.fetchedAt).not.toBeNull()
  })

  it('rejects unknown fields and bad values: no channel runs arbitrary SQL', async () => {
    temp = tempDir()
    const app = await boot()
    for (const args of [
      { sql: 'DROP TABLE inspections' },
      { limit: 100000 },
      { from: '2025-01-01; DROP' },
      { sort: 'random()' },
    ]) {
      const answer = await app.router.dispatch('inspections.query', args)
      expect(answer.ok ? 'ok' : answer.error.code).toBe('invalid_argument')
    }
  })

  it('a damaged cache file at start is rebuilt and the user is told (docs/faults.md F23)', async () => {
    temp = tempDir()
    mkdirSync(join(temp.dir, 'cache'), { recursive: true })
    writeFileSync(
      join(temp.dir, 'cache', 'sandbox.sqlite'),
      'garbage that is not a database'.repeat(200),
    )
    const app = await boot()
    const status = value<SyncStatus>(await app.router.dispatch('sync.status', {}))
    expect(status.notice?.code).toBe('store_corrupt')
    expect(status.resources.find((r) => r.resource === 'inspections')?.recordCount).toBe(0)
  })
})
