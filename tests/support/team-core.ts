import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openConfFile } from '../../src/core/settings/conf-file'
import { MemoryStore } from '../../src/core/vault/memory-store'
import type { TeamServerConfig } from '../../src/core/team/connection'
import type { PresenceTiming } from '../../src/core/team/team-sync'
import type { Sandbox } from '../../src/sandbox'
import { demoCredentials } from '../../src/sandbox'
import type { ChannelName } from '../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../src/shared/contract'
import type { ReviewMark } from '../../src/shared/lists'
import type { TeamStatusView } from '../../src/shared/team'
import type { Core } from '../../src/core/app'
import { bootWithEmbeddedSandbox, type BootedCore } from './boot'
import { sourceThreads } from '../../src/core/threads/source-entries'

/**
 * An app core as a staff member runs it, for the team tests: its own data
 * folder, a partner profile on a shared sandbox, a team server, the team
 * worker from its TypeScript source, short reconnect backoff.
 */
export interface TeamCore {
  readonly core: BootedCore
  readonly profileId: string
  readonly dataDir: string
  call<C extends ChannelName>(channel: C, args?: ChannelArgs<C>): Promise<ChannelResult<C>>
  /** Resolves once `check` holds: checked now and after every event of the core. */
  until(check: () => Promise<boolean> | boolean): Promise<void>
  /** The latest team status. */
  status(): Promise<TeamStatusView>
  /** Resolves once the core is connected to its team server with nothing left to send. */
  settled(): Promise<void>
  close(): Promise<void>
}

/** How {@link bootTeamCore} boots a core. */
export interface TeamCoreOptions {
  readonly dataDir?: string
  /** The app's own reconnect backoff (1 s doubling to 60 s) instead of the tests' short one. */
  readonly appBackoff?: boolean
  /** Presence timing instead of the app's (heartbeat 10 s, gone after 20 s, read every 5 s). */
  readonly presence?: Partial<PresenceTiming>
}

/** Boots a core whose active profile is `sandbox`'s partner with the team server `server` (null: none). */
export async function bootTeamCore(
  sandbox: Sandbox,
  server: TeamServerConfig | null,
  options: TeamCoreOptions = {},
): Promise<TeamCore> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'team-core-'))
  const threads = sourceThreads()
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    ...threads,
    ...(options.appBackoff ? {} : { teamBackoffMs: { base: 10, max: 100 } }),
    ...(options.presence ? { teamPresence: options.presence } : {}),
    log: () => undefined,
    sandbox: { size: 5 },
  })
  const waiters = new Set<() => void>()
  core.events.subscribe(() => {
    for (const wake of [...waiters]) wake()
  })
  const nextEvent = (): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        waiters.delete(wake)
        resolve()
      }
      waiters.add(wake)
    })
  async function call<C extends ChannelName>(
    channel: C,
    args?: ChannelArgs<C>,
  ): Promise<ChannelResult<C>> {
    return dispatch(core, channel, args)
  }
  const id = await joinTeam(core, sandbox, server)
  // Once: a test may close a core itself before the file's fixture does.
  let closing: Promise<void> | null = null
  const until = async (check: () => Promise<boolean> | boolean): Promise<void> => {
    for (;;) {
      const next = nextEvent()
      if (await check()) return
      await next
    }
  }
  return {
    core,
    profileId: id,
    dataDir,
    call,
    until,
    status: () => call('team.status'),
    settled: () => until(() => isSettled({ status: () => call('team.status') })),
    close: () => (closing ??= core.close()),
  }
}

/** Marks inspection `idx` on `core` (with `note`, when given), then waits until its team server has it. */
export async function markSettled(
  core: TeamCore,
  idx: number,
  mark: ChannelArgs<'reviews.set'>['mark'],
  note?: string,
): Promise<void> {
  await core.call('reviews.set', {
    resource: 'inspections',
    idx,
    mark,
    ...(note === undefined ? {} : { note }),
  })
  await core.settled()
}

/** Resolves once inspection `idx`'s review, as `core` lists it, satisfies `holds`. */
export function untilReview(
  core: TeamCore,
  idx: number,
  holds: (review: ReviewMark | null) => boolean,
): Promise<void> {
  return core.until(async () => {
    const { rows } = await core.call('inspections.query', { limit: 500 })
    const row = rows.find((candidate) => candidate.idx === idx)
    return row !== undefined && holds(row.review)
  })
}

/** Whether `core` is connected to its team server with nothing left to send. */
export async function isSettled(core: Pick<TeamCore, 'status'>): Promise<boolean> {
  const status = await core.status()
  return status.state === 'connected' && status.unsent === 0
}

async function dispatch<C extends ChannelName>(
  core: Core,
  channel: C,
  args?: ChannelArgs<C>,
): Promise<ChannelResult<C>> {
  const result = await core.router.dispatch(channel, args ?? {})
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
  return result.value as ChannelResult<C>
}

/**
 * Makes a partner profile on `sandbox`'s partner account with the team
 * server `server` (null: none), its key for this session and the team
 * password, selects it and syncs its lists; answers the profile id. Two
 * cores that join one sandbox see the same records.
 */
export async function joinTeam(
  core: Core,
  sandbox: Sandbox,
  server: TeamServerConfig | null,
): Promise<string> {
  const call = <C extends ChannelName>(channel: C, args?: ChannelArgs<C>) =>
    dispatch(core, channel, args)
  const credentials = demoCredentials(sandbox.seed)
  const { id } = await call('profiles.save', {
    name: 'Shop',
    baseUrl: sandbox.baseUrl,
    staticUrl: sandbox.staticUrl,
    partnerId: credentials.partnerId,
    redirectUri: 'https://shop.example.com/done',
    kind: 'test',
    ...(server
      ? {
          team: {
            host: server.host,
            port: server.port,
            database: server.database,
            role: server.user,
            tls: server.tls,
            ...(server.caFile ? { caFile: server.caFile } : {}),
          },
        }
      : {}),
  })
  await call('profiles.setSecret', {
    id,
    apiKey: credentials.apiKey,
    apiSecret: credentials.apiSecret,
    sessionOnly: true,
  })
  if (server) await call('team.setPassword', { id, password: server.password })
  await call('profiles.select', { id })
  await call('sync.start', { resources: ['inspections', 'guarantees'], mode: 'full' })
  await core.sync.idle()
  return id
}
