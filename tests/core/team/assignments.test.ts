import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { startTcpProxy } from '../../support/tcp-proxy'
import type { TeamCore } from '../../support/team-core'
import { makeTeam, memberClient, teamOnSandbox } from '../../support/team-fixtures'

/**
 * Assignments between app cores on one team server (docs/team.md
 * "Assignment"): assigning and unassigning both ways, offline on both sides
 * converging, undo, and what a member of another team sees of them (raw SQL
 * as that role).
 */

const team = teamOnSandbox({ seed: 10_000, members: ['minji', 'jisoo'] })
let outsider: TeamServerConfig

beforeAll(async () => {
  // Another team, granted another partner account.
  outsider = (
    await makeTeam(team.admin, { partner: `${team.partner}-other`, members: ['outsider'] })
  ).configs[0]!
})

async function assigneeOf(core: TeamCore, idx: number): Promise<string | null> {
  const page = await core.call('inspections.query', { limit: 500 })
  const row = page.rows.find((entry) => entry.idx === idx)
  if (!row) throw new Error(`no inspection ${idx}`)
  return row.assignedTo ?? null
}

async function inspectionIdxs(core: TeamCore): Promise<number[]> {
  const page = await core.call('inspections.query', { limit: 500 })
  return page.rows.map((entry) => entry.idx)
}

/** Waits until the core lists the team's members (the worker read them on connect). */
async function knowsMembers(core: TeamCore): Promise<void> {
  await core.until(async () => {
    const { members } = await core.call('team.members')
    return team.configs.every((config) => members.some((member) => member.role === config.user))
  })
}

