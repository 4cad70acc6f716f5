import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { promisify } from 'node:util'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, grantPartner, removeMember } from '../../../src/core/team/admin'
import { connectClient } from '../../../src/core/team/connection'
import { pgpassLookup, pgpassModeOk } from '../../../src/core/team/pgpass'
import { TeamError } from '../../../src/core/team/team-error'
import { adminClient, memberConfig, teamCluster, uniqueName } from '../../support/team-fixtures'

/**
 * The administrator's command against the real throwaway cluster: which
 * existing roles it takes, how it ends a removed member's sessions, and
 * where it takes passwords from.
 */
const root = resolve(import.meta.dirname, '../../..')
const run = promisify(execFile)

async function refusal(promise: Promise<unknown>): Promise<TeamError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(TeamError)
  return error as TeamError
}

describe('add-member and existing roles', () => {
  let admin: pg.Client
  const team = uniqueName('team')
  beforeAll(async () => {
    admin = await adminClient()
    await grantPartner(admin, team, uniqueName('partner'))
  })
  afterAll(() => admin?.end())

  it.each(['SUPERUSER', 'BYPASSRLS', 'CREATEROLE'])(
    'never takes over a role with %s, even with --reuse-role',
    async (power) => {
      const role = uniqueName('powerful')
      await admin.query(`CREATE ROLE ${role} LOGIN ${power}`)
      for (const reuseRole of [false, true]) {
        const error = await refusal(
          addMember(admin, { team, role, password: 'password-1', reuseRole }),
        )
        expect(error.code).toBe('team_refused')
        expect(error.message).toContain(power)
      }
      const { rows } = await admin.query(
        `SELECT EXISTS (SELECT 1 FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member
                         JOIN pg_roles g ON g.oid = a.roleid
                        WHERE m.rolname = $1 AND g.rolname = 'appraisal_team_staff') AS staff`,
        [role],
      )
      expect(rows[0].staff).toBe(false)
    },
  )

  it('refuses an existing role that is not a member unless --reuse-role is given', async () => {
    const role = uniqueName('existing')
    await admin.query(`CREATE ROLE ${role} LOGIN`)
    const error = await refusal(addMember(admin, { team, role, password: 'password-1' }))
    expect(error.message).toMatch(/not a staff member.*--reuse-role/)
    await addMember(admin, { team, role, password: 'password-2', reuseRole: true })
    const member = await connectClient(memberConfig(role, 'password-2'))
    await member.end()
  })

  it('takes an existing staff member again (a new password) without --reuse-role', async () => {
    const role = uniqueName('member')
    await addMember(admin, { team, role, password: 'password-1' })
    await addMember(admin, { team, role, password: 'password-3', displayName: '김민지' })
    const member = await connectClient(memberConfig(role, 'password-3'))
    await member.end()
  })
})

describe('remove-member', () => {
  it('ends the removed member’s open sessions, not only its next login', async () => {
    const admin = await adminClient()
    const team = uniqueName('team')
    const role = uniqueName('leaving')
    try {
      await grantPartner(admin, team, uniqueName('partner'))
      await addMember(admin, { team, role, password: 'password-1' })
      const open = await connectClient(memberConfig(role, 'password-1'))
      open.on('error', () => undefined)
      expect((await open.query('SELECT 1 AS one')).rows[0].one).toBe(1)
      expect(await removeMember(admin, role)).toBe(1)
      await expect(open.query('SELECT 1')).rejects.toThrow()
      await open.end().catch(() => undefined)
      await expect(connectClient(memberConfig(role, 'password-1'))).rejects.toThrow()
    } finally {
      await admin.end()
    }
  })
})

describe('where the command takes passwords', () => {
  const url = () => {
    const cluster = teamCluster()
    return `postgres://${cluster.adminUser}@${cluster.host}:${cluster.port}/${cluster.database}`
  }

  async function team(args: string[], env: NodeJS.ProcessEnv = {}, input = '') {
    const child = run(process.execPath, ['--import', 'tsx', 'scripts/team.ts', ...args], {
      cwd: root,
      env: { ...process.env, PGPASSWORD: '', PGPASSFILE: '/nonexistent', ...env },
      timeout: 60_000,
    })
    child.child.stdin?.end(input)
    return child.then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )
  }

  it('refuses --password and a URL that holds a password', async () => {
    const cluster = teamCluster()
    const withPassword = await team([
      'add-member',
      '--url',
      url(),
      '--team',
      't',
      '--role',
      'r',
      '--password',
      'x',
    ])
    expect(withPassword.code).toBe(2)
    expect(withPassword.stderr).toMatch(/password/)
    const inUrl = await team([
      'migrate',
      '--url',
      url().replace('@', `:${encodeURIComponent(cluster.adminPassword)}@`),
      '--ca',
      cluster.caFile,
    ])
    expect(inUrl.code).toBe(2)
    expect(inUrl.stderr).toMatch(/the URL holds a password/)
  })

  it('takes the administrator’s from PGPASSWORD, and a member’s from stdin', async () => {
    const cluster = teamCluster()
    const admin = await adminClient()
    const teamName = uniqueName('team')
    await grantPartner(admin, teamName, uniqueName('partner'))
    await admin.end()
    const role = uniqueName('prompted')
    const added = await team(
      ['add-member', '--url', url(), '--ca', cluster.caFile, '--team', teamName, '--role', role],
      { PGPASSWORD: cluster.adminPassword },
      'member-password-1\n',
    )
    expect(added.stderr).toBe('')
    expect(added.stdout).toContain(`${role} is a member of ${teamName}`)
    const member = await connectClient(memberConfig(role, 'member-password-1'))
    await member.end()
  })

  it('reads a password file as libpq does', () => {
    const file = [
      '# admin of the team server',
      'team.example.com:5432:team:other:wrong',
      'team.example.com:*:team:admin:pa\\:ss\\\\word',
      '*:*:*:admin:fallback',
    ].join('\n')
    const want = { host: 'team.example.com', port: 6543, database: 'team', user: 'admin' }
    expect(pgpassLookup(file, want)).toBe('pa:ss\\word')
    expect(pgpassLookup(file, { ...want, host: 'elsewhere' })).toBe('fallback')
    expect(pgpassLookup(file, { ...want, user: 'nobody' })).toBeNull()
    expect(pgpassModeOk(0o100600, 'linux')).toBe(true)
    expect(pgpassModeOk(0o100644, 'linux')).toBe(false)
  })
})
