import { randomBytes } from 'node:crypto'
import { test as base, expect, type Page } from '@playwright/test'
import { addMember, grantPartner } from '../../src/core/team/admin'
import { connectClient, type TeamServerConfig } from '../../src/core/team/connection'
import { sourceThreads } from '../../src/core/source-threads'
import { demoCredentials, startSandbox } from '../../src/sandbox'
import { startMigratedTeamCluster } from '../support/team-cluster'
import { joinTeam } from '../support/team-core'
import type { ChannelName } from '../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../src/shared/contract'
import { startApp, type RunningApp } from './fixtures'

/**
 * Two staff machines on one team server: two web hosts (two data folders,
 * two login roles of one team) against a throwaway PostgreSQL cluster, the
 * one the vitest `team` project starts (tests/support/team-cluster.ts). A
 * mark made in one page shows in the other without a reload. Without
 * PostgreSQL the suite fails: nothing is skipped.
 */

interface TeamHosts {
  readonly minji: RunningApp
  readonly jisoo: RunningApp
}

const test = base.extend<{ team: TeamHosts }, { teamHosts: TeamHosts }>({
  teamHosts: [
    // Playwright requires an object pattern for the (unused) fixtures argument.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const cluster = await startMigratedTeamCluster()
      const sandbox = await startSandbox({ seed: 2468, size: 20 })
      const config = (user: string, password: string): TeamServerConfig => ({
        host: cluster.host,
        port: cluster.port,
        database: cluster.database,
        user,
        password,
        tls: 'verify-full',
        caFile: cluster.caFile,
      })
      const admin = await connectClient(config(cluster.adminUser, cluster.adminPassword))
      const member = async (role: string, displayName: string): Promise<TeamServerConfig> => {
        const password = `pw-${randomBytes(8).toString('hex')}`
        await addMember(admin, { team: '강남 감정팀', role, password, displayName })
        return config(role, password)
      }
      await grantPartner(admin, '강남 감정팀', demoCredentials(sandbox.seed).partnerId)
      const configs = [await member('minji', '김민지'), await member('jisoo', '박지수')]
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
    for (const app of [teamHosts.minji, teamHosts.jisoo]) {
      const answer = await app.core.router.dispatch('settings.set', {
        language: 'ko',
        theme: 'light',
      })
      if (!answer.ok) throw new Error(`settings.set: ${answer.error.message}`)
    }
    await use(teamHosts)
  },
})

