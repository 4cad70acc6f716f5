import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { testTeamConnection } from '../../../src/core/team/session'
import { TeamError } from '../../../src/core/team/team-error'
import {
  adminClient,
  makeTeam,
  memberClient,
  memberConfig,
  uniqueName,
} from '../../support/team-fixtures'

/**
 * What the schema's hardening migration guarantees against the real server
 * (docs/team.md "Who may connect, and who may hold up the others"): only
 * staff connect, numbering events takes a lock no member can take on its
 * own, and a writer waits for it at most the function's lock timeout.
 */

const INSERT = `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time)
                VALUES ($1, $2, 'inspections', $3, 'reviewed', now())`

/** The SQLSTATE a promise fails with, or 'no error'. */
async function sqlStateOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as { code?: string; sqlState?: string },
  )
  return error?.sqlState ?? error?.code ?? 'no error'
}

describe('team server hardening', { timeout: 60_000 }, () => {
  const partner = uniqueName('partner')
  let admin: pg.Client
  let first: TeamServerConfig
  let second: TeamServerConfig
  const open: pg.Client[] = []

  beforeAll(async () => {
    admin = await adminClient()
    const team = await makeTeam(admin, { partner, members: ['first', 'second'] })
    ;[first, second] = team.configs as [TeamServerConfig, TeamServerConfig]
  })

  afterAll(async () => {
    await Promise.all(open.map((client) => client.end().catch(() => {})))
    await admin?.end()
  })

  async function connect(config: TeamServerConfig): Promise<pg.Client> {
    const client = await memberClient(config)
    open.push(client)
    return client
  }

  it('lets no role that is not staff connect to the team database', async () => {
    const outsider = uniqueName('outsider')
    await admin.query(`CREATE ROLE ${outsider} LOGIN PASSWORD 'outsider-password'`)
    const config = memberConfig(outsider, 'outsider-password')
    expect(await sqlStateOf(memberClient(config))).toBe('42501')
    // The app names it in words a person can act on.
    const error = await testTeamConnection(config).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(TeamError)
    expect((error as TeamError).code).toBe('team_not_member')
    // Staff connect as before.
    const member = await connect(first)
    expect((await member.query('SELECT 1 AS one')).rows[0].one).toBe(1)
  })

  it('numbers events under a lock no member can take by itself', async () => {
    const holder = await connect(first)
    const writer = await connect(second)
    // The key the numbering used to lock on: holding it no longer stops anybody.
    await holder.query('BEGIN')
    await holder.query(`SELECT pg_advisory_xact_lock(hashtext('appraisal_team.event_seq'))`)
    await writer.query(INSERT, [randomUUID(), partner, 1])
    await holder.query('ROLLBACK')
    // The numbering row itself is the schema owner's: a member cannot lock it.
    expect(
      await sqlStateOf(holder.query('SELECT 1 FROM appraisal_team.event_numbering FOR UPDATE')),
    ).toBe('42501')
    await holder.query('BEGIN')
    expect(
      await sqlStateOf(holder.query('LOCK TABLE appraisal_team.event_numbering IN EXCLUSIVE MODE')),
    ).toBe('42501')
    await holder.query('ROLLBACK')
  })

  it('makes a writer stuck behind an open transaction give up, whatever its own lock timeout', async () => {
    const holder = await connect(first)
    const writer = await connect(second)
    await holder.query('BEGIN')
    await holder.query(INSERT, [randomUUID(), partner, 2])
    // The writer lifts its own session's limit; the function's own limit still holds.
    await writer.query(`SET lock_timeout = 0`)
    const started = Date.now()
    expect(await sqlStateOf(writer.query(INSERT, [randomUUID(), partner, 3]))).toBe('55P03')
    expect(Date.now() - started).toBeLessThan(30_000)
    await holder.query('COMMIT')
    // Once the holder is done, the writer's next try goes through.
    await writer.query(INSERT, [randomUUID(), partner, 3])
  })
})
