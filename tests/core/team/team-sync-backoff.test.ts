import { afterEach, describe, expect, it, vi } from 'vitest'
import { TeamError } from '../../../src/core/team/team-error'
import { TeamSync } from '../../../src/core/team/team-sync'
import { MemoryTeamSide } from '../../support/memory-team-side'

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
