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
import { TeamError, toTeamError } from '../src/core/team/team-error'

/**
 * The administrator's command for the team server (docs/team.md):
 *
 *   npm run team -- migrate       --url postgres://admin@host/db [--ca FILE]
 *   npm run team -- add-member    --url … --team NAME --role ROLE [--name "김민지"] [--password PW]
 *   npm run team -- remove-member --url … --role ROLE
 *   npm run team -- grant         --url … --team NAME --partner PARTNER_ID
 *   npm run team -- revoke        --url … --team NAME --partner PARTNER_ID
 *
 * The administrator's password comes from the URL or PGPASSWORD; a member's
 * password from --password or, without it, a prompt (a line on stdin when
 * stdin is not a terminal). TLS follows the app's rule: verify-full except on
 * loopback; `--ca` names the CA file.
 */
const USAGE = `usage: npm run team -- <migrate|add-member|remove-member|grant|revoke> --url URL [options]
  --ca FILE        CA certificate(s) to trust instead of the system's
  --team NAME      team name (add-member, grant, revoke)
  --role ROLE      staff login role (add-member, remove-member)
  --name TEXT      the member's name as the app shows it (add-member)
  --password PW    the member's password (add-member; prompted when absent)
  --partner ID     partner account id (grant, revoke)`

const { values, positionals } = parseArgs({
  allowPositionals: true,
  strict: true,
  options: {
    url: { type: 'string' },
    ca: { type: 'string' },
    team: { type: 'string' },
    role: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string' },
    partner: { type: 'string' },
  },
})

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`)
  process.exit(2)
}

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
      const password = values.password ?? (await prompt(`password for ${role}: `))
      await addMember(client, { team, role, password, displayName: values.name })
      return `${role} is a member of ${team}`
    }
    case 'remove-member': {
      const role = required('role')
      await removeMember(client, role)
      return `${role} is no longer a member and cannot log in`
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
  const password = config.password || process.env['PGPASSWORD'] || ''
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
