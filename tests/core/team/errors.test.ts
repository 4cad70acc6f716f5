import { execFile as execFileCallback } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { promisify } from 'node:util'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMBER_IDLE_IN_TRANSACTION, migrate } from '../../../src/core/team/admin'
import { configFromUrl, type TeamServerConfig } from '../../../src/core/team/connection'
import { isLoopbackHost } from '../../../src/core/team/tls-mode'
import { testTeamConnection, TEAM_SCHEMA_VERSION } from '../../../src/core/team/session'
import { TeamError } from '../../../src/core/team/team-error'
import {
  adminClient,
  makeTeam,
  memberConfig,
  teamCluster,
  uniqueName,
} from '../../support/team-fixtures'
import { reviewDraft, syncedClient } from '../../support/team-sync-client'

const execFile = promisify(execFileCallback)

/**
 * Each way a connection fails gets its own code, and a client that meets one
 * keeps its outbox: the app goes on working locally.
 */

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof TeamError)) throw new Error(`expected a TeamError, got ${String(error)}`)
  return error.code
}

async function errorOf(promise: Promise<unknown>): Promise<TeamError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof TeamError)) throw new Error(`expected a TeamError, got ${String(error)}`)
  return error
}

/** A TCP server that answers PostgreSQL's SSLRequest with "N", as a server without TLS does. */
async function plainOnlyServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.once('data', () => socket.write('N'))
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { server, port: address.port }
}

