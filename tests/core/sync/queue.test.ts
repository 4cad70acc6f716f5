import { afterEach, describe, expect, it } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { SyncStatus } from '../../../src/shared/lists'
import { bootForTest, call } from '../helpers/core'

const cores: BootedCore[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
})

const of = (status: SyncStatus, resource: string) =>
  status.resources.find((entry) => entry.resource === resource)

describe('sync requests while a sync runs', () => {
  it('are queued behind it and reported as queued, never dropped', async () => {
    const core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'test-queue' })
    cores.push(core)
    const first = await call(core, 'sync.start', { resources: ['inspections'] })
    expect(of(first, 'inspections')?.status).toBe('syncing')
    const second = await call(core, 'sync.start', { resources: ['guarantees'] })
    expect(of(second, 'guarantees')).toMatchObject({ queued: true })
    await core.sync.idle()
    const done = await call(core, 'sync.status', {})
    expect(of(done, 'inspections')).toMatchObject({
      status: 'idle',
      queued: false,
      recordCount: 50,
    })
    expect(of(done, 'guarantees')).toMatchObject({ status: 'idle', queued: false, recordCount: 50 })
  })

  it('cancel empties the queue', async () => {
    const core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'test-queue' })
    cores.push(core)
    await call(core, 'sync.start', { resources: ['inspections', 'guarantees'] })
    const cancelled = await call(core, 'sync.cancel', {})
    expect(of(cancelled, 'guarantees')?.queued).toBe(false)
    await core.sync.idle()
    expect(of(await call(core, 'sync.status', {}), 'guarantees')?.recordCount).toBe(0)
  })
})
