import { describe, expect, it } from 'vitest'
import type { Client } from '../../src/renderer/src/lib/client'
import { Navigation } from '../../src/renderer/src/lib/navigation'
import {
  NotificationCenter,
  type NotificationPage,
} from '../../src/renderer/src/lib/notifications.svelte'
import type { PostedNotification } from '../../src/shared/notifications'

/** A page that is in front, with no browser notifications. */
const page = {
  window: { document: { visibilityState: 'visible', hasFocus: () => true } } as unknown as Window,
  Notification: undefined,
} satisfies NotificationPage

/**
 * A notification center over a client whose active account is `active`; a switch is
 * drawn by the desk (`profileShown`) only when the test says. Every call is logged.
 */
function center(active: string) {
  const log: string[] = []
  let current = active
  let drawn: () => void = () => undefined
  const answer = (channel: string, args: Record<string, unknown>): unknown => {
    log.push(args['id'] === undefined ? channel : `${channel} ${String(args['id'])}`)
    if (channel === 'app.info') return { profile: { id: current } }
    if (channel === 'profiles.select') {
      current = String(args['id'])
      return { profiles: [], activeId: current }
    }
    if (channel === 'records.locate') {
      return { resource: 'inspections', idx: 9, registeredAt: null, inspectionNum: '240307000151' }
    }
    throw new Error(`unexpected call ${channel}`)
  }
  const client = {
    call: (channel: string, args: Record<string, unknown>) =>
      Promise.resolve(answer(channel, args)),
    attempt: (channel: string, args: Record<string, unknown>) =>
      Promise.resolve({ ok: true, value: answer(channel, args) }),
    on: () => () => undefined,
  } as unknown as Client
  const shown: string[] = []
  const navigation = new Navigation(client, (view) => void shown.push(view))
  const notifications = new NotificationCenter(client, false, page)
  notifications.attach(navigation)
  drawn = () => navigation.profileShown()
  return { notifications, navigation, log, shown, draw: () => drawn() }
}

const flagged: PostedNotification = {
  id: 'n1',
  kind: 'resultFlagged',
  at: '2026-11-29T01:00:00.000Z',
  count: 1,
  title: '[상점 B] 가품 1건',
  body: '샤넬 클래식 플랩',
  details: true,
  records: [{ resource: 'inspections', idx: 9 }],
  account: { id: 'p-b', name: '상점 B' },
}

describe('a notification about another account', () => {
  it('switches to that account, waits for the desk to show it, then opens the record', async () => {
    const { notifications, navigation, log, shown, draw } = center('sandbox')
    const opening = notifications.open(flagged)
    await expect.poll(() => log).toEqual(['app.info', 'profiles.select p-b'])
    // Nothing is opened on the old account's screens.
    expect(shown).toEqual([])
    draw()
    await opening
    expect(log).toEqual(['app.info', 'profiles.select p-b', 'records.locate'])
    expect(shown).toEqual(['inspections'])
    expect(navigation.takeList('inspections')).toMatchObject({ jump: 'notification', reveal: 9 })
  })

  it('opens the record at once when that account is already the active one', async () => {
    const { notifications, log, shown } = center('p-b')
    await notifications.open(flagged)
    expect(log).toEqual(['app.info', 'records.locate'])
    expect(shown).toEqual(['inspections'])
  })

  it('does not ask which account is active for a notification of the active account', async () => {
    const { notifications, log } = center('sandbox')
    const { account: _account, ...own } = flagged
    await notifications.open(own)
    expect(log).toEqual(['records.locate'])
  })
})
