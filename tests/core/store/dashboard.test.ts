import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelName } from '../../../src/shared/channels'
import { argSchemas, type ChannelArgs, type ChannelResult } from '../../../src/shared/contract'
import type { Dashboard, DashboardFilter, DashboardNumber } from '../../../src/shared/dashboard'
import type { BootedCore } from '../../support/boot'
import { bootSynced, call as callOn } from '../helpers/core'

let core: BootedCore

/** Noon in Seoul the day after the sandbox's newest record. */
const NOW = new Date('2026-11-21T03:00:00Z')

beforeAll(async () => {
  // About two records a day of each list: every week and bar of the period has some.
  core = await bootSynced({ size: 3000, now: () => NOW })
}, 120_000)

afterAll(async () => {
  await core.close()
})

const call = <C extends ChannelName>(
  channel: C,
  args: ChannelArgs<C> | Record<string, unknown>,
): Promise<ChannelResult<C>> => callOn(core, channel, args)

/** The count of the list a filter opens, by that list's own query. */
async function countOf(filter: DashboardFilter): Promise<number> {
  if (filter.list === 'reconcile') {
    // The filter is what the screen sends: it parses as the channel's arguments.
    expect(argSchemas['reconcile.list'].safeParse(filter.args).success).toBe(true)
    return (await call('reconcile.list', { ...filter.args, limit: 1 })).total
  }
  const channel = filter.list === 'inspections' ? 'inspections.query' : 'guarantees.query'
  expect(argSchemas[channel].safeParse(filter.args).success).toBe(true)
  return (await call(channel, { ...filter.args, limit: 1 })).total
}

/** Every number of a dashboard with where it sits. */
function numbers(board: Dashboard): [string, DashboardNumber][] {
  const found: [string, DashboardNumber][] = []
  for (const list of board.lists) {
    found.push([`${list.resource} total`, list.total])
    found.push([`${list.resource} this week`, list.thisWeek])
    found.push([`${list.resource} last week`, list.lastWeek])
    for (const status of list.statuses) {
      found.push([`${list.resource} ${status.status} total`, status.total])
      found.push([`${list.resource} ${status.status} this week`, status.thisWeek])
      found.push([`${list.resource} ${status.status} last week`, status.lastWeek])
      expect(status.change).toBe(status.thisWeek.n - status.lastWeek.n)
    }
  }
  for (const series of board.series) {
    for (const point of [...series.previous, ...series.current]) {
      found.push([`${series.resource} ${point.from}..${point.to}`, point])
    }
  }
  for (const kind of board.reconcile) found.push([`reconcile ${kind.kind}`, kind])
  return found
}

describe('dashboard.get', () => {
  it('every number equals the count of the filtered list it opens (by day)', async () => {
    const board = await call('dashboard.get', {})
    expect(board.today).toBe('2026-11-21')
    expect(board.thisWeek).toEqual({ from: '2026-11-15', to: '2026-11-21' })
    expect(board.lastWeek).toEqual({ from: '2026-11-08', to: '2026-11-14' })
    for (const series of board.series) {
      expect(series.current.map((p) => p.from)).toEqual([
        '2026-11-15',
        '2026-11-16',
        '2026-11-17',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-21',
      ])
      expect(series.previous[0]).toMatchObject({ from: '2026-11-08', to: '2026-11-08' })
    }
    const all = numbers(board)
    // Not a dashboard of zeros: the week, its statuses and the reconciliation hold records.
    expect(board.lists.every((list) => list.thisWeek.n > 0 && list.lastWeek.n > 0)).toBe(true)
    expect(board.lists[0]!.statuses.length).toBeGreaterThanOrEqual(3)
    expect(board.reconcile.find((k) => k.kind === 'unguaranteed')!.n).toBeGreaterThan(0)
    for (const [where, number] of all) {
      expect(await countOf(number.filter), where).toBe(number.n)
    }
    // The lists' totals are their whole lists.
    const inspections = board.lists.find((list) => list.resource === 'inspections')!
    expect(inspections.total.n).toBe(3000)
    expect(inspections.statuses.reduce((sum, s) => sum + s.total.n, 0)).toBe(3000)
  })

  it('by week: eight weeks against the eight before, each bar its list', async () => {
    const board = await call('dashboard.get', { bucket: 'week' })
    for (const series of board.series) {
      expect(series.current).toHaveLength(8)
      expect(series.previous).toHaveLength(8)
      expect(series.current.at(-1)).toMatchObject({ from: '2026-11-15', to: '2026-11-21' })
      expect(series.previous[0]).toMatchObject({ from: '2026-08-02', to: '2026-08-08' })
      for (const point of [...series.previous, ...series.current]) {
        expect(await countOf(point.filter), `${series.resource} ${point.from}`).toBe(point.n)
      }
    }
  })

  it('refuses a bucket it does not know', async () => {
    const answer = await core.router.dispatch('dashboard.get', { bucket: 'month' })
    expect(answer.ok ? 'ok' : answer.error.code).toBe('invalid_argument')
  })
})
