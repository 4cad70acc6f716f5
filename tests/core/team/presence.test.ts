import { spawn } from 'node:child_process'
import type pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import type { PresenceView } from '../../../src/shared/team'
import type { TeamCore } from '../../support/team-core'
import { makeTeam, memberClient, teamOnSandbox } from '../../support/team-fixtures'

/**
 * Presence (docs/team.md "Presence"): when a member opens a record, the
 * other members' apps learn who has it open (`presence.changed`,
 * `presence.list`); it goes when the member closes it, quits, is killed, or
 * stops refreshing it; nothing of it is stored, and a member of another team
 * sees none of it. The timing is shortened here (heartbeat 300 ms, gone
 * after 1.5 s, read every 200 ms); the app's own is 10 s, 20 s and 5 s.
 */

const TIMING = { heartbeatMs: 300, maxAgeMs: 1500, readMs: 200 }

const team = teamOnSandbox({
  seed: 40_000,
  members: ['minji', 'jisoo', 'raw'],
  boot: { presence: TIMING },
})
let strangers: readonly TeamServerConfig[]

beforeAll(async () => {
  // Another team, on another partner account.
  ;({ configs: strangers } = await makeTeam(team.admin, {
    partner: `other_${team.sandbox.seed}`,
    members: ['stranger'],
  }))
})

async function connected(core: TeamCore): Promise<void> {
  await core.until(async () => (await core.status()).state === 'connected')
}

/** Sets or clears presence (the helper's `call` cannot send a null argument). */
async function setPresence(
  core: TeamCore,
  at: { resource: 'inspections' | 'guarantees'; idx: number } | null,
): Promise<PresenceView> {
  const result = await core.core.router.dispatch('presence.set', at)
  if (!result.ok) throw new Error(`presence.set: ${result.error.code} ${result.error.message}`)
  return result.value as PresenceView
}

async function present(core: TeamCore): Promise<PresenceView['present']> {
  return (await core.call('presence.list')).present
}

async function raw(config: TeamServerConfig): Promise<pg.Client> {
  return team.afterTest(await memberClient(config), (client) => client.end().catch(() => {}))
}

describe('presence', { timeout: 90_000 }, () => {
  it('shows who has a record open, follows them to another, and goes when they close it or quit', async () => {
    const a = await team.boot(team.configs[0]!)
    const b = await team.boot(team.configs[1]!)
    await Promise.all([connected(a), connected(b)])
    const [first, second] = (await a.call('inspections.query', { limit: 2 })).rows.map(
      (row) => row.idx,
    )
    const changes: PresenceView[] = []
    b.core.events.subscribe((event, payload) => {
      if (event === 'presence.changed') changes.push(payload as PresenceView)
    })

    expect(await setPresence(a, { resource: 'inspections', idx: first! })).toEqual({ present: [] })
    await b.until(async () => (await present(b)).length === 1)
    expect(await present(b)).toEqual([
      { role: team.configs[0]!.user, name: 'minji name', resource: 'inspections', idx: first! },
    ])
    expect(changes.at(-1)?.present).toEqual(await present(b))
    // Nobody else: a member never sees itself.
    expect(await present(a)).toEqual([])

    await setPresence(a, { resource: 'inspections', idx: second! })
    await b.until(async () => (await present(b))[0]?.idx === second)

    await setPresence(a, null)
    await b.until(async () => (await present(b)).length === 0)
    expect(changes.at(-1)).toEqual({ present: [] })

    // Quitting the app ends it too.
    await setPresence(a, { resource: 'guarantees', idx: 7 })
    await b.until(async () => (await present(b))[0]?.resource === 'guarantees')
    await a.close()
    await b.until(async () => (await present(b)).length === 0)

    // Nothing of it was kept: no event on the server, nothing in the outbox.
    const { rows } = await team.admin.query<{ n: string }>(
      'SELECT count(*) AS n FROM appraisal_team.review_events WHERE partner_id = $1',
      [team.partner],
    )
    expect(Number(rows[0]!.n)).toBe(0)
    expect(await b.status()).toMatchObject({ unsent: 0 })
  })

  it('goes when the member’s host is killed, and when its heartbeat stops', async () => {
    const b = await team.boot(team.configs[1]!)
    await connected(b)

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/support/team-presence-child.ts',
        JSON.stringify(team.configs[0]!),
        team.partner,
        'inspections',
        '3',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    )
    await b.until(async () => (await present(b))[0]?.idx === 3)
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    await b.until(async () => (await present(b)).length === 0)

    // A member whose session stays open but who stops refreshing (a machine
    // cut off without the socket closing) counts as gone once the heartbeat is too old.
    const silent = await raw(team.configs[2]!)
    await silent.query('SELECT appraisal_team.set_presence($1, $2, $3)', [
      team.partner,
      'inspections',
      4,
    ])
    await b.until(async () => (await present(b))[0]?.role === team.configs[2]!.user)
    const seen = Date.now()
    await b.until(async () => (await present(b)).length === 0)
    expect(Date.now() - seen).toBeLessThan(TIMING.maxAgeMs + 5000)
  })

  it('shows a member of another team nothing and refuses its presence on this partner', async () => {
    const a = await team.boot(team.configs[0]!)
    await connected(a)
    await setPresence(a, { resource: 'inspections', idx: 5 })
    const teammate = await raw(team.configs[1]!)
    // A teammate reads the row (raw SQL, as the member).
    await expect
      .poll(
        async () =>
          (
            await teammate.query(
              'SELECT record_idx FROM appraisal_team.presence WHERE role_name = $1',
              [team.configs[0]!.user],
            )
          ).rows,
      )
      .toEqual([{ record_idx: '5' }])

    const stranger = await raw(strangers[0]!)
    expect((await stranger.query('SELECT * FROM appraisal_team.presence')).rows).toEqual([])
    expect(
      (await stranger.query('SELECT * FROM appraisal_team.present($1, 600000)', [team.partner]))
        .rows,
    ).toEqual([])
    await expect(
      stranger.query('SELECT appraisal_team.set_presence($1, $2, $3)', [
        team.partner,
        'inspections',
        5,
      ]),
    ).rejects.toMatchObject({ code: '42501' })
    // No write but through the functions.
    await expect(
      stranger.query(
        "UPDATE appraisal_team.presence SET record_idx = 1 WHERE resource = 'inspections'",
      ),
    ).rejects.toMatchObject({ code: '42501' })
    await expect(teammate.query('DELETE FROM appraisal_team.presence')).rejects.toMatchObject({
      code: '42501',
    })
  })

  it('is empty and inert without a team server', async () => {
    const solo = await team.boot(null)
    expect(await setPresence(solo, { resource: 'inspections', idx: 1 })).toEqual({ present: [] })
    expect(await present(solo)).toEqual([])
  })
})
