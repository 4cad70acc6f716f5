import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type pg from 'pg'
import { TeamError, toTeamError } from './team-error'

/**
 * The administrator's operations on the team server, behind
 * `npm run team -- …` (scripts/team.ts): apply the migrations, add and remove
 * members, grant and revoke partner accounts. They run as a role that owns
 * the schema and may create roles; a staff member's app never runs them.
 */

/** The migrations folder of the repository. */
const MIGRATIONS_DIR = fileURLToPath(new URL('../../../team-server/migrations/', import.meta.url))

/** One migration file: `NNNN-name.sql`. */
interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

/** The migration files in version order; a gap or a duplicate number is an error. */
async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()
  const migrations: Migration[] = []
  for (const name of names) {
    const match = /^(\d{4})-[a-z0-9-]+\.sql$/.exec(name)
    if (!match) throw new Error(`Migration file name must be NNNN-name.sql: ${name}`)
    const version = Number(match[1])
    if (version !== migrations.length + 1) {
      throw new Error(
        `Migration ${name} is out of order (expected version ${migrations.length + 1}).`,
      )
    }
    migrations.push({ version, name, sql: await readFile(`${dir}/${name}`, 'utf8') })
  }
  return migrations
}

/** What {@link migrate} did. */
export interface MigrateResult {
  readonly from: number
  readonly to: number
  readonly applied: readonly string[]
}

/**
 * Applies every migration newer than the server's version, each in its own
 * transaction with its row in `schema_version`. Concurrent runs wait for each
 * other (advisory lock). A server newer than the files is left alone.
 */
export async function migrate(client: pg.Client, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = await readMigrations(dir)
  await client.query(`SELECT pg_advisory_lock(hashtext('appraisal_team.migrate'))`)
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS appraisal_team`)
    await client.query(
      `CREATE TABLE IF NOT EXISTS appraisal_team.schema_version (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    )
    const from = await schemaVersion(client)
    const latest = migrations.at(-1)?.version ?? 0
    if (from > latest) {
      throw new TeamError(
        'team_schema_new',
        `The server's schema is version ${from}, newer than this copy of the project knows (${latest}).`,
      )
    }
    const applied: string[] = []
    for (const migration of migrations.filter((m) => m.version > from)) {
      await client.query('BEGIN')
      try {
        await client.query(migration.sql)
        await client.query(
          'INSERT INTO appraisal_team.schema_version (version, name) VALUES ($1, $2)',
          [migration.version, migration.name],
        )
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      }
      applied.push(migration.name)
    }
    return { from, to: Math.max(from, latest), applied }
  } finally {
    await client
      .query(`SELECT pg_advisory_unlock(hashtext('appraisal_team.migrate'))`)
      .catch(() => {})
  }
}

/** The highest applied version; 0 on a server never migrated. */
async function schemaVersion(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    `SELECT CASE WHEN to_regclass('appraisal_team.schema_version') IS NULL THEN 0
            ELSE (SELECT max(version) FROM appraisal_team.schema_version) END AS version`,
  )
  return rows[0]?.version ?? 0
}

/**
 * The SCRAM-SHA-256 verifier of a password, as PostgreSQL stores it
 * (RFC 5802/7677; the format of `psql`'s `\password`). Sending the verifier
 * instead of the password keeps the password out of the server's statement
 * log and `pg_stat_activity`.
 */
function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}

/** A member to add. */
export interface NewMember {
  readonly team: string
  /** The login role to create (or update) for the staff member. */
  readonly role: string
  readonly password: string
  /** The name the app shows for this member; default the role name. */
  readonly displayName?: string | undefined
  /**
   * Takes over an existing role that is not yet a staff member (`--reuse-role`).
   * A superuser, `BYPASSRLS` or `CREATEROLE` role is refused even then.
   */
  readonly reuseRole?: boolean | undefined
}

/**
 * How long a member's session may sit idle inside a transaction before the server ends it.
 * @internal
 */
export const MEMBER_IDLE_IN_TRANSACTION = '60s'

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/

function checkRoleName(role: string): void {
  if (!ROLE_NAME.test(role)) {
    throw new TeamError(
      'team_refused',
      'A role name is 1 to 63 lower-case letters, digits or underscores, not starting with a digit.',
    )
  }
}

/** What the cluster says of an existing role. */
interface ExistingRole {
  readonly rolsuper: boolean
  readonly rolbypassrls: boolean
  readonly rolcreaterole: boolean
  readonly staff: boolean
}

/**
 * Whether an existing role may become (or stay) a member: never a role that
 * could lift row-level security or make roles; otherwise one already in the
 * staff group, or any other with `reuseRole`. Answers the refusal's reason.
 */
