import { test as base, expect, type Page } from '@playwright/test'
import { sourceThreads } from '../../src/core/threads/source-entries'
import { demoCredentials, startSandbox } from '../../src/sandbox'
import type { ChannelName } from '../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../src/shared/contract'
import { addTeam, clusterAdmin, startMigratedTeamCluster } from '../support/team-cluster'
import { joinTeam } from '../support/team-core'
import { freshStart, startApp, type RunningApp, screenUrl } from './fixtures'

/**
 * Two staff machines on one team server, for the end-to-end tests: two web
 * hosts (two data folders, the login roles `minji` and `jisoo` of one team)
 * on one partner account, against a throwaway PostgreSQL cluster started and
 * migrated the way the vitest `team` project does it
 * (tests/support/team-cluster.ts). Without PostgreSQL the fixture fails:
 * nothing is skipped.
 */

export interface TeamHosts {
  readonly minji: RunningApp
  readonly jisoo: RunningApp
}

/** A page on each host, both open on the inspections and connected to the team server. */
interface TeamPages {
  readonly minji: Page
  readonly jisoo: Page
}

export const test = base.extend<
  { team: TeamHosts; pages: TeamPages },
  { teamHosts: TeamHosts; teamSet: string }
>({
  /**
   * Which set of hosts a spec file gets: files that leave marks or
   * assignments another file's tests count (`test.use({ teamSet: … })`)
   * run in a worker of their own, with a cluster and hosts of their own.
   */
  teamSet: ['shared', { scope: 'worker', option: true }],
  teamHosts: [
    async ({ teamSet }, use) => {
      void teamSet
      const cluster = await startMigratedTeamCluster()
      const sandbox = await startSandbox({ seed: 2468, size: 20 })
      const admin = await clusterAdmin(cluster)
      const configs = await addTeam(admin, cluster, {
        team: '강남 감정팀',
        partner: demoCredentials(sandbox.seed).partnerId,
        members: [
          { role: 'minji', displayName: '김민지' },
          { role: 'jisoo', displayName: '박지수' },
        ],
      })
      await admin.end()
      const apps: RunningApp[] = []
      const close: (() => Promise<void>)[] = []
      try {
        for (const memberConfig of configs) {
          const app = await startApp({
            teamWorker: sourceThreads().teamWorker,
            teamBackoffMs: { base: 50, max: 500 },
            sandbox: { size: 5 },
          })
          close.push(() => app.close())
          await joinTeam(app.core, sandbox, memberConfig)
          passwords.set(app, memberConfig.password)
          apps.push(app)
        }
        await use({ minji: apps[0]!, jisoo: apps[1]! })
      } finally {
        for (const stop of close) await stop()
        await sandbox.close()
        await cluster.stop()
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  team: async ({ teamHosts }, use) => {
    for (const app of [teamHosts.minji, teamHosts.jisoo]) await freshStart(app, { theme: 'light' })
    await use(teamHosts)
  },
  pages: async ({ page, browser, team }, use) => {
    const context = await browser.newContext()
    const other = await context.newPage()
    await open(page, team.minji)
    await open(other, team.jisoo)
    await use({ minji: page, jisoo: other })
    await context.close()
  },
})

/** Opens an app on its inspections and waits for the team server's "connected". */
async function open(page: Page, app: RunningApp): Promise<void> {
  await page.goto(screenUrl(app.host.url, 'inspections'))
  await expect(page.getByTestId('status-team')).toHaveAttribute('data-state', 'connected')
  await expect(page.getByTestId('inspection-row').first()).toBeVisible()
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

/** Points the app's active profile at another port of its team server (a closed one cuts it off). */
export async function dispatch<C extends ChannelName>(
  app: RunningApp,
  channel: C,
  args: ChannelArgs<C>,
): Promise<ChannelResult<C>> {
  const answer = await app.core.router.dispatch(channel, args)
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
  return answer.value as ChannelResult<C>
}

/** Each host's team password, to store again after a move of the port. */
const passwords = new WeakMap<RunningApp, string>()

/** The port of the app's team server now. */
export async function teamPort(app: RunningApp): Promise<number> {
  const { profiles, activeId } = await dispatch(app, 'profiles.list', {})
  return profiles.find((profile) => profile.id === activeId)!.team!.port
}

/**
 * Points the app's active profile at another port of its team server (a
 * closed one cuts it off), then stores its password again: a move drops it.
 */
export async function moveTeamPort(app: RunningApp, port: number): Promise<void> {
  const { profiles, activeId } = await dispatch(app, 'profiles.list', {})
  const {
    credentials: _credentials,
    team,
    ...profile
  } = profiles.find((entry) => entry.id === activeId)!
  await dispatch(app, 'profiles.save', {
    ...profile,
    kind: profile.kind === 'test' ? 'test' : 'production',
    team: { ...team!, port },
  })
  await dispatch(app, 'team.setPassword', { id: activeId, password: passwords.get(app)! })
}

export { expect }
