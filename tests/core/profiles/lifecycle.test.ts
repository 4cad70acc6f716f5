import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { liveStoreThreads } from '../../../src/core/threads/spawn'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { Result } from '../../../src/shared/errors'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profiles'
import { call } from '../helpers/core'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../../support/store-worker'

/**
 * The active (Sandbox) profile's owner thread, at most its checkpointer (it runs while the file is
 * checked and while writes go on) and at most the app's page thread (while a sync sends pages).
 */
function expectThreadsOfOneProfile(): void {
  expect(liveStoreThreads(SOURCE_STORE_WORKER.owner)).toBe(1)
  expect(liveStoreThreads(SOURCE_STORE_WORKER.checkpointer)).toBeLessThanOrEqual(1)
  expect(liveStoreThreads(SOURCE_PAGE_WORKER)).toBeLessThanOrEqual(1)
  expect(liveStoreThreads()).toBe(
    liveStoreThreads(SOURCE_STORE_WORKER.owner) +
      liveStoreThreads(SOURCE_STORE_WORKER.checkpointer) +
      liveStoreThreads(SOURCE_PAGE_WORKER),
  )
}

let core: BootedCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

it('50 interleaved selects and removes all answer, end on the Sandbox with its cache, and leave one owner thread behind', async () => {
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: mkdtempSync(join(tmpdir(), 'ad-lifecycle-')),
    host: 'web',
    version: '0.0.0-test',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    sandbox: { size: 20 },
  })
  const app = core
  const ids: string[] = []
  for (let i = 0; i < 12; i += 1) {
    const saved = await call(app, 'profiles.save', {
      name: `매장 ${i}`,
      baseUrl: app.sandbox.baseUrl,
      staticUrl: app.sandbox.staticUrl,
      partnerId: app.sandbox.partnerId,
      redirectUri: 'https://shop.example.com/wallet/done',
    })
    ids.push(saved.id)
  }
  // The Sandbox profile's cache holds its 20 records; the new profiles' caches are empty.
  await call(app, 'sync.start', { resources: ['inspections'], mode: 'full' })
  await app.sync.idle()
  expect((await call(app, 'inspections.query', {})).total).toBe(20)
  expectThreadsOfOneProfile()

  // A deadlock shows as this test's own timeout: every call must answer.
  const calls: Promise<Result<unknown>>[] = []
  for (let i = 0; i < 50; i += 1) {
    const id = ids[i % ids.length]!
    // Selects and removes of the same profiles, all in flight at once; some remove the active one.
    const pending =
      i % 2 === 0
        ? app.router.dispatch('profiles.select', { id })
        : app.router.dispatch('profiles.remove', {
            id: ids[(i + 1) % ids.length]!,
            deleteCache: i % 4 === 1,
          })
    calls.push(pending)
  }
  const answers = await Promise.all(calls)
  const codes = new Set(answers.map((answer) => (answer.ok ? 'ok' : answer.error.code)))
  // A profile removed before its select answers not_found; nothing else goes wrong.
  expect([...codes].every((code) => code === 'ok' || code === 'not_found')).toBe(true)

  // The calls run one at a time in the order sent: every selected profile (even index) is
  // removed later, the one removed while active (index 0, at call 11) hands over to the
  // Sandbox, and nothing selects another. The app ends on the Sandbox, its cache reopened
  // once with the 20 records it held.
  const list = await call(app, 'profiles.list')
  expect(list.activeId).toBe(SANDBOX_PROFILE_ID)
  expect(list.profiles.map((profile) => profile.id)).toEqual(
    expect.arrayContaining([SANDBOX_PROFILE_ID, ...ids.filter((_, i) => i % 2 === 1)]),
  )
  expect(list.profiles).toHaveLength(1 + ids.length / 2)
  const page = await call(app, 'inspections.query', {})
  expect(page.total).toBe(20)
  expectThreadsOfOneProfile()

  // Closing twice (a quit while a window closes) resolves both times and stops every thread.
  await Promise.all([app.close(), app.close()])
  core = null
  expect(liveStoreThreads()).toBe(0)
  const after = await app.router.dispatch('inspections.query', {})
  expect(after).toMatchObject({ ok: false, error: { code: 'cancelled' } })
}, 60_000)
