import { describe, expect, it } from 'vitest'
import type { PostedNotification } from '../../../src/shared/notifications'
import { markSettled, untilReview, type TeamCore } from '../../support/team-core'
import { teamOnSandbox } from '../../support/team-fixtures'

/**
 * Mentions (docs/team.md "Mentions"): `@name` in another member's note
 * notifies the member named (the `mentioned` kind) and adds an entry to
 * their Changes view; the author is not told, and a new machine catching up
 * on the history is not flooded with old mentions.
 */

const team = teamOnSandbox({ seed: 45_000, members: ['minji', 'jisoo'] })

function notifications(core: TeamCore): PostedNotification[] {
  const posted: PostedNotification[] = []
  core.core.events.subscribe((event, payload) => {
    if (event === 'notification.posted') posted.push(payload as PostedNotification)
  })
  return posted
}

async function mentionEntries(core: TeamCore) {
  return (await core.call('changes.list', { kinds: ['mention'] })).entries
}

describe('mentions', { timeout: 60_000 }, () => {
  it('notifies the member named and adds a Changes entry; the author is not told', async () => {
    const minji = await team.boot(team.configs[0]!)
    const jisoo = await team.boot(team.configs[1]!)
    await Promise.all([minji.settled(), jisoo.settled()])
    const toMinji = notifications(minji)
    const toJisoo = notifications(jisoo)
    const [idx, other] = (await jisoo.call('inspections.query', { limit: 2 })).rows.map(
      (row) => row.idx,
    )

    // Not a mention: an address, and a longer name.
    await jisoo.call('reviews.set', {
      resource: 'inspections',
      idx: other!,
      mark: 'none',
      note: 'mail x@minji name, or @minji names',
    })
    // minji's machine has pulled something: its first pull (catching up) is behind it.
    await untilReview(minji, other!, (review) => review?.note !== undefined)
    await jisoo.call('reviews.set', {
      resource: 'inspections',
      idx: idx!,
      mark: 'follow_up',
      note: '@minji name 박스 확인 부탁해요',
    })
    await minji.until(async () => (await mentionEntries(minji)).length > 0)
    const entries = await mentionEntries(minji)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      resource: 'inspections',
      idx,
      kind: 'mention',
      detail: { kind: 'mention', by: 'jisoo name', note: '@minji name 박스 확인 부탁해요' },
      seen: false,
    })
    await minji.until(() => toMinji.some((posted) => posted.kind === 'mentioned'))
    const posted = toMinji.filter((entry) => entry.kind === 'mentioned')
    expect(posted).toHaveLength(1)
    expect(posted[0]).toMatchObject({
      count: 1,
      title: 'jisoo name 님이 회원님을 언급함',
      records: [{ resource: 'inspections', idx }],
    })

    // The author's own machine: no entry, no notification.
    await jisoo.settled()
    expect(await mentionEntries(jisoo)).toEqual([])
    expect(toJisoo.filter((entry) => entry.kind === 'mentioned')).toEqual([])

    // A mention of jisoo by minji goes the other way.
    await minji.call('reviews.set', {
      resource: 'inspections',
      idx: idx!,
      mark: 'reviewed',
      note: '확인했어요 @jisoo name',
    })
    await jisoo.until(async () => (await mentionEntries(jisoo)).length === 1)
    expect(await mentionEntries(minji)).toHaveLength(1)
  })

  it('a new machine catching up on the history is not told of old mentions', async () => {
    const jisoo = await team.boot(team.configs[1]!)
    await jisoo.settled()
    const [idx] = (await jisoo.call('inspections.query', { limit: 1 })).rows.map((row) => row.idx)
    await markSettled(jisoo, idx!, 'none', '@minji name 예전 메모')

    // minji on a new computer: its first pull holds the mention.
    const fresh = await team.boot(team.configs[0]!)
    const told = notifications(fresh)
    await untilReview(fresh, idx!, (review) => review?.note === '@minji name 예전 메모')
    expect(await mentionEntries(fresh)).toEqual([])
    expect(told.filter((entry) => entry.kind === 'mentioned')).toEqual([])
  })
})