describe('assignments on one team server', { timeout: 120_000 }, () => {
  it('assigns and unassigns both ways between two cores, and undo takes an assignment back', async () => {
    const a = await team.boot(team.configs[0]!)
    const b = await team.boot(team.configs[1]!)
    await Promise.all([a.settled(), b.settled()])
    await Promise.all([knowsMembers(a), knowsMembers(b)])
    const [first, second, third] = await inspectionIdxs(a)
    const minji = team.configs[0]!.user
    const jisoo = team.configs[1]!.user

    const done = await a.call('assignments.set', {
      resource: 'inspections',
      idxs: [first!, second!],
      assignee: jisoo,
    })
    expect(done.action).toMatchObject({ kind: 'assign', count: 2, assignee: 'jisoo name' })
    // Local first: the assignment shows at once on A, and reaches B through the server.
    expect(await assigneeOf(a, first!)).toBe(jisoo)
    await b.until(async () => (await assigneeOf(b, second!)) === jisoo)
    expect(await assigneeOf(b, first!)).toBe(jisoo)

    // B gives one back (nobody) and assigns another to A.
    await b.call('assignments.set', { resource: 'inspections', idxs: [first!], assignee: null })
    await b.call('assignments.set', { resource: 'inspections', idxs: [third!], assignee: minji })
    await a.until(async () => (await assigneeOf(a, third!)) === minji)
    await a.until(async () => (await assigneeOf(a, first!)) === null)
    expect(await assigneeOf(a, second!)).toBe(jisoo)

    // B's undo takes back its last action: the third record is nobody's again, on both.
    const undone = await b.call('reviews.undo', {})
    expect(undone.undone).toMatchObject({ kind: 'assign', count: 1 })
    expect(await assigneeOf(b, third!)).toBeNull()
    await a.until(async () => (await assigneeOf(a, third!)) === null)
    // And the one before: the first record goes back to jisoo.
    await b.call('reviews.undo', {})
    await a.until(async () => (await assigneeOf(a, first!)) === jisoo)
    await Promise.all([a.settled(), b.settled()])

    // Every event is on the server, numbered: two by A, four by B.
    const { rows } = await team.admin.query<{ author: string; n: string }>(
      `SELECT author, count(*) AS n FROM appraisal_team.assignment_events
        WHERE partner_id = $1 GROUP BY author ORDER BY author`,
      [team.partner],
    )
    expect(Object.fromEntries(rows.map((row) => [row.author, Number(row.n)]))).toEqual({
      [minji]: 2,
      [jisoo]: 4,
    })
  })

  it('assignments made offline on both sides converge once both are back', async () => {
    const proxyA = await startTcpProxy(team.configs[0]!.port)
    const proxyB = await startTcpProxy(team.configs[1]!.port)
    team.afterTest(proxyA, (proxy) => proxy.close())
    team.afterTest(proxyB, (proxy) => proxy.close())
    const a = await team.boot({ ...team.configs[0]!, port: proxyA.port })
    const b = await team.boot({ ...team.configs[1]!, port: proxyB.port })
    await Promise.all([a.settled(), b.settled()])
    await Promise.all([knowsMembers(a), knowsMembers(b)])
    const [, , , shared, onlyA, onlyB] = await inspectionIdxs(a)
    const minji = team.configs[0]!.user
    const jisoo = team.configs[1]!.user

    proxyA.cut()
    proxyB.cut()
    await a.until(async () => (await a.status()).state === 'offline')
    await b.until(async () => (await b.status()).state === 'offline')
    await a.call('assignments.set', { resource: 'inspections', idxs: [shared!], assignee: minji })
    await a.call('assignments.set', { resource: 'inspections', idxs: [onlyA!], assignee: jisoo })
    await b.call('assignments.set', { resource: 'inspections', idxs: [shared!], assignee: jisoo })
    await b.call('assignments.set', { resource: 'inspections', idxs: [onlyB!], assignee: minji })
    for (const core of [a, b]) {
      await core.until(async () => {
        const status = await core.status()
        return status.state === 'offline' && status.unsent === 2
      })
    }
    // Offline, each shows its own.
    expect(await assigneeOf(a, shared!)).toBe(minji)
    expect(await assigneeOf(b, shared!)).toBe(jisoo)

    proxyA.restore()
    await a.settled()
    proxyB.restore()
    await b.settled()
    // B reached the server last: its assignment of the shared record is current on both.
    for (const core of [a, b]) {
      await core.until(async () => (await assigneeOf(core, shared!)) === jisoo)
      await core.until(async () => (await assigneeOf(core, onlyB!)) === minji)
      await core.until(async () => (await assigneeOf(core, onlyA!)) === jisoo)
    }
    // Both events of the shared record are kept (conflicts kept, the later one current).
    const { rows } = await team.admin.query<{ assignee: string }>(
      `SELECT assignee FROM appraisal_team.assignment_events
        WHERE partner_id = $1 AND record_idx = $2 ORDER BY seq`,
      [team.partner, shared!],
    )
    expect(rows.map((row) => row.assignee)).toEqual([minji, jisoo])
  })

  it('a member of another team sees none of them and cannot add one; an assignee off the team is refused', async () => {
    const staffDb = await memberClient(team.configs[0]!)
    const outsiderDb = await memberClient(outsider)
    try {
      const event = {
        id: randomUUID(),
        resource: 'inspections',
        idx: 3,
        clientTime: new Date().toISOString(),
      }
      await staffDb.query(
        `INSERT INTO appraisal_team.assignment_events (id, partner_id, resource, record_idx, assignee, client_time)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          event.id,
          team.partner,
          event.resource,
          event.idx,
          team.configs[1]!.user,
          event.clientTime,
        ],
      )
      const seen = await outsiderDb.query(
        'SELECT count(*)::int AS n FROM appraisal_team.assignment_events',
      )
      expect(seen.rows[0].n).toBe(0)
      await expect(
        outsiderDb.query(
          `INSERT INTO appraisal_team.assignment_events (id, partner_id, resource, record_idx, assignee, client_time)
           VALUES ($1, $2, 'inspections', 1, NULL, now())`,
          [randomUUID(), team.partner],
        ),
      ).rejects.toMatchObject({ code: '42501' })
      // A member may assign only to a member of its own team.
      await expect(
        staffDb.query(
          `INSERT INTO appraisal_team.assignment_events (id, partner_id, resource, record_idx, assignee, client_time)
           VALUES ($1, $2, 'inspections', 1, $3, now())`,
          [randomUUID(), team.partner, outsider.user],
        ),
      ).rejects.toMatchObject({ code: '42501' })
      // Nor rewrite history.
      await expect(
        staffDb.query('DELETE FROM appraisal_team.assignment_events WHERE id = $1', [event.id]),
      ).rejects.toMatchObject({ code: '42501' })
    } finally {
      await Promise.all([staffDb.end(), outsiderDb.end()])
    }

    // The app refuses such an assignee before anything is stored or queued.
    const a = await team.boot(team.configs[0]!)
    await a.settled()
    await knowsMembers(a)
    const [idx] = await inspectionIdxs(a)
    const before = await assigneeOf(a, idx!)
    await expect(
      a.call('assignments.set', { resource: 'inspections', idxs: [idx!], assignee: outsider.user }),
    ).rejects.toThrow(/No member of the team/)
    expect(await assigneeOf(a, idx!)).toBe(before)
    expect(await a.status()).toMatchObject({ unsent: 0 })
  })

  it('without a team server there is nothing to assign to', async () => {
    const alone = await team.boot(null)
    const [idx] = await inspectionIdxs(alone)
    await expect(
      alone.call('assignments.set', { resource: 'inspections', idxs: [idx!], assignee: null }),
    ).rejects.toThrow(/no team server/)
  })
})
