import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { InspectionRow } from '../../../src/shared/lists'
import { startTcpProxy } from '../../support/tcp-proxy'
import type { TeamCore } from '../../support/team-core'
import { teamOnSandbox } from '../../support/team-fixtures'

/**
 * Two app cores (two data folders, two staff roles of one team) on one team
 * server: marks and notes travel both ways through the team worker; edits
 * made while one is cut off converge once it is back, with every event kept.
 */

const team = teamOnSandbox({ seed: 4000, members: ['minji', 'jisoo', 'solo'] })

async function row(core: TeamCore, idx: number): Promise<InspectionRow | undefined> {
  const page = await core.call('inspections.query', { limit: 500 })
  return page.rows.find((entry) => entry.idx === idx)
}

async function inspectionIdxs(core: TeamCore): Promise<number[]> {
  const page = await core.call('inspections.query', { limit: 500 })
  return page.rows.map((entry) => entry.idx)
}

// Each test boots two app cores with their sandbox sync: more than the default on a loaded machine.
describe('two staff machines on one team server', { timeout: 90_000 }, () => {
  it('marks and notes propagate both ways and show who marked', async () => {
    const a = await team.boot(team.configs[0]!)
    const b = await team.boot(team.configs[1]!)
    await Promise.all([a.settled(), b.settled()])
    const [first, second] = await inspectionIdxs(a)

    await a.call('reviews.set', {
      resource: 'inspections',
      idx: first!,
      mark: 'reviewed',
      note: '스크래치 확인',
    })
    await b.until(async () => (await row(b, first!))?.review?.mark === 'reviewed')
    expect((await row(b, first!))?.review).toMatchObject({
      mark: 'reviewed',
      note: '스크래치 확인',
      by: 'minji name',
      author: team.configs[0]!.user,
    })

    await b.call('reviews.set', {
      resource: 'inspections',
      idx: second!,
      mark: 'follow_up',
      note: 'recheck',
    })
    await a.until(async () => (await row(a, second!))?.review?.mark === 'follow_up')
    expect((await row(a, second!))?.review).toMatchObject({
      note: 'recheck',
      by: 'jisoo name',
      author: team.configs[1]!.user,
    })
    // The signer is the team identity, on the machine that set it too.
    expect((await row(a, first!))?.review?.by).toBe('minji name')
    // The password is in the keychain only: not in the settings file, not in what the renderer gets.
    const settingsText = readFileSync(join(a.dataDir, 'settings.json'), 'utf8')
    expect(settingsText).toContain(team.configs[0]!.user)
    expect(settingsText).not.toContain(team.configs[0]!.password)
    expect(JSON.stringify(await a.call('profiles.list'))).not.toContain(team.configs[0]!.password)
  })

  it('edits made while one machine is cut off converge, every event kept, nothing left unsent', async () => {
    const proxy = await startTcpProxy(team.configs[0]!.port)
    team.afterTest(proxy, (proxy) => proxy.close())
    const a = await team.boot({ ...team.configs[0]!, port: proxy.port })
    const b = await team.boot(team.configs[1]!)
    await Promise.all([a.settled(), b.settled()])
    const [shared, onlyA, onlyB] = (await inspectionIdxs(a)).slice(5)

    proxy.cut()
    await a.until(async () => (await a.status()).state === 'offline')
    await a.call('reviews.set', {
      resource: 'inspections',
      idx: shared!,
      mark: 'follow_up',
      note: 'A, offline',
    })
    await a.call('reviews.set', { resource: 'inspections', idx: onlyA!, mark: 'reviewed' })
    // Each mark updates what waits, without a connect attempt of its own.
    await a.until(async () => {
      const status = await a.status()
      return status.state === 'offline' && status.unsent === 2
    })
    // Local first: the mark shows at once while offline.
    expect((await row(a, shared!))?.review?.note).toBe('A, offline')

    await b.call('reviews.set', {
      resource: 'inspections',
      idx: shared!,
      mark: 'reviewed',
      note: 'B, online',
    })
    await b.call('reviews.set', { resource: 'inspections', idx: onlyB!, mark: 'follow_up' })
    await b.settled()

    proxy.restore()
    await a.settled()
    // A's mark of the shared record reached the server last: it is current on both.
    for (const core of [a, b]) {
      await core.until(async () => (await row(core, shared!))?.review?.note === 'A, offline')
      await core.until(async () => (await row(core, onlyB!))?.review?.mark === 'follow_up')
      expect((await row(core, onlyA!))?.review?.mark).toBe('reviewed')
      expect(await core.status()).toMatchObject({ state: 'connected', unsent: 0 })
    }
    // B's mark was replaced by one made without seeing it: B is told, A is not.
    expect((await row(b, shared!))?.review?.changedBy).toBe('minji name')
    expect((await row(a, shared!))?.review?.changedBy).toBeUndefined()

    for (const core of [a, b]) {
      const history = await core.call('reviews.history', { resource: 'inspections', idx: shared! })
      expect(history.map((entry) => entry.note)).toEqual(['B, online', 'A, offline'])
      expect(history.every((entry) => entry.seq !== null)).toBe(true)
    }
    // Opening the history was looking at the record: the flag is gone.
    expect((await row(b, shared!))?.review?.changedBy).toBeUndefined()
  })

  it('without a team server the app marks locally exactly as before', async () => {
    const solo = await team.boot(null)
    const [idx] = await inspectionIdxs(solo)
    const saved = await solo.call('reviews.set', {
      resource: 'inspections',
      idx: idx!,
      mark: 'reviewed',
      note: 'alone',
    })
    expect(saved).toEqual({ mark: 'reviewed', note: 'alone', by: null, at: saved.at })
    expect(await solo.status()).toEqual({ state: 'none' })
    expect((await row(solo, idx!))?.review).toEqual(saved)
    expect(
      await solo.call('reviews.history', { resource: 'inspections', idx: idx! }),
    ).toMatchObject([{ mark: 'reviewed', note: 'alone', author: null, local: true }])
  })
})
