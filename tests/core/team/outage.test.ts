import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { startSandbox, demoCredentials, type Sandbox } from '../../../src/sandbox'
import {
  addTeam,
  clusterAdmin,
  startMigratedTeamCluster,
  type TeamCluster,
} from '../../support/team-cluster'
import { bootTeamCore, isSettled, type TeamCore } from '../../support/team-core'

/**
 * A team at scale and through a server restart, on a cluster of this file's
 * own (it is stopped and started again, which the shared one must not be):
 * a bulk mark of 10,000 records reaches the other member's lists, and marks
 * made on both machines while the server is down converge within 10 s of its
 * return, with the app's own reconnect backoff (docs/team.md "How the client syncs").
 */

const RECORDS = 10_000

let cluster: TeamCluster
let admin: pg.Client
let sandbox: Sandbox
let configs: TeamServerConfig[]
const cores: TeamCore[] = []

beforeAll(async () => {
  cluster = await startMigratedTeamCluster()
  admin = await clusterAdmin(cluster)
  sandbox = await startSandbox({ seed: 30_000 + Math.floor(Math.random() * 5000), size: RECORDS })
  configs = await addTeam(admin, cluster, {
    team: 'outage',
    partner: demoCredentials(sandbox.seed).partnerId,
    members: ['lead', 'staff'].map((prefix) => ({
      role: `${prefix}_${randomBytes(4).toString('hex')}`,
      displayName: `${prefix} name`,
    })),
  })
}, 120_000)
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()))
})
afterAll(async () => {
  await admin?.end()
  await sandbox?.close()
  await cluster?.stop()
})

async function boot(config: TeamServerConfig): Promise<TeamCore> {
  const core = await bootTeamCore(sandbox, config, { appBackoff: true })
  cores.push(core)
  return core
}

/** How many inspections `core` lists as marked `mark` by `role`. */
async function markedBy(core: TeamCore, role: string, mark: 'reviewed' | 'follow_up') {
  const page = await core.call('inspections.query', { limit: 1, review: mark, markedBy: { role } })
  return page.total
}

describe('a team at scale and through a server restart', { timeout: 180_000 }, () => {
  it('a bulk mark of 10,000 records reaches every one of them in the other member’s lists', async () => {
    const [lead, staff] = await Promise.all([boot(configs[0]!), boot(configs[1]!)])
    await Promise.all([lead.settled(), staff.settled()])
    expect((await lead.call('inspections.query', { limit: 1 })).total).toBe(RECORDS)

    const { action } = await lead.call('reviews.setMany', {
      resource: 'inspections',
      filter: {},
      mark: 'follow_up',
      note: '일괄 확인',
    })
    expect(action.count).toBe(RECORDS)
    await staff.until(
      async () => (await markedBy(staff, configs[0]!.user, 'follow_up')) === RECORDS,
    )
    // Each record carries the note and the lead's name, not only the count.
    const page = await staff.call('inspections.query', { limit: 500, review: 'follow_up' })
    expect(page.rows.every((row) => row.review?.note === '일괄 확인')).toBe(true)
    expect(page.rows.every((row) => row.review?.by === 'lead name')).toBe(true)
    await lead.settled()
  })

  it('marks made offline on both machines converge within 10 s of the server’s return', async () => {
    const [lead, staff] = await Promise.all([boot(configs[0]!), boot(configs[1]!)])
    await Promise.all([lead.settled(), staff.settled()])
    const idxs = (await lead.call('inspections.query', { limit: 20 })).rows.map((row) => row.idx)
    const mine = idxs.slice(0, 10)
    const theirs = idxs.slice(10)

    // Each failed connect shows as `connecting`: count them, to let the backoff grow.
    const attempts = new Map<TeamCore, number>([
      [lead, 0],
      [staff, 0],
    ])
    for (const core of [lead, staff]) {
      core.core.events.subscribe((event, payload) => {
        if (event === 'team.status' && (payload as { state: string }).state === 'connecting')
          attempts.set(core, attempts.get(core)! + 1)
      })
    }
    await cluster.pause()
    for (const core of [lead, staff])
      await core.until(async () => (await core.status()).state === 'offline')
    // Marks spread over the outage, so each machine's backoff has grown by its return.
    for (const [i, idx] of mine.entries()) {
      await lead.call('reviews.set', { resource: 'inspections', idx, mark: 'reviewed' })
      await staff.call('reviews.set', {
        resource: 'inspections',
        idx: theirs[i]!,
        mark: 'reviewed',
      })
    }
    for (const core of [lead, staff]) {
      await core.until(async () => {
        const status = await core.status()
        return status.state === 'offline' && status.unsent === 10
      })
    }
    // A long outage: five failed connects each, so the next wait may be up to 32 s.
    for (const core of [lead, staff]) await core.until(() => attempts.get(core)! >= 5)

    await cluster.resume()
    const back = Date.now()
    await Promise.all(
      [lead, staff].map((core) =>
        core.until(
          async () =>
            (await isSettled(core)) &&
            (await markedBy(core, configs[0]!.user, 'reviewed')) === 10 &&
            (await markedBy(core, configs[1]!.user, 'reviewed')) === 10,
        ),
      ),
    )
    expect(Date.now() - back).toBeLessThanOrEqual(10_000)
  })
})
