import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { liveStoreThreads } from '../../../src/core/store/threads'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { Result } from '../../../src/shared/errors'
import { call } from '../helpers/core'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'

let core: BootedCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

/** The answer of one call, or `timeout` when it took longer than `ms`. */
async function within<T>(pending: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms)
  })
  try {
    return await Promise.race([pending, late])
  } finally {
    clearTimeout(timer)
  }
}

it('50 interleaved selects and removes each answer within 5 s and leave one owner thread behind', async () => {
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: mkdtempSync(join(tmpdir(), 'ad-lifecycle-')),
    host: 'web',
    version: '0.0.0-test',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
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
  // One owner and one checkpointer (started once the file is open): the active (Sandbox) profile's;
  // and the app's page thread.
  await call(app, 'inspections.query', {})
  expect(liveStoreThreads()).toBe(3)

  const calls: Promise<Result<unknown> | 'timeout'>[] = []
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
    calls.push(within(pending, 5000))
  }
  const answers = await Promise.all(calls)
  expect(answers.filter((answer) => answer === 'timeout')).toEqual([])
  const codes = new Set(
    answers.map((answer) => (answer !== 'timeout' && !answer.ok ? answer.error.code : 'ok')),
  )
  // A profile removed before its select answers not_found; nothing else goes wrong.
  expect([...codes].every((code) => code === 'ok' || code === 'not_found')).toBe(true)

  // Whatever the order, the app ends on one profile that exists, with its cache open once.
  const list = await call(app, 'profiles.list')
  expect(list.profiles.map((profile) => profile.id)).toContain(list.activeId)
  const page = await call(app, 'inspections.query', {})
  expect(page.total).toBeGreaterThanOrEqual(0)
  expect(liveStoreThreads()).toBe(3)

  // Closing twice (a quit while a window closes) resolves both times and stops every thread.
  const closes = [app.close(), app.close()]
  expect(await within(Promise.all(closes), 5000)).not.toBe('timeout')
  core = null
  expect(liveStoreThreads()).toBe(0)
  const after = await within(app.router.dispatch('inspections.query', {}), 5000)
  expect(after).toMatchObject({ ok: false, error: { code: 'cancelled' } })
}, 60_000)
