import { describe, expect, it, vi } from 'vitest'
import type { Client } from '../../src/renderer/src/lib/client'
import { SyncState } from '../../src/renderer/src/lib/sync.svelte'
import type { ResourceSyncStatus } from '../../src/shared/lists'

/**
 * When the numbers of a list are partial: before its first full pass has
 * completed (the dashboard, the reconciliation view and the sidebar say
 * so), syncing or not; never once one has.
 */

function status(
  resource: ResourceSyncStatus['resource'],
  over: Partial<ResourceSyncStatus>,
): ResourceSyncStatus {
  return {
    resource,
    status: 'idle',
    mode: null,
    queued: false,
    lastSyncAt: null,
    lastAttemptAt: null,
    lastFullSyncAt: null,
    resumable: false,
    rejected: 0,
    recordCount: 0,
    ...over,
  }
}

async function syncWith(resources: ResourceSyncStatus[]): Promise<SyncState> {
  const attempt = vi.fn(async () => ({ ok: true as const, value: { resources } }))
  const client = { attempt, call: vi.fn(), on: vi.fn(() => () => {}) } as unknown as Client
  const sync = new SyncState(client)
  await sync.refresh()
  return sync
}

describe('partial numbers', () => {
  it('are partial while the first full pass runs, and after one that did not complete', async () => {
    const sync = await syncWith([
      status('inspections', { status: 'syncing', mode: 'full', recordCount: 120 }),
      status('guarantees', { status: 'error', lastSyncAt: null, recordCount: 40 }),
      status('brands', { lastFullSyncAt: '2026-11-25T06:00:00.000Z', recordCount: 300 }),
    ])
    expect(sync.partial('inspections')).toBe('syncing')
    expect(sync.partial('guarantees')).toBe('incomplete')
    expect(sync.partial('brands')).toBeNull()
  })

  it('are whole once a full pass has completed, even while a later sync runs', async () => {
    const sync = await syncWith([
      status('inspections', {
        status: 'syncing',
        mode: 'incremental',
        lastFullSyncAt: '2026-11-25T06:00:00.000Z',
      }),
    ])
    expect(sync.partial('inspections')).toBeNull()
    // Unknown before the status has arrived: nothing is claimed.
    expect(sync.partial('guarantees')).toBeNull()
  })
})
