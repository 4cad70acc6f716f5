import { describe, expect, it } from 'vitest'
import type { InspectionRow } from '../../../src/shared/lists'
import { markSettled, untilReview, type TeamCore } from '../../support/team-core'
import { teamOnSandbox } from '../../support/team-fixtures'

/**
 * Acting on many records at once and taking an action back: `reviews.setMany`
 * marks a selection (by idx or every row of a filter) in one action, and
 * `reviews.undo` restores each record's previous mark, note and author, as
 * new events that every member's app applies; without a team server too.
 */

const team = teamOnSandbox({ seed: 20_000, members: ['lead', 'staff'] })

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

describe('bulk marks and undo', { timeout: 120_000 }, () => {
  it('works without a team server: a selection, every row of a filter, and undo in turn', async () => {
    const solo = await team.boot(null)
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
    const solo = await team.boot(null)
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
    const lead = await team.boot(team.configs[0]!)
    const staff = await team.boot(team.configs[1]!)
    await Promise.all([lead.settled(), staff.settled()])
    const all = (await rows(lead)).map((row) => row.idx)
    const [mine, theirs] = all
    // Before: one record marked by the staff member, one by the lead, the rest unmarked.
    await markSettled(staff, theirs!, 'follow_up', 'staff')
    await markSettled(lead, mine!, 'follow_up', 'lead')
    await untilReview(lead, theirs!, (review) => review?.note === 'staff')
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
    await lead.settled()
    await staff.until(async () =>
      (await marks(staff, all)).every((m) => m?.mark === 'reviewed' && m.by === 'lead name'),
    )

    expect((await lead.call('reviews.undo')).undone).toMatchObject({
      kind: 'bulk',
      count: all.length,
    })
    expect(await marks(lead, all)).toEqual(before)
    await lead.settled()
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
