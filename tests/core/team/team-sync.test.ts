import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import type { ReviewEventDraft, WalletLinkEventDraft } from '../../../src/core/store/team-events'
import type { TeamSync } from '../../../src/core/team/team-sync'
import { adminClient, makeTeam, uniqueName } from '../../support/team-fixtures'
import {
  reviewDraft,
  startConnected,
  syncedClient,
  type SyncedClient,
} from '../../support/team-sync-client'

/**
 * Two clients (two staff roles of one team, each with its own local side) on
 * the real server: they push their outboxes, pull each other's events live,
 * page through a backlog, and come back after the server drops them.
 */

function review(recordIdx: number, mark: ReviewEventDraft['mark'], note = ''): ReviewEventDraft {
  return reviewDraft({ resource: 'guarantees', recordIdx, mark, note })
}
function walletLink(): WalletLinkEventDraft {
  return {
    kind: 'wallet_link',
    id: randomUUID(),
    flow: 'sync',
    refUserId: 'member-1',
    guaranteeIdx: 12,
    outcome: 'cancelled',
    reason: 'closed by the user',
    startedAt: '2026-11-25T01:00:00.000Z',
    endedAt: '2026-11-25T01:01:00.000Z',
  }
}

describe('team sync between two clients', () => {
  const partner = uniqueName('partner')
  let admin: pg.Client
  let configs: readonly TeamServerConfig[]
  const running: TeamSync[] = []

  beforeAll(async () => {
    admin = await adminClient()
    ;({ configs } = await makeTeam(admin, { partner, members: ['minji', 'jisoo', 'late'] }))
  })
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sync) => sync.stop()))
  })
  afterAll(async () => {
    await admin?.end()
  })

  function client(
    config: TeamServerConfig,
    options: { pullPage?: number; pushBatch?: number } = {},
  ): SyncedClient {
    const made = syncedClient({ config, partnerId: partner, ...options })
    running.push(made.sync)
    return made
  }

  it('pushes and pulls each other’s marks, notes and wallet links both ways, live', async () => {
    const a = client(configs[0]!)
    const b = client(configs[1]!)
    await startConnected(a, b)

    const fromA = review(1, 'reviewed', '스크래치 확인')
    a.local.enqueue(fromA)
    a.sync.nudge()
    // B hears of it through NOTIFY: its loop sleeps on a 60 s poll otherwise.
    await b.local.until(() => b.local.applied.has(fromA.id))
    const seenByB = b.local.applied.get(fromA.id)!
    expect(seenByB).toMatchObject({
      kind: 'review',
      note: '스크래치 확인',
      author: configs[0]!.user,
    })

    const fromB = [review(1, 'follow_up', 'recheck'), walletLink()]
    b.local.enqueue(...fromB)
    b.sync.nudge()
    await a.local.until(() => fromB.every((event) => a.local.applied.has(event.id)))
    expect(a.local.applied.get(fromB[1]!.id)).toMatchObject({
      kind: 'wallet_link',
      outcome: 'cancelled',
      reason: 'closed by the user',
      author: configs[1]!.user,
    })
    // Both agree the record's current mark is B's, the one the server numbered last.
    await b.local.until(() => b.local.applied.has(fromB[1]!.id))
    expect(a.local.currentMark('guarantees', 1)?.id).toBe(fromB[0]!.id)
    expect(b.local.currentMark('guarantees', 1)?.id).toBe(fromB[0]!.id)
    expect(a.local.outbox).toEqual([])
    expect(b.local.outbox).toEqual([])
  })

  it('pushes a backlog in batches and a new machine pulls it in pages', async () => {
    const writer = client(configs[0]!, { pushBatch: 3 })
    const backlog = Array.from({ length: 10 }, (_, i) => review(100 + i, 'reviewed'))
    writer.local.enqueue(...backlog)
    writer.sync.start()
    await writer.local.until(
      () => writer.local.outbox.length === 0 && writer.sync.status.state === 'connected',
    )

    const reader = client(configs[2]!, { pullPage: 4 })
    const pages: number[] = []
    const apply = reader.local.applyPulled.bind(reader.local)
    reader.local.applyPulled = async (events, upTo) => {
      pages.push(events.length)
      await apply(events, upTo)
    }
    reader.sync.start()
    await reader.local.until(() => backlog.every((event) => reader.local.applied.has(event.id)))
    expect(pages.every((size) => size <= 4)).toBe(true)
    expect(pages.length).toBeGreaterThan(2)
    const seqs = [...reader.local.applied.values()].map((event) => event.seq)
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(reader.local.seq).toBe(Math.max(...seqs))
  })

  it('reconnects after the server drops the connection and sends what was queued meanwhile', async () => {
    const a = client(configs[0]!)
    const b = client(configs[1]!)
    await startConnected(a, b)

    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [
      configs[0]!.user,
    ])
    await a.local.until(() => a.statuses.some((status) => status.state === 'offline'))
    const offline = a.statuses.find((status) => status.state === 'offline')
    expect(offline).toMatchObject({ error: { code: 'team_unreachable' }, retrying: true })

    const queued = review(2, 'follow_up', 'written while dropped')
    a.local.enqueue(queued)
    a.sync.nudge()
    await b.local.until(() => b.local.applied.has(queued.id))
    // A acknowledges after the server committed, so B may see it a moment before A's outbox empties.
    await a.local.until(() => a.sync.status.state === 'connected' && a.local.outbox.length === 0)
    expect(a.sync.status).toMatchObject({ state: 'connected', unsent: 0 })
  })
})
