import { describe, expect, it } from 'vitest'
import type { ResourceSyncStatus, SyncStatus } from '../../src/shared/lists'
import { connectionOf } from '../../src/renderer/src/lib/connection'

function resource(overrides: Partial<ResourceSyncStatus> = {}): ResourceSyncStatus {
  return {
    resource: 'inspections',
    status: 'idle',
    mode: null,
    queued: false,
    lastSyncAt: null,
    lastAttemptAt: null,
    lastFullSyncAt: null,
    resumable: false,
    rejected: 0,
    recordCount: 0,
    ...overrides,
  }
}

const status = (...resources: ResourceSyncStatus[]): SyncStatus => ({ resources })
const network = { code: 'network' as const, message: 'connect ECONNREFUSED 127.0.0.1:4010' }

describe('one app-wide connection state', () => {
  it('nothing synced yet: never; a good sync: online with its time', () => {
    expect(connectionOf(status(resource()), null).state).toBe('never')
    const online = connectionOf(
      status(
        resource({ lastSyncAt: '2026-11-23T01:00:00Z', lastAttemptAt: '2026-11-23T01:00:00Z' }),
      ),
      null,
    )
    expect(online).toMatchObject({ state: 'online', lastGoodAt: '2026-11-23T01:00:00Z' })
  })

  it('offline keeps the last good sync apart from the failed attempt', () => {
    const connection = connectionOf(
      status(
        resource({
          status: 'offline',
          error: network,
          lastSyncAt: '2026-11-23T01:00:00Z',
          lastAttemptAt: '2026-11-23T01:05:00Z',
        }),
        resource({ resource: 'brands', lastSyncAt: '2026-11-23T00:30:00Z' }),
      ),
      null,
    )
    expect(connection).toEqual({
      state: 'offline',
      error: network,
      failed: 'inspections',
      lastGoodAt: '2026-11-23T01:00:00Z',
      lastAttemptAt: '2026-11-23T01:05:00Z',
    })
  })

  it('a failure wins over a sync running for another resource, and offline over other errors', () => {
    const server = { code: 'server' as const, message: '502' }
    const connection = connectionOf(
      status(
        resource({ resource: 'guarantees', status: 'syncing' }),
        resource({ resource: 'brands', status: 'error', error: server }),
        resource({ status: 'offline', error: network }),
      ),
      null,
    )
    expect(connection).toMatchObject({ state: 'offline', failed: 'inspections' })
    expect(connectionOf(status(resource({ status: 'error', error: server })), null)).toMatchObject({
      state: 'error',
      error: server,
    })
  })

  it('a sync running or queued shows as syncing; a refused start as an error', () => {
    expect(connectionOf(status(resource({ queued: true })), null).state).toBe('syncing')
    expect(connectionOf(status(resource({ status: 'syncing' })), null).state).toBe('syncing')
    const refused = { code: 'no_credentials' as const, message: 'No API key' }
    expect(connectionOf(status(resource()), refused)).toMatchObject({
      state: 'error',
      error: refused,
      failed: null,
    })
  })
})