async function closedPort(): Promise<number> {
  const { server, port } = await plainOnlyServer()
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('team connection errors', () => {
  const partner = uniqueName('partner')
  let admin: pg.Client
  let member: TeamServerConfig
  let team: string

  beforeAll(async () => {
    admin = await adminClient()
    const made = await makeTeam(admin, { partner, members: ['member'] })
    member = made.configs[0]!
    team = made.team
  })
  afterAll(async () => {
    await admin?.end()
  })

  it('answers the server version, schema version and the role’s team', async () => {
    const info = await testTeamConnection(member)
    expect(info).toMatchObject({
      schemaVersion: TEAM_SCHEMA_VERSION,
      role: member.user,
      team,
      displayName: 'member name',
      partners: [partner],
    })
    expect(info.serverVersion).toMatch(/^\d+\.\d+/)
  })

  it('names a wrong password', async () => {
    expect(await codeOf(testTeamConnection({ ...member, password: 'wrong-password' }))).toBe(
      'team_auth',
    )
    expect(await codeOf(testTeamConnection({ ...member, user: uniqueName('nobody') }))).toBe(
      'team_auth',
    )
  })

  it('names a plain connection where TLS is required, on either side', async () => {
    // The server accepts only TLS; the client tried plain (allowed on loopback).
    expect(await codeOf(testTeamConnection({ ...member, tls: 'plain' }))).toBe('team_tls_required')
    // The client requires TLS; the server offers none.
    const { server, port } = await plainOnlyServer()
    try {
      expect(await codeOf(testTeamConnection({ ...member, port }))).toBe('team_tls_required')
    } finally {
      server.close()
    }
    // Plain to a host that is not this machine is refused before any packet leaves.
    expect(
      await codeOf(testTeamConnection({ ...member, host: 'team.example.invalid', tls: 'plain' })),
    ).toBe('team_tls_required')
  })

  it('names a certificate the CA does not vouch for', async () => {
    expect(await codeOf(testTeamConnection({ ...member, caFile: teamCluster().otherCaFile }))).toBe(
      'team_tls',
    )
    // The right CA, but the host is not a name the certificate carries (verify-full checks it).
    expect(await codeOf(testTeamConnection({ ...member, host: teamCluster().unnamedHost }))).toBe(
      'team_tls',
    )
    // The system's CAs do not know the test CA either.
    expect(await codeOf(testTeamConnection({ ...member, caFile: undefined }))).toBe('team_tls')
  })

  it('names an unreachable server by its address, never the password', async () => {
    const port = await closedPort()
    const refused = await errorOf(testTeamConnection({ ...member, port }))
    expect(refused.toData()).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_no_answer',
      values: { address: `${member.host}:${port}` },
    })
    // A server that takes the connection and never answers: no answer in time.
    const silent = createServer((socket) => socket.on('error', () => {}))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const silentPort = (silent.address() as { port: number }).port
      const late = await errorOf(
        testTeamConnection({
          ...member,
          host: '127.0.0.1',
          port: silentPort,
          connectTimeoutMs: 300,
        }),
      )
      expect(late.toData()).toMatchObject({ code: 'team_unreachable', reason: 'team_timeout' })
    } finally {
      silent.close()
    }
    // A host name that is not found.
    const unknown = await errorOf(testTeamConnection({ ...member, host: 'team.example.invalid' }))
    expect(unknown.toData()).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_host_unknown',
      values: { host: 'team.example.invalid' },
    })
    // The right server and a wrong password stays a password problem.
    const wrong = await errorOf(testTeamConnection({ ...member, password: 'wrong-password' }))
    expect(wrong.code).toBe('team_auth')
    expect(wrong.reason).toBeUndefined()
  })

  it('names a schema older or newer than the app understands', async () => {
    const database = uniqueName('db')
    await admin.query(`CREATE DATABASE ${database}`)
    const config = memberConfig(member.user, member.password, database)
    // Never migrated: no team schema at all.
    expect(await codeOf(testTeamConnection(config))).toBe('team_schema_old')
    const db = await adminClient(database)
    try {
      await migrate(db)
      await db.query(`INSERT INTO appraisal_team.teams (name) VALUES ('t')`)
      await db.query(`INSERT INTO appraisal_team.members (role_name, team) VALUES ($1, 't')`, [
        member.user,
      ])
      expect((await testTeamConnection(config)).schemaVersion).toBe(TEAM_SCHEMA_VERSION)
      await db.query(
        `INSERT INTO appraisal_team.schema_version (version, name) VALUES (99, 'future')`,
      )
      expect(await codeOf(testTeamConnection(config))).toBe('team_schema_new')
    } finally {
      await db.end()
    }
  })

  it('names a role that is no member of a team', async () => {
    const role = uniqueName('loner')
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'loner-password'`)
    expect(
      await codeOf(testTeamConnection({ ...member, user: role, password: 'loner-password' })),
    ).toBe('team_not_member')
  })

  it('keeps the outbox and stops retrying on an error a person must fix', async () => {
    const { local, sync, statuses } = syncedClient({
      config: { ...member, password: 'wrong-password' },
      partnerId: partner,
    })
    const draft = reviewDraft({ note: 'kept' })
    local.enqueue(draft)
    sync.start()
    await local.until(() => sync.status.state === 'offline')
    expect(sync.status).toMatchObject({
      state: 'offline',
      unsent: 1,
      retrying: false,
      error: { code: 'team_auth' },
    })
    expect(local.outbox).toEqual([draft])
    await sync.stop()
    expect(statuses.filter((status) => status.state === 'connecting')).toHaveLength(1)
  })
  it('sets a malformed outbox event aside before it leaves, and sends the ones after it', async () => {
    const { local, sync } = syncedClient({ config: member, partnerId: partner })
    const good = reviewDraft()
    const bad = { ...reviewDraft(), id: 'not-a-uuid' }
    const nul = reviewDraft({ note: 'before\u0000after' })
    local.enqueue(bad, nul, good)
    sync.start()
    await local.until(() => sync.status.state === 'connected' && local.applied.has(good.id))
    expect(sync.status).toMatchObject({ state: 'connected', unsent: 0, setAside: 2 })
    expect(local.outbox).toEqual([])
    expect(local.setAsideEntries.map((entry) => [entry.id, entry.sqlState])).toEqual([
      [bad.id, null],
      [nul.id, null],
    ])
    expect(local.setAsideEntries[1]!.reason).toMatch(/note.*NUL/)
    await sync.stop()
  })
})

describe('team connection settings', () => {
  it('treats only loopback as exempt from TLS', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'].every(isLoopbackHost)).toBe(true)
    expect(
      ['10.0.0.1', '192.168.0.2', 'team.example.com', '::ffff:10.0.0.1', '0.0.0.0'].some(
        isLoopbackHost,
      ),
    ).toBe(false)
  })

  it('reads the administrator’s URL', () => {
    expect(
      configFromUrl('postgres://admin:p%40ss@db.example.com:6543/shop?sslrootcert=/ca.pem'),
    ).toEqual({
      host: 'db.example.com',
      port: 6543,
      database: 'shop',
      user: 'admin',
      password: 'p@ss',
      tls: 'verify-full',
      caFile: '/ca.pem',
    })
    expect(configFromUrl('postgres://admin@127.0.0.1/shop')).toMatchObject({
      tls: undefined,
      port: 5432,
    })
  })
})

describe('the administrator command', () => {
  // Five runs of the command, each a new Node process: longer than the default under load.
  it(
    'adds a member with a prompted password, grants a partner, and removes the member',
    { timeout: 90_000 },
    async () => {
      const cluster = teamCluster()
      // The administrator's password through PGPASSWORD: never on the command line.
      const url = `postgres://${cluster.adminUser}@${cluster.host}:${cluster.port}/${cluster.database}`
      const role = uniqueName('cli')
      const team = uniqueName('team')
      const partner = uniqueName('partner')
      const run = (args: string[], input?: string): Promise<{ stdout: string }> => {
        const child = execFile(
          'npm',
          ['run', '--silent', 'team', '--', ...args, '--url', url, '--ca', cluster.caFile],
          { env: { ...process.env, PGPASSWORD: cluster.adminPassword } },
        )
        if (input !== undefined) child.child.stdin?.end(input)
        return child
      }
      await run(['grant', '--team', team, '--partner', partner])
      const added = await run(
        ['add-member', '--team', team, '--role', role, '--name', '김민지'],
        'member-password\n',
      )
      expect(added.stdout).toContain(`${role} is a member of ${team}`)
      const config = memberConfig(role, 'member-password')
      expect(await testTeamConnection(config)).toMatchObject({
        team,
        displayName: '김민지',
        partners: [partner],
      })
      const admin = await adminClient()
      const settings = await admin.query(
        `SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole WHERE r.rolname = $1`,
        [role],
      )
      await admin.end()
      expect(settings.rows[0].setconfig).toContain(
        `idle_in_transaction_session_timeout=${MEMBER_IDLE_IN_TRANSACTION}`,
      )
      await run(['remove-member', '--role', role])
      expect(await codeOf(testTeamConnection(config))).toBe('team_auth')
      const failed = await run(['grant', '--team', team]).catch(
        (error: { code: number; stderr: string }) => error,
      )
      expect(failed).toMatchObject({ code: 2 })
    },
  )
})
