import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { inject } from 'vitest'
import { addMember, grantPartner } from '../../src/core/team/admin'
import { connectClient, type TeamServerConfig } from '../../src/core/team/connection'
import type { TeamClusterInfo } from './team-cluster'

/**
 * Helpers of the team tests over the cluster the global setup started
 * (tests/support/team-global-setup.ts). Roles are global to the cluster, so
 * every name a test makes carries a random suffix.
 */

/** The cluster of this run. */
export function teamCluster(): TeamClusterInfo {
  return inject('teamCluster')
}

/** `prefix_<random>`, a valid role, team or partner name. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`
}

/** How a member connects: TLS verified against the cluster's CA, like a real server. */
export function memberConfig(role: string, password: string, database?: string): TeamServerConfig {
  const cluster = teamCluster()
  return {
    host: cluster.host,
    port: cluster.port,
    database: database ?? cluster.database,
    user: role,
    password,
    tls: 'verify-full',
    caFile: cluster.caFile,
  }
}

/** A connection as the cluster's administrator. */
export async function adminClient(database?: string): Promise<pg.Client> {
  const cluster = teamCluster()
  return connectClient({
    ...memberConfig(cluster.adminUser, cluster.adminPassword, database),
  })
}

/** A team granted one partner account, with members; answers each member's config. */
export async function makeTeam(
  admin: pg.Client,
  options: {
    readonly partner: string
    readonly members: readonly string[]
    readonly database?: string
  },
): Promise<{ readonly team: string; readonly configs: readonly TeamServerConfig[] }> {
  const team = uniqueName('team')
  await grantPartner(admin, team, options.partner)
  const configs: TeamServerConfig[] = []
  for (const prefix of options.members) {
    const role = uniqueName(prefix)
    const password = `pw-${randomBytes(6).toString('hex')}`
    await addMember(admin, { team, role, password, displayName: `${prefix} name` })
    configs.push(memberConfig(role, password, options.database))
  }
  return { team, configs }
}

/** A plain `pg` connection as a member, for probing what the server allows. */
export async function memberClient(config: TeamServerConfig): Promise<pg.Client> {
  return connectClient(config)
}
