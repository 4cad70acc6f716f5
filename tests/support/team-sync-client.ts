import { randomUUID } from 'node:crypto'
import type { ReviewEventDraft } from '../../src/core/store/team-events'
import { TeamSync, type TeamStatus, type TeamSyncOptions } from '../../src/core/team/team-sync'
import { MemoryTeamSide } from './memory-team-side'

/** A review draft as the store would queue it; fields may be overridden. */
export function reviewDraft(overrides: Partial<ReviewEventDraft> = {}): ReviewEventDraft {
  return {
    kind: 'review',
    id: randomUUID(),
    resource: 'inspections',
    recordIdx: 7,
    mark: 'reviewed',
    note: '',
    clientTime: new Date().toISOString(),
    basedOnSeq: null,
    ...overrides,
  }
}

/** A team client under test: its in-memory local side, its loop, every status it reported. */
export interface SyncedClient {
  readonly local: MemoryTeamSide
  readonly sync: TeamSync
  readonly statuses: TeamStatus[]
}

/**
 * A {@link TeamSync} over a fresh {@link MemoryTeamSide}, with short backoff;
 * each status change wakes the side's waiters, so a test can wait on a status.
 */
export function syncedClient(options: Omit<TeamSyncOptions, 'local' | 'onStatus'>): SyncedClient {
  const local = new MemoryTeamSide()
  const statuses: TeamStatus[] = []
  const sync = new TeamSync({
    backoffMs: { base: 10, max: 50 },
    ...options,
    local,
    onStatus: (status) => {
      statuses.push(status)
      local.touch()
    },
  })
  return { local, sync, statuses }
}

/** Starts the clients and resolves once each is connected. */
export async function startConnected(...clients: readonly SyncedClient[]): Promise<void> {
  for (const client of clients) client.sync.start()
  for (const client of clients)
    await client.local.until(() => client.sync.status.state === 'connected')
}
