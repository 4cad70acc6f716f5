import { afterEach, expect, it } from 'vitest'
import { StoreConnection } from '../../../src/core/store/connection'
import { storeFileFor } from '../../../src/core/store/paths'
import type { SandboxChange } from '../../../src/sandbox/churn'
import type { ChangeEntry } from '../../../src/shared/changes'
import { FeedModel, feedKey, repeatedRecords } from './feed-model'
import { killedSync, restartedEngine, startHarness } from './harness'

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

  const signal = await killedSync(h, 2)
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

  const { store, engine } = await restartedEngine(h)
  try {
    const [inspections] = await engine.run(['inspections'])
    expect(inspections).toMatchObject({ phase: 'done', complete: true })
    await engine.run(['guarantees'], 'full')
    const page = await store.call('listChanges', { limit: 500 })
    const entries: ChangeEntry[] = page.entries.filter((e) => e.kind !== 'baseline')
    expect(page.nextBefore).toBeNull()
    expect(entries.flatMap(feedKey).sort()).toEqual(expected)
    expect(repeatedRecords(entries)).toEqual([])
    expect(entries.length).toBeGreaterThan(before)
  } finally {
    engine.stop()
    await engine.idle()
    await store.close()
  }
}, 60_000)
