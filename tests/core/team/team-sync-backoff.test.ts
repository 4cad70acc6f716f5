import { afterEach, describe, expect, it, vi } from 'vitest'
import { TeamError } from '../../../src/core/team/team-error'
import { TeamSync, type TeamStatus } from '../../../src/core/team/team-sync'
import { MemoryTeamSide } from '../../support/memory-team-side'
import { reviewDraft } from '../../support/team-sync-client'

/**
 * The reconnect schedule in fake time: a server that stays unreachable is
 * tried again after full-jitter delays that double from the base up to the
 * cap, and never more often. (No server here: `open` always fails.)
 */
describe('team sync backoff', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('doubles the delay between attempts up to the cap, scaled by the jitter', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const attempts: number[] = []
    const jitter = [1, 1, 1, 1, 1, 0.5]
    const local = new MemoryTeamSide()
    const sync = new TeamSync({
      config: { host: '127.0.0.1', port: 1, database: 'd', user: 'u', password: 'p' },
      partnerId: 'P',
      local,
      backoffMs: { base: 100, max: 500 },
      random: () => jitter.shift() ?? 1,
      open: async () => {
        attempts.push(Date.now())
        throw new TeamError('team_unreachable', 'down')
      },
    })
    const start = Date.now()
    sync.start()
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 500 + 500 + 250)
    await sync.stop()
    const delays = attempts.slice(1).map((at, i) => at - attempts[i]!)
    expect(attempts[0]).toBe(start)
    expect(delays).toEqual([100, 200, 400, 500, 500, 250])
    expect(sync.status).toMatchObject({ state: 'stopped' })
  })

  it('does not retry by itself after an error a person must fix, until told to', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let attempts = 0
    const local = new MemoryTeamSide()
    const sync = new TeamSync({
      config: { host: '127.0.0.1', port: 1, database: 'd', user: 'u', password: 'p' },
      partnerId: 'P',
      local,
      open: async () => {
        attempts += 1
        throw new TeamError('team_schema_new', 'newer')
      },
    })
    sync.start()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(attempts).toBe(1)
    expect(sync.status).toMatchObject({
      state: 'offline',
      retrying: false,
      error: { code: 'team_schema_new' },
    })
    sync.retry()
    await vi.advanceTimersByTimeAsync(0)
    expect(attempts).toBe(2)
    await sync.stop()
  })
})

describe('team sync while the server is away', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  const config = { host: '127.0.0.1', port: 1, database: 'd', user: 'u', password: 'p' }

  it('counts marks made offline without a connect attempt each, and never grows the backoff for them', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const attempts: number[] = []
    const local = new MemoryTeamSide()
    const statuses: TeamStatus[] = []
    const sync = new TeamSync({
      config,
      partnerId: 'P',
      local,
      backoffMs: { base: 1000, max: 60_000 },
      random: () => 1,
      onStatus: (status) => statuses.push(status),
      probe: async () => false,
      open: async () => {
        attempts.push(Date.now())
        throw new TeamError('team_unreachable', 'down')
      },
    })
    const start = Date.now()
    sync.start()
    await vi.advanceTimersByTimeAsync(0)
    for (let mark = 1; mark <= 5; mark += 1) {
      local.enqueue(reviewDraft())
      sync.nudge()
      await vi.advanceTimersByTimeAsync(100)
      expect(sync.status).toMatchObject({ state: 'offline', unsent: mark, retrying: true })
    }
    // Five marks within the first backoff: still the one attempt, then 1 s, 2 s, 4 s apart.
    expect(attempts).toEqual([start])
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 - 500)
    expect(attempts.map((at) => at - start)).toEqual([0, 1000, 3000, 7000])
    await sync.stop()
    expect(sync.status).toMatchObject({ state: 'stopped', unsent: 5 })
    const offline = statuses.filter((status) => status.state === 'offline')
    expect(offline.map((status) => status.unsent).slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('while events wait, reconnects within a probe interval of the server answering again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    let up = false
    const attempts: number[] = []
    const local = new MemoryTeamSide()
    local.enqueue(reviewDraft())
    const sync = new TeamSync({
      config,
      partnerId: 'P',
      local,
      backoffMs: { base: 60_000, max: 60_000 },
      random: () => 1,
      probeMs: 1000,
      probe: async () => up,
      open: async () => {
        attempts.push(Date.now())
        throw new TeamError('team_unreachable', up ? 'still down' : 'down')
      },
    })
    sync.start()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(attempts).toHaveLength(1)
    up = true
    const back = Date.now()
    await vi.advanceTimersByTimeAsync(1000)
    expect(attempts).toHaveLength(2)
    expect(attempts[1]! - back).toBeLessThanOrEqual(1000)
    await sync.stop()
  })

  it('updates the unsent count of a loop stopped by an error a person must fix', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const local = new MemoryTeamSide()
    const sync = new TeamSync({
      config,
      partnerId: 'P',
      local,
      open: async () => {
        throw new TeamError('team_auth', 'wrong password')
      },
    })
    local.enqueue(reviewDraft())
    sync.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(sync.status).toMatchObject({ state: 'offline', retrying: false, unsent: 1 })
    local.enqueue(reviewDraft(), reviewDraft())
    sync.nudge()
    await vi.advanceTimersByTimeAsync(0)
    expect(sync.status).toMatchObject({
      state: 'offline',
      retrying: false,
      unsent: 3,
      setAside: 0,
      error: { code: 'team_auth' },
    })
    await sync.stop()
  })
})
