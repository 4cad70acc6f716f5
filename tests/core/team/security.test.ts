import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { openTeamSession, TEAM_NOTIFY_CHANNEL } from '../../../src/core/team/session'
import { TeamError } from '../../../src/core/team/team-error'
import { adminClient, makeTeam, memberClient, uniqueName } from '../../support/team-fixtures'
import { reviewDraft } from '../../support/team-sync-client'

/**
 * Row-level security and the append-only rule, against the real server: what
 * a staff role may read and write, and what it may not, whatever SQL it sends.
 */

const review = reviewDraft

/** The SQLSTATE a statement fails with. */
async function sqlState(client: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  const error = await client.query(sql, params).then(
    () => null,
    (caught: unknown) => caught as { code?: string },
  )
  return error?.code ?? 'no error'
}

/** Rows of an event table the connection can see, of one partner or all. */
async function count(client: pg.Client, table: string, partner?: string): Promise<number> {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n FROM appraisal_team.${table} WHERE $1::text IS NULL OR partner_id = $1`,
    [partner ?? null],
  )
  return rows[0].n as number
}

describe('team server security', () => {
  const partner = uniqueName('partner')
  const otherPartner = uniqueName('partner')
  let admin: pg.Client
  let staff: TeamServerConfig
  let colleague: TeamServerConfig
  let outsider: TeamServerConfig
  let staffDb: pg.Client
  let outsiderDb: pg.Client

  beforeAll(async () => {
    admin = await adminClient()
    const team = await makeTeam(admin, { partner, members: ['staff', 'colleague'] })
    ;[staff, colleague] = team.configs as [TeamServerConfig, TeamServerConfig]
    const other = await makeTeam(admin, { partner: otherPartner, members: ['outsider'] })
    outsider = other.configs[0]!
    staffDb = await memberClient(staff)
    outsiderDb = await memberClient(outsider)
  })

  afterAll(async () => {
    await Promise.all([staffDb?.end(), outsiderDb?.end(), admin?.end()])
  })

  it('shows a role of another partner no rows and refuses its inserts', async () => {
    const session = await openTeamSession(staff, partner)
    await session.push([
      review(),
      review({ recordIdx: 8 }),
      {
        kind: 'wallet_link',
        id: randomUUID(),
        flow: 'pre-sync',
        refUserId: 'member-9',
        guaranteeIdx: null,
        outcome: 'completed',
        reason: null,
        startedAt: '2026-11-25T02:00:00.000Z',
        endedAt: '2026-11-25T02:03:00.000Z',
      },
    ])
    await session.close()
    expect(await count(outsiderDb, 'wallet_link_events')).toBe(0)
    expect(await count(outsiderDb, 'review_events', partner)).toBe(0)
    expect(await count(outsiderDb, 'review_events')).toBe(0)
    // The admin sees the rows, so the zeros above are the policy, not empty tables.
    expect(await count(admin, 'review_events', partner)).toBe(2)
    expect(await count(admin, 'wallet_link_events', partner)).toBe(1)

    expect(
      await sqlState(
        outsiderDb,
        `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time)
         VALUES ($1, $2, 'inspections', 1, 'reviewed', now())`,
        [randomUUID(), partner],
      ),
    ).toBe('42501')
    // Replaying an id that exists does not slip past the policy either.
    const existing = await admin.query(
      'SELECT id FROM appraisal_team.review_events WHERE partner_id = $1 LIMIT 1',
      [partner],
    )
    expect(
      await sqlState(
        outsiderDb,
        `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time)
         VALUES ($1, $2, 'inspections', 1, 'reviewed', now()) ON CONFLICT (id) DO NOTHING`,
        [existing.rows[0].id, partner],
      ),
    ).toBe('42501')
    // Nor through the client, which names the error; and it may not even open a session for it.
    const error = await openTeamSession(outsider, partner).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TeamError)
    expect((error as TeamError).code).toBe('team_not_member')
  })

  it('refuses an insert as another author and records the session role otherwise', async () => {
    const id = randomUUID()
    expect(
      await sqlState(
        staffDb,
        `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time, author)
         VALUES ($1, $2, 'inspections', 1, 'reviewed', now(), $3)`,
        [id, partner, colleague.user],
      ),
    ).toBe('42501')
    await staffDb.query(
      `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time)
       VALUES ($1, $2, 'inspections', 1, 'reviewed', now())`,
      [id, partner],
    )
    const { rows } = await admin.query(
      'SELECT author FROM appraisal_team.review_events WHERE id = $1',
      [id],
    )
    expect(rows).toEqual([{ author: staff.user }])
  })

  it('allows no update, no delete and no chosen sequence number', async () => {
    const session = await openTeamSession(staff, partner)
    const event = review({ note: 'original' })
    await session.push([event])
    await session.close()
    expect(
      await sqlState(
        staffDb,
        `UPDATE appraisal_team.review_events SET note = 'rewritten' WHERE id = $1`,
        [event.id],
      ),
    ).toBe('42501')
    expect(
      await sqlState(staffDb, 'DELETE FROM appraisal_team.review_events WHERE id = $1', [event.id]),
    ).toBe('42501')
    expect(
      await sqlState(
        staffDb,
        `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time, seq)
         VALUES ($1, $2, 'inspections', 1, 'reviewed', now(), 1)`,
        [randomUUID(), partner],
      ),
    ).toBe('42501')
    expect(
      await sqlState(
        staffDb,
        'DELETE FROM appraisal_team.wallet_link_events WHERE partner_id = $1',
        [partner],
      ),
    ).toBe('42501')
    expect(await sqlState(staffDb, 'SELECT * FROM appraisal_team.members')).toBe('42501')
    const { rows } = await admin.query(
      'SELECT note FROM appraisal_team.review_events WHERE id = $1',
      [event.id],
    )
    expect(rows).toEqual([{ note: 'original' }])
  })

  it('stores an event pushed twice once', async () => {
    const events = [review({ recordIdx: 21 }), review({ recordIdx: 22 })]
    const session = await openTeamSession(colleague, partner)
    expect(await session.push(events)).toBe(2)
    expect(await session.push(events)).toBe(0)
    await session.close()
    const again = await openTeamSession(staff, partner)
    // Another member replaying the same ids (a restored backup) adds nothing either.
    expect(await again.push(events)).toBe(0)
    await again.close()
    const { rows } = await admin.query(
      'SELECT id, author FROM appraisal_team.review_events WHERE id = ANY($1::uuid[]) ORDER BY seq',
      [events.map((event) => event.id)],
    )
    expect(rows).toEqual(events.map((event) => ({ id: event.id, author: colleague.user })))
  })

  it('numbers events in commit order, so a reader past seq N never misses one below N', async () => {
    const first = await memberClient(staff)
    const second = await memberClient(colleague)
    const insert = (client: pg.Client): Promise<pg.QueryResult> =>
      client.query(
        `INSERT INTO appraisal_team.review_events (id, partner_id, resource, record_idx, mark, client_time)
         VALUES ($1, $2, 'inspections', 40, 'reviewed', now()) RETURNING seq`,
        [randomUUID(), partner],
      )
    try {
      await first.query('BEGIN')
      const early = await insert(first)
      const secondPid = (await second.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
      const late = insert(second)
      // The second writer must wait for the first's commit instead of taking a number past it.
      const waiting = (async (): Promise<'waiting'> => {
        for (;;) {
          const { rows } = await admin.query(
            `SELECT wait_event FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`,
            [secondPid],
          )
          if (rows.length > 0) return 'waiting'
        }
      })()
      expect(await Promise.race([late.then(() => 'finished'), waiting])).toBe('waiting')
      await first.query('COMMIT')
      const lateSeq = Number((await late).rows[0].seq)
      expect(lateSeq).toBeGreaterThan(Number(early.rows[0].seq))
    } finally {
      await Promise.all([first.end(), second.end()])
    }
  })

  it('notifies listeners on insert', async () => {
    const listener = await memberClient(colleague)
    const notified = new Promise<string>((resolve) =>
      listener.on('notification', (message) => resolve(message.channel)),
    )
    await listener.query(`LISTEN ${TEAM_NOTIFY_CHANNEL}`)
    const session = await openTeamSession(staff, partner)
    await session.push([review({ recordIdx: 30 })])
    await session.close()
    expect(await notified).toBe(TEAM_NOTIFY_CHANNEL)
    await listener.end()
  })
})
