import { readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import type pg from 'pg'
import {
  addMember,
  grantPartner,
  migrate,
  removeMember,
  revokePartner,
} from '../src/core/team/admin'
import { configFromUrl, connectClient } from '../src/core/team/connection'
import { pgpassLookup, pgpassModeOk } from '../src/core/team/pgpass'
import { TeamError, toTeamError } from '../src/core/team/team-error'

/**
 * The administrator's command for the team server (docs/team.md):
 *
 *   npm run team -- migrate       --url postgres://admin@host/db [--ca FILE]
 *   npm run team -- add-member    --url … --team NAME --role ROLE [--name "김민지"] [--reuse-role]
 *   npm run team -- remove-member --url … --role ROLE
 *   npm run team -- grant         --url … --team NAME --partner PARTNER_ID
 *   npm run team -- revoke        --url … --team NAME --partner PARTNER_ID
 *
 * Passwords never come on the command line (other users of the computer
 * can read it): the administrator's from PGPASSWORD, the password file
 * (~/.pgpass or PGPASSFILE) or a prompt; a member's from a prompt (a line on
 * stdin when stdin is not a terminal). A URL with a password is refused.
 * TLS follows the app's rule: verify-full except on loopback; `--ca` names
 * the CA file.
 */
const USAGE = `usage: npm run team -- <migrate|add-member|remove-member|grant|revoke> --url URL [options]
  --ca FILE        CA certificate(s) to trust instead of the system's
  --team NAME      team name (add-member, grant, revoke)
  --role ROLE      staff login role (add-member, remove-member)
  --name TEXT      the member's name as the app shows it (add-member)
  --reuse-role     make an existing role that is not yet a member one (add-member)
  --partner ID     partner account id (grant, revoke)`

function parseCommandLine() {
  return parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      ca: { type: 'string' },
      team: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      'reuse-role': { type: 'boolean' },
      partner: { type: 'string' },
    },
  })
}

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`)
  process.exit(2)
}

/** The command line; an unknown option (such as a password) is a usage error. */
const { values, positionals } = (() => {
  try {
    return parseCommandLine()
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error))
  }
})()

function required(name: 'url' | 'team' | 'role' | 'partner'): string {
  const value = values[name]
  if (!value) usage(`--${name} is required`)
  return value
}

/** Reads one line without echoing it when stdin is a terminal. */
async function prompt(question: string): Promise<string> {
  const terminal = process.stdin.isTTY === true
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal })
  if (terminal) {
    process.stderr.write(question)
    // Echo nothing of what is typed.
    ;(lines as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => {}
  }
  try {
    for await (const line of lines) return line
    return ''
  } finally {
    lines.close()
    if (terminal) process.stderr.write('\n')
  }
}

/** The administrator's password from ~/.pgpass or PGPASSFILE, or null. */
function fromPasswordFile(config: {
  host: string
  port: number
  database: string
  user: string
}): string | null {
  const file = process.env['PGPASSFILE'] || join(homedir(), '.pgpass')
  try {
    if (!pgpassModeOk(statSync(file).mode)) {
      console.error(`team: ${file} is readable by others; ignored (chmod 600 it)`)
      return null
    }
    return pgpassLookup(readFileSync(file, 'utf8'), config)
  } catch {
    return null
  }
}

async function run(command: string, client: pg.Client): Promise<string> {
  switch (command) {
    case 'migrate': {
      const result = await migrate(client)
      return result.applied.length === 0
        ? `schema is at version ${result.to}; nothing to apply`
        : `schema migrated from version ${result.from} to ${result.to}: ${result.applied.join(', ')}`
    }
    case 'add-member': {
      const role = required('role')
      const team = required('team')
      const password = await prompt(`password for ${role}: `)
      await addMember(client, {
        team,
        role,
        password,
        displayName: values.name,
        reuseRole: values['reuse-role'],
      })
      return `${role} is a member of ${team}`
    }
    case 'remove-member': {
      const role = required('role')
      const ended = await removeMember(client, role)
      return `${role} is no longer a member and cannot log in; ${ended} open session(s) ended`
    }
    case 'grant': {
      const team = required('team')
      const partner = required('partner')
      await grantPartner(client, team, partner)
      return `${team} may see partner ${partner}`
    }
    case 'revoke': {
      const team = required('team')
      const partner = required('partner')
      await revokePartner(client, team, partner)
      return `${team} may no longer see partner ${partner}`
    }
    default:
      return usage(`unknown command ${JSON.stringify(command)}`)
  }
}

async function main(): Promise<void> {
  const command = positionals[0]
  if (!command || positionals.length > 1) usage('one command is required')
  if (!['migrate', 'add-member', 'remove-member', 'grant', 'revoke'].includes(command)) {
    usage(`unknown command ${JSON.stringify(command)}`)
  }
  const config = configFromUrl(required('url'), values.ca)
  if (config.password) {
    usage('the URL holds a password; use PGPASSWORD, ~/.pgpass or the prompt instead')
  }
  const password =
    process.env['PGPASSWORD'] ||
    fromPasswordFile(config) ||
    (await prompt(`password for ${config.user || 'the administrator'}: `))
  const client = await connectClient({ ...config, password })
  try {
    console.log(await run(command, client))
  } finally {
    await client.end().catch(() => {})
  }
}

main().catch((error: unknown) => {
  const teamError = error instanceof TeamError ? error : toTeamError(error)
  const detail = teamError.cause instanceof Error ? ` (${teamError.cause.message})` : ''
  console.error(`team: ${teamError.code}: ${teamError.message}${detail}`)
  process.exit(1)
})