function refusalOf(role: string, existing: ExistingRole, reuseRole: boolean): string | null {
  const powers = [
    existing.rolsuper ? 'SUPERUSER' : null,
    existing.rolbypassrls ? 'BYPASSRLS' : null,
    existing.rolcreaterole ? 'CREATEROLE' : null,
  ].filter((power) => power !== null)
  if (powers.length > 0) {
    return `The role ${role} already exists with ${powers.join(', ')}; a member role must have none of them. Choose another role name.`
  }
  if (!existing.staff && !reuseRole) {
    return `The role ${role} already exists and is not a staff member. Choose another role name, or pass --reuse-role to make that role a member (its password is replaced).`
  }
  return null
}

/**
 * Creates the team if new, creates the login role and makes it a member of
 * the team. An existing role is taken only when it is already a staff
 * member, or with `reuseRole`, and never when it is a superuser or has
 * `BYPASSRLS` or `CREATEROLE` (docs/team.md); its password and LOGIN are set
 * again.
 */
export async function addMember(client: pg.Client, member: NewMember): Promise<void> {
  checkRoleName(member.role)
  if (member.password.length < 8) {
    throw new TeamError('team_refused', 'A member password has at least 8 characters.')
  }
  const role = client.escapeIdentifier(member.role)
  const verifier = client.escapeLiteral(scramVerifier(member.password))
  await inTransaction(client, async () => {
    const { rows } = await client.query<ExistingRole>(
      `SELECT rolsuper, rolbypassrls, rolcreaterole,
              pg_has_role(oid, 'appraisal_team_staff', 'MEMBER') AS staff
         FROM pg_roles WHERE rolname = $1`,
      [member.role],
    )
    const existing = rows[0]
    if (!existing) {
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${verifier}`)
    } else {
      const refusal = refusalOf(member.role, existing, member.reuseRole === true)
      if (refusal) throw new TeamError('team_refused', refusal)
      await client.query(`ALTER ROLE ${role} LOGIN PASSWORD ${verifier}`)
    }
    await client.query(`GRANT appraisal_team_staff TO ${role}`)
    // Numbering an event holds a lock until commit; a member's session that
    // stalls inside a transaction must not hold up every other writer.
    await client.query(
      `ALTER ROLE ${role} SET idle_in_transaction_session_timeout = '${MEMBER_IDLE_IN_TRANSACTION}'`,
    )
    await client.query(
      'INSERT INTO appraisal_team.teams (name) VALUES ($1) ON CONFLICT DO NOTHING',
      [member.team],
    )
    await client.query(
      `INSERT INTO appraisal_team.members (role_name, team, display_name) VALUES ($1, $2, $3)
       ON CONFLICT (role_name) DO UPDATE SET team = excluded.team, display_name = excluded.display_name`,
      [member.role, member.team, member.displayName ?? member.role],
    )
  })
}

/**
 * Removes a member from its team, takes away LOGIN, and ends the sessions it
 * has open (`pg_terminate_backend`, which needs a superuser or
 * `pg_signal_backend`): a removed member's app is cut off now, not at its
 * next login. The role stays (its name is the author of its past events,
 * which are never rewritten). Answers how many sessions were ended.
 */
export async function removeMember(client: pg.Client, role: string): Promise<number> {
  checkRoleName(role)
  await inTransaction(client, async () => {
    const { rowCount } = await client.query(
      'DELETE FROM appraisal_team.members WHERE role_name = $1',
      [role],
    )
    if (rowCount === 0) throw new TeamError('team_not_member', `${role} is not a member of a team.`)
    await client.query(`REVOKE appraisal_team_staff FROM ${client.escapeIdentifier(role)}`)
    await client.query(`ALTER ROLE ${client.escapeIdentifier(role)} NOLOGIN`)
  })
  // After the commit, so a session cannot log in again in between.
  const { rows } = await client.query<{ ended: number }>(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended
       FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()`,
    [role],
  )
  return rows[0]?.ended ?? 0
}

/** Lets a team see and write the events of a partner account (creating the team if new). */
export async function grantPartner(
  client: pg.Client,
  team: string,
  partnerId: string,
): Promise<void> {
  await inTransaction(client, async () => {
    await client.query(
      'INSERT INTO appraisal_team.teams (name) VALUES ($1) ON CONFLICT DO NOTHING',
      [team],
    )
    await client.query(
      'INSERT INTO appraisal_team.team_partners (team, partner_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [team, partnerId],
    )
  })
}

/** Takes a partner account away from a team (its events stay on the server). */
export async function revokePartner(
  client: pg.Client,
  team: string,
  partnerId: string,
): Promise<void> {
  await client.query(
    'DELETE FROM appraisal_team.team_partners WHERE team = $1 AND partner_id = $2',
    [team, partnerId],
  )
}

async function inTransaction(client: pg.Client, body: () => Promise<void>): Promise<void> {
  await client.query('BEGIN')
  try {
    await body()
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error instanceof TeamError ? error : toTeamError(error)
  }
}
