import type pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { startSandbox, demoCredentials, type Sandbox } from '../../../src/sandbox'
import type { InspectionRow } from '../../../src/shared/lists'
import { bootTeamCore, type TeamCore } from '../../support/team-core'
import { adminClient, makeTeam } from '../../support/team-fixtures'

/**
 * Acting on many records at once and taking an action back: `reviews.setMany`
 * marks a selection (by idx or every row of a filter) in one action, and
 * `reviews.undo` restores each record's previous mark, note and author, as
 * new events that every member's app applies; without a team server too.
 */

let admin: pg.Client
let sandbox: Sandbox
let configs: readonly TeamServerConfig[]
const cores: TeamCore[] = []

beforeAll(async () => {
  admin = await adminClient()
  sandbox = await startSandbox({ seed: 20_000 + Math.floor(Math.random() * 5000), size: 20 })
  ;({ configs } = await makeTeam(admin, {
    partner: demoCredentials(sandbox.seed).partnerId,
    members: ['lead', 'staff'],
  }))
})
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()))
})
afterAll(async () => {
  await admin?.end()
  await sandbox?.close()
})

async function boot(config: TeamServerConfig | null): Promise<TeamCore> {
  const core = await bootTeamCore(sandbox, config)
  cores.push(core)
  return core
}

async function rows(core: TeamCore): Promise<InspectionRow[]> {
  return [...(await core.call('inspections.query', { limit: 500 })).rows]
}

async function marks(core: TeamCore, idxs: readonly number[]) {
  const byIdx = new Map((await rows(core)).map((row) => [row.idx, row.review]))
  return idxs.map((idx) => {
    const review = byIdx.get(idx)
    return review ? { mark: review.mark, note: review.note, by: review.by } : null
  })
}

async function settled(core: TeamCore): Promise<void> {
  await core.until(async () => {
    const status = await core.status()
    return status.state === 'connected' && status.unsent === 0
  })
}

describe('bulk marks and undo', { timeout: 120_000 }, () => {
  it('works without a team server: a selection, every row of a filter, and undo in turn', async () => {
    const solo = await boot(null)
    const all = (await rows(solo)).map((row) => row.idx)
    const [first, second, third] = all
    await solo.call('reviews.set', {
      resource: 'inspections',
      idx: first!,
      mark: 'follow_up',
      note: '먼저',
    })
    const before = await marks(solo, all)

    const { action } = await solo.call('reviews.setMany', {
      resource: 'inspections',
      idxs: [first!, second!, third!],
      mark: 'reviewed',
    })
    expect(action).toEqual({ kind: 'bulk', resource: 'inspections', count: 3, mark: 'reviewed' })
    expect((await marks(solo, [first!, second!, third!])).map((m) => m?.mark)).toEqual([
      'reviewed',
      'reviewed',
      'reviewed',
    ])
    // The note stays when only a mark is set.
    expect((await marks(solo, [first!]))[0]?.note).toBe('먼저')

    const filtered = await solo.call('reviews.setMany', {
      resource: 'inspections',
      filter: { review: 'none' },
      mark: 'follow_up',
      note: '일괄',
    })
    expect(filtered.action.count).toBe(all.length - 3)
    expect((await marks(solo, all)).every((m) => m?.mark !== undefined)).toBe(true)

    expect((await solo.call('reviews.undo')).undone).toMatchObject({
      kind: 'bulk',
      count: all.length - 3,
    })
    expect((await solo.call('reviews.undo')).undone).toMatchObject({ kind: 'bulk', count: 3 })
    expect(await marks(solo, all)).toEqual(before)
    expect((await solo.call('reviews.undo')).undone).toMatchObject({ kind: 'mark', count: 1 })
    expect((await marks(solo, all)).every((m) => m === null)).toBe(true)
    expect((await solo.call('reviews.undo')).undone).toBeNull()
  })

  it('refuses a bulk action without a target or without a change', async () => {
    const solo = await boot(null)
    await expect(
      solo.call('reviews.setMany', { resource: 'inspections', mark: 'reviewed' } as never),
    ).rejects.toThrow(/invalid_argument/)
    await expect(
      solo.call('reviews.setMany', { resource: 'inspections', idxs: [1] } as never),
    ).rejects.toThrow(/invalid_argument/)
    await expect(
      solo.call('reviews.setMany', {
        resource: 'inspections',
        idxs: [1],
        note: 'a\u0000b',
      }),
    ).rejects.toThrow(/invalid_argument/)
  })

  it('a bulk mark reaches the other member; its undo restores each record’s mark and author on both', async () => {
    const lead = await boot(configs[0]!)
    const staff = await boot(configs[1]!)
    await Promise.all([settled(lead), settled(staff)])
    const all = (await rows(lead)).map((row) => row.idx)
    const [mine, theirs] = all
    // Before: one record marked by the staff member, one by the lead, the rest unmarked.
    await staff.call('reviews.set', {
      resource: 'inspections',
      idx: theirs!,
      mark: 'follow_up',
      note: 'staff',
    })
    await settled(staff)
    await lead.call('reviews.set', {
      resource: 'inspections',
      idx: mine!,
      mark: 'follow_up',
      note: 'lead',
    })
    await settled(lead)
    await lead.until(async () => (await marks(lead, [theirs!]))[0]?.note === 'staff')
    const before = await marks(lead, all)
    expect(before.slice(0, 2)).toEqual([
      { mark: 'follow_up', note: 'lead', by: 'lead name' },
      { mark: 'follow_up', note: 'staff', by: 'staff name' },
    ])

    await lead.call('reviews.setMany', {
      resource: 'inspections',
      filter: {},
      mark: 'reviewed',
    })
    await settled(lead)
    await staff.until(async () =>
      (await marks(staff, all)).every((m) => m?.mark === 'reviewed' && m.by === 'lead name'),
    )

    expect((await lead.call('reviews.undo')).undone).toMatchObject({
      kind: 'bulk',
      count: all.length,
    })
    expect(await marks(lead, all)).toEqual(before)
    await settled(lead)
    for (const core of [lead, staff]) {
      await core.until(
        async () => JSON.stringify(await marks(core, all)) === JSON.stringify(before),
      )
    }
    // The history keeps the bulk mark and its undo.
    const history = await staff.call('reviews.history', { resource: 'inspections', idx: theirs! })
    expect(history.map((entry) => [entry.mark, entry.authorName])).toEqual([
      ['follow_up', 'staff name'],
      ['reviewed', 'lead name'],
      ['follow_up', 'lead name'],
    ])
  })
})
