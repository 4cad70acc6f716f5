import { describe, expect, it } from 'vitest'
import { removeMember } from '../../../src/core/team/admin'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import type { TeamStatusView } from '../../../src/shared/team'
import type { TeamCore } from '../../support/team-core'
import { teamOnSandbox, uniqueName } from '../../support/team-fixtures'

/**
 * The status bar's "N unsent" is right in every state the team path can stop
 * in, and follows each mark made while stopped; the boundary refuses a note
 * the server could not store before anything is kept.
 */

const team = teamOnSandbox({ seed: 9000, members: ['counted', 'removed'] })

async function idxs(core: TeamCore): Promise<number[]> {
  const page = await core.call('inspections.query', { limit: 500 })
  return page.rows.map((row) => row.idx)
}

describe('the unsent count', { timeout: 120_000 }, () => {
  it('counts every mark in each state the loop stops or retries in', async () => {
    const loner = uniqueName('loner')
    await team.admin.query(`CREATE ROLE ${loner} LOGIN PASSWORD 'loner-password'`)
    await removeMember(team.admin, team.configs[1]!.user)
    const closed = { ...team.configs[0]!, host: '127.0.0.1', port: 1 }
    const cases: [string, TeamServerConfig, Partial<TeamStatusView>][] = [
      [
        'wrong password',
        { ...team.configs[0]!, password: 'wrong' },
        { error: { code: 'team_auth' } },
      ],
      ['member removed', team.configs[1]!, { error: { code: 'team_auth' } }],
      [
        'role in no team',
        { ...team.configs[0]!, user: loner, password: 'loner-password' },
        { error: { code: 'team_not_member' } },
      ],
      [
        'TLS required',
        { ...team.configs[0]!, tls: 'plain' },
        { error: { code: 'team_tls_required' } },
      ],
      ['retrying', closed, { retrying: true }],
    ] as never
    for (const [name, config, expected] of cases) {
      const core = await team.boot(config)
      await core.until(async () => (await core.status()).state === 'offline')
      const [first, second, third] = await idxs(core)
      for (const [n, idx] of [first, second, third].entries()) {
        await core.call('reviews.set', { resource: 'inspections', idx: idx!, mark: 'reviewed' })
        await core.until(async () => {
          const status = await core.status()
          return status.state === 'offline' && status.unsent === n + 1
        })
      }
      expect(await core.status(), name).toMatchObject({
        state: 'offline',
        unsent: 3,
        setAside: 0,
        ...expected,
      })
      await core.close()
    }
  })

  it('refuses a note the server could not store before anything is kept', async () => {
    const core = await team.boot(team.configs[0]!)
    await core.until(async () => (await core.status()).state === 'connected')
    const [idx] = await idxs(core)
    for (const note of ['before\u0000after', 'lone \uD800 surrogate', '가'.repeat(2001)]) {
      await expect(
        core.call('reviews.set', { resource: 'inspections', idx: idx!, mark: 'reviewed', note }),
      ).rejects.toThrow(/invalid_argument .*note/)
    }
    // Two thousand characters, astral ones counted once each as the server does, are fine.
    const emoji = '😀'.repeat(2000)
    const saved = await core.call('reviews.set', {
      resource: 'inspections',
      idx: idx!,
      mark: 'reviewed',
      note: emoji,
    })
    expect(saved.note).toBe(emoji)
    const history = await core.call('reviews.history', { resource: 'inspections', idx: idx! })
    expect(history.map((entry) => entry.note)).toEqual([emoji])
    await core.until(async () => {
      const status = await core.status()
      return status.state === 'connected' && status.unsent === 0
    })
    expect(await core.status()).toMatchObject({ setAside: 0 })
  })
})
