import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { afterAll, afterEach, beforeAll, inject } from 'vitest'
import { connectClient, type TeamServerConfig } from '../../src/core/team/connection'
import { demoCredentials, startSandbox, type Sandbox } from '../../src/sandbox'
import { addTeam, clusterAdmin, clusterMember, type TeamClusterInfo } from './team-cluster'
import { bootTeamCore, type TeamCore, type TeamCoreOptions } from './team-core'

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
  return clusterMember(teamCluster(), role, password, database)
}

/** A connection as the cluster's administrator. */
export async function adminClient(database?: string): Promise<pg.Client> {
  return clusterAdmin(teamCluster(), database)
}

/**
 * A team granted one partner account, with members (`<prefix>_<random>`,
 * shown as `<prefix> name`); answers each member's config.
 */
export async function makeTeam(
  admin: pg.Client,
  options: {
    readonly partner: string
    readonly members: readonly string[]
    readonly database?: string
  },
): Promise<{ readonly team: string; readonly configs: readonly TeamServerConfig[] }> {
  const team = uniqueName('team')
  const configs = await addTeam(admin, teamCluster(), {
    team,
    partner: options.partner,
    members: options.members.map((prefix) => ({
      role: uniqueName(prefix),
      displayName: `${prefix} name`,
    })),
    database: options.database,
  })
  return { team, configs }
}

/** A plain `pg` connection as a member, for probing what the server allows. */
export async function memberClient(config: TeamServerConfig): Promise<pg.Client> {
  return connectClient(config)
}

/** What {@link teamOnSandbox} gives a test file. */
export interface TeamOnSandbox {
  /** A connection as the cluster's administrator. */
  readonly admin: pg.Client
  readonly sandbox: Sandbox
  /** The sandbox's partner account, the one the team is granted. */
  readonly partner: string
  /** How each member connects, in the order of `members`. */
  readonly configs: readonly TeamServerConfig[]
  /**
   * An app core on the sandbox with a member's team server (null: none),
   * closed after the test.
   */
  boot(config: TeamServerConfig | null, options?: TeamCoreOptions): Promise<TeamCore>
  /** Closes `resource` after the test too (a TCP proxy, a raw client). */
  afterTest<T>(resource: T, close: (resource: T) => Promise<unknown>): T
}

/**
 * The setup most team test files share: before them, an administrator's
 * connection, a sandbox of `size` records with a seed of its own (`seed`
 * plus a random offset: the team is granted the sandbox's partner account,
 * so two files never share one) and a team of `members` on it; after each
 * test, the cores it booted and what it handed {@link TeamOnSandbox.afterTest}
 * closed; after all of them, the connection and the sandbox.
 */
export function teamOnSandbox(options: {
  readonly seed: number
  readonly size?: number
  readonly members: readonly string[]
  /** How {@link TeamOnSandbox.boot} boots a core unless told otherwise. */
  readonly boot?: TeamCoreOptions
}): TeamOnSandbox {
  let admin: pg.Client | undefined
  let sandbox: Sandbox | undefined
  let configs: readonly TeamServerConfig[] = []
  const closers: (() => Promise<unknown>)[] = []
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('teamOnSandbox: used outside a test')
    return value
  }
  beforeAll(async () => {
    admin = await adminClient()
    sandbox = await startSandbox({
      seed: options.seed + Math.floor(Math.random() * 5000),
      size: options.size ?? 20,
    })
    ;({ configs } = await makeTeam(admin, {
      partner: demoCredentials(sandbox.seed).partnerId,
      members: options.members,
    }))
  })
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()))
  })
  afterAll(async () => {
    await admin?.end()
    await sandbox?.close()
  })
  return {
    get admin() {
      return ready(admin)
    },
    get sandbox() {
      return ready(sandbox)
    },
    get partner() {
      return demoCredentials(ready(sandbox).seed).partnerId
    },
    get configs() {
      return configs
    },
    async boot(config, bootOptions) {
      const core = await bootTeamCore(ready(sandbox), config, bootOptions ?? options.boot ?? {})
      closers.push(() => core.close())
      return core
    },
    afterTest(resource, close) {
      closers.push(() => close(resource))
      return resource
    },
  }
}
