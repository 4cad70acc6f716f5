import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { bootWithEmbeddedSandbox } from '../support/boot'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { Dataset } from '../../src/sandbox/dataset'
import { openConfFile } from '../../src/core/settings/conf-file'
import type { BrandSearchResult } from '../../src/shared/domain'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../support/store-worker'

describe('the app on its embedded sandbox', () => {
  it('starts without a record generated or a request sent, and still shows the whole brand list through the router', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'boot-'))
    // Starting costs the same for any data size: the sandbox makes a record when one is asked
    // for, and core sends nothing until something is shown.
    const generated = [
      vi.spyOn(Dataset.prototype, 'guarantee'),
      vi.spyOn(Dataset.prototype, 'inspection'),
    ]
    const requests: string[] = []
    const core = await bootWithEmbeddedSandbox({
      fetch: (input, init) => {
        requests.push(String(input))
        return fetch(input, init)
      },
      dataDir,
      host: 'web',
      version: '0.0.0-test',
      keychain: new MemoryStore(),
      openSettings: openConfFile,
      storeWorker: SOURCE_STORE_WORKER,
      pageWorker: SOURCE_PAGE_WORKER,
      imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    })
    try {
      expect(generated.map((spy) => spy.mock.calls.length)).toEqual([0, 0])
      expect(requests).toEqual([])
      vi.restoreAllMocks()
      expect(core.sandbox.size).toBe(3000)
      // The first search answers at once from the empty store and starts the fetch.
      const first = await core.router.dispatch('brands.search', { query: '' })
      expect(first).toMatchObject({ ok: true, value: { notLoaded: true, total: 0 } })
      await core.sync.idle()
      expect(requests.some((url) => url.includes('/brand'))).toBe(true)
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
