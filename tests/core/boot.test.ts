import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bootWithEmbeddedSandbox } from '../support/boot'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { openConfFile } from '../../src/core/settings/conf-file'
import type { BrandSearchResult } from '../../src/shared/domain'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../support/store-worker'

describe('the app on its embedded sandbox', () => {
  it('starts fast and still shows the whole brand list through the router', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'boot-'))
    const started = performance.now()
    const core = await bootWithEmbeddedSandbox({
      fetch: (input, init) => fetch(input, init),
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      keychain: new MemoryStore(),
      openSettings: openConfFile,
      storeWorker: SOURCE_STORE_WORKER,
      pageWorker: SOURCE_PAGE_WORKER,
    })
    const bootMs = performance.now() - started
    try {
      expect(bootMs).toBeLessThan(1000)
      expect(core.sandbox.size).toBe(3000)
      // The first search answers at once from the empty store and starts the fetch.
      const first = await core.router.dispatch('brands.search', { query: '' })
      expect(first).toMatchObject({ ok: true, value: { notLoaded: true, total: 0 } })
      await core.sync.idle()
      const answer = await core.router.dispatch('brands.search', { query: '' })
      expect(answer.ok).toBe(true)
      expect((answer as { ok: true; value: BrandSearchResult }).value.notLoaded).toBeUndefined()
      const result = (answer as { ok: true; value: BrandSearchResult }).value
      expect(result.total).toBeGreaterThanOrEqual(200)
      expect(result.items.some((brand) => brand.sameNameCount > 1)).toBe(true)
      const chanel = await core.router.dispatch('brands.search', { query: 'ㅅㄴ' })
      expect(JSON.stringify(chanel)).toContain('샤넬')
      // The IPC answer never carries a credential.
      expect(JSON.stringify(answer)).not.toContain(core.sandbox.apiSecret)
    } finally {
      await core.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
