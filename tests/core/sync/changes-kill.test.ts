import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { StoreConnection } from '../../../src/core/store/connection'
import { storeFileFor } from '../../../src/core/store/database'
import { StoreOwner } from '../../../src/core/store/owner/store-owner'
import { clientSyncSource } from '../../../src/core/sync/partner-source'
import { SyncEngine } from '../../../src/core/sync/sync-engine'
import type { SandboxChange } from '../../../src/sandbox/churn'
import type { ChangeEntry } from '../../../src/shared/changes'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'
import { FeedModel, feedKey } from './feed-model'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

it('a second sync killed with SIGKILL mid-pass and resumed logs each change once', async () => {
  h = await startHarness({ size: 450, sandbox: { testEndpoints: true } })
  const model = new FeedModel()
  await h.engine.run(['inspections', 'guarantees'], 'full')
  // The child owns the file next: this process's owner lets go of it.
  await h.engine.idle()
  await h.store.close()

  const moved = await fetch(`${h.sandbox.baseUrl}/__sandbox/advance?steps=120`, { method: 'POST' })
  const { changes } = (await moved.json()) as { changes: SandboxChange[] }
  const expected = model.sync(changes, true)
  expect(expected.length).toBeGreaterThan(20)

  const child = fork(fileURLToPath(new URL('./sync-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SYNC_CHILD: JSON.stringify({
        baseUrl: h.proxy.baseUrl,
        partnerId: h.sandbox.partnerId,
        apiKey: h.sandbox.apiKey,
        apiSecret: h.sandbox.apiSecret,
        dataDir: h.temp.dir,
        killAtPage: 2,
      }),
    },
    stdio: 'ignore',
  })
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, sig) => resolve(sig)),
  )
  expect(signal).toBe('SIGKILL')

  const file = storeFileFor(h.temp.dir, 'sandbox')
  const peek = new StoreConnection(file, { readOnly: true })
  const before = (
    peek.prepare("SELECT count(*) AS n FROM changes WHERE kind <> 'baseline'").get() as {
      n: number
    }
  ).n
  const state = peek.prepare("SELECT status FROM sync_state WHERE resource = 'inspections'").get()
  peek.close()
  // The kill landed mid-pass, after some of the changes were stored.
  expect(state).toEqual({ status: 'syncing' })
  expect(before).toBeGreaterThan(0)

  const store = await StoreOwner.open({ file, threads: SOURCE_STORE_WORKER })
  const engine = new SyncEngine({
    store,
    source: clientSyncSource(
      new PartnerClient({
        fetch: globalThis.fetch,
        target: { baseUrl: h.proxy.baseUrl, partnerId: h.sandbox.partnerId },
        credentials: async () => ({ apiKey: h.sandbox.apiKey, apiSecret: h.sandbox.apiSecret }),
      }),
    ),
    events: new EventBus(),
  })
  try {
    const [inspections] = await engine.run(['inspections'])
    expect(inspections).toMatchObject({ phase: 'done', complete: true })
    await engine.run(['guarantees'], 'full')
    const page = await store.call('listChanges', { limit: 500 })
    const entries: ChangeEntry[] = page.entries.filter((e) => e.kind !== 'baseline')
    expect(page.nextBefore).toBeNull()
    expect(entries.map(feedKey).sort()).toEqual(expected)
    expect(entries.length).toBeGreaterThan(before)
  } finally {
    engine.stop()
    await engine.idle()
    await store.close()
  }
})