/** Opens an app on its inspections and waits for the team server's "connected". */
async function open(page: Page, app: RunningApp): Promise<void> {
  await page.goto(app.host.url)
  await expect(page.getByTestId('status-team')).toHaveAttribute('data-state', 'connected')
  await expect(page.getByTestId('inspection-row').first()).toBeVisible()
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

/** Points the app's active profile at another port of its team server (a closed one cuts it off). */
async function dispatch<C extends ChannelName>(
  app: RunningApp,
  channel: C,
  args: ChannelArgs<C>,
): Promise<ChannelResult<C>> {
  const answer = await app.core.router.dispatch(channel, args)
  if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`)
  return answer.value as ChannelResult<C>
}

/** The port of the app's team server now. */
async function teamPort(app: RunningApp): Promise<number> {
  const { profiles, activeId } = await dispatch(app, 'profiles.list', {})
  return profiles.find((profile) => profile.id === activeId)!.team!.port
}

/** Points the app's active profile at another port of its team server (a closed one cuts it off). */
async function moveTeamPort(app: RunningApp, port: number): Promise<void> {
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
}

test.describe('two staff machines on one team server', () => {
  test('a mark made in one page shows in the other without a reload, with who set it and its history', async ({
    page,
    browser,
    team,
  }) => {
    const other = await (await browser.newContext()).newPage()
    await open(page, team.minji)
    await open(other, team.jisoo)
    await expect(page.getByTestId('status-team')).toContainText('강남 감정팀')

    const row = page.getByTestId('inspection-row').first()
    const idx = await row.getAttribute('data-idx')
    await row.click()
    await page.getByTestId('review-editor').getByRole('radio', { name: '검토 완료' }).click()
    await page.getByTestId('review-note').fill('스크래치 확인')
    await page.getByTestId('review-save').click()

    // The other page was never reloaded: the mark arrives through the team server.
    const seen = other.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    await expect(seen.getByTestId('review-badge')).toHaveAttribute('data-mark', 'reviewed')
    await expect(seen.getByTestId('review-who')).toHaveText('민지')
    await expect(seen.getByTestId('review-who')).toHaveAttribute('title', '김민지 님이 표시')

    // Its history in the detail pane: who, the mark and the note.
    await seen.click()
    const entry = other.getByTestId('review-history-entry')
    await expect(entry).toHaveCount(2)
    await expect(entry.first()).toContainText('김민지')
    await expect(entry.first()).toContainText('스크래치 확인')

    // The list filtered by who marked: the record is someone else's for 박지수.
    await other.getByTestId('marked-by-filter').selectOption('others')
    await expect(other.getByTestId('inspection-row')).toHaveCount(1)
    await other.getByTestId('marked-by-filter').selectOption('me')
    await expect(other.getByTestId('inspection-row')).toHaveCount(0)
    await other.getByTestId('marked-by-filter').selectOption('role:minji')
    await expect(other.getByTestId('inspection-row')).toHaveCount(1)

    // And back: 박지수 marks it for follow-up; 김민지's page follows.
    await other.getByTestId('inspection-row').first().click()
    await other.getByTestId('review-editor').getByRole('radio', { name: '후속 조치 필요' }).click()
    const mine = page.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    await expect(mine.getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
    await expect(mine.getByTestId('review-who')).toHaveText('지수')
    await other.context().close()
  })

  test('Accounts: the team server section tests the connection and names the team', async ({
    page,
    team,
  }) => {
    await page.goto(team.minji.host.url)
    await page.getByRole('link', { name: '계정' }).click()
    const section = page.getByTestId('team-section').first()
    await expect(section.getByTestId('team-address')).toContainText('127.0.0.1:')
    await section.getByTestId('team-test').click()
    const result = section.getByTestId('team-test-result')
    await expect(result).toHaveAttribute('data-code', 'ok')
    await expect(result).toContainText('강남 감정팀')
    await expect(result).toContainText('김민지 (minji)')
  })

  test('a mark changed while this member was offline: a dot in the list, a notice in the pane until dismissed', async ({
    page,
    browser,
    team,
  }) => {
    const other = await (await browser.newContext()).newPage()
    await open(page, team.minji)
    await open(other, team.jisoo)
    const idx = await page.getByTestId('inspection-row').nth(2).getAttribute('data-idx')
    const mine = page.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    const theirs = other.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    // 박지수 is cut off (a closed port); 김민지 marks the record meanwhile.
    const serverPort = await teamPort(team.jisoo)
    await moveTeamPort(team.jisoo, 1)
    await expect(other.getByTestId('status-team')).toHaveAttribute('data-state', 'offline')
    await mine.click()
    await page.getByTestId('review-editor').getByRole('radio', { name: '검토 완료' }).click()
    // Sent: the server numbers 김민지's mark first.
    await expect
      .poll(async () => {
        const status = await dispatch(team.minji, 'team.status', {})
        return status.state === 'connected' && status.unsent === 0
      })
      .toBe(true)
    // 김민지 goes on to another record (looking at this one would clear what follows).
    await page.getByTestId('inspection-row').nth(4).click()

    // 박지수, offline, marks it too without having seen it: kept and counted as unsent.
    await theirs.click()
    await other.getByTestId('review-editor').getByRole('radio', { name: '후속 조치 필요' }).click()
    await expect(other.getByTestId('status-team')).toContainText('보내지 않은 항목 1개')

    // Back online: the server numbers 박지수's mark last, so it is current, and 김민지 is told.
    await moveTeamPort(team.jisoo, serverPort)
    await expect(other.getByTestId('status-team')).toHaveAttribute('data-state', 'connected')
    await expect(mine.getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
    await expect(mine.getByTestId('review-changed')).toHaveAttribute(
      'title',
      '자리를 비운 사이 박지수 님이 변경함',
    )
    await mine.click()
    const notice = page.getByTestId('changed-notice')
    await expect(notice).toContainText('자리를 비운 사이 박지수 님이 변경함')
    await expect(page.getByTestId('review-history-entry')).toHaveCount(2)
    // Looking at the record clears the list's dot; the notice stays until dismissed.
    await expect(mine.getByTestId('review-changed')).toHaveCount(0)
    await page.getByTestId('changed-ack').click()
    await expect(notice).toHaveCount(0)
    await other.context().close()
  })
})
