import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { EventBus } from '../../../src/core/events'
import {
  closeHides,
  createLiveShell,
  feedSchedule,
  iconBitmap,
  trayMenuTemplate,
  type ShellSchedule,
  type ShellWindow,
  type TrayActions,
} from '../../../src/main/live-shell'
import type { LiveStatus } from '../../../src/shared/live'
import type { PostedNotification } from '../../../src/shared/notifications'

/** A window the test focuses, minimizes and closes; it records what the shell did. */
class FakeWindow implements ShellWindow {
  focused = true
  minimized = false
  visible = true
  destroyed = false
  readonly calls: string[] = []
  readonly sent: [string, unknown][] = []
  readonly webContents = {
    send: (channel: string, payload: unknown) => this.sent.push([channel, payload]),
  }
  isDestroyed = () => this.destroyed
  isFocused = () => this.focused
  isMinimized = () => this.minimized
  isVisible = () => this.visible
  restore = () => {
    this.calls.push('restore')
    this.minimized = false
  }
  show = () => {
    this.calls.push('show')
    this.visible = true
  }
  focus = () => {
    this.calls.push('focus')
    this.focused = true
  }
  hide = () => {
    this.calls.push('hide')
    this.visible = false
  }
}

function posted(count: number, records = count): PostedNotification {
  return {
    id: `n${Math.random()}`,
    kind: 'resultFlagged',
    at: '2026-11-28T03:00:00Z',
    count,
    title: `가품 ${count}건`,
    body: '샤넬 클래식 플랩',
    details: true,
    records: Array.from({ length: records }, (_, k) => ({
      resource: 'inspections' as const,
      idx: k + 1,
    })),
  }
}

function setup() {
  const events = new EventBus()
  const win = new FakeWindow()
  let shown: FakeWindow | null = win
  const badges: number[] = []
  const notes: { notification: PostedNotification; click: () => void }[] = []
  let reopened = 0
  const shell = createLiveShell({
    events,
    window: () => shown,
    openWindow: () => {
      reopened += 1
      shown = win
    },
    notify: (notification, click) => notes.push({ notification, click }),
    setBadge: (count) => badges.push(count),
  })
  return {
    events,
    win,
    shell,
    badges,
    notes,
    close: () => (shown = null),
    reopened: () => reopened,
  }
}

describe('the desktop shell on the live schedule', () => {
  it('shows every notification; only those posted while the window is not focused count on the badge', () => {
    const s = setup()
    s.events.emit('notification.posted', posted(2))
    expect(s.notes).toHaveLength(1)
    expect(s.badges).toEqual([])
    s.win.focused = false
    s.events.emit('notification.posted', posted(3))
    // The sync's health is about no record: it counts one.
    s.events.emit('notification.posted', { ...posted(0), kind: 'syncFailing' })
    expect(s.shell.unseen).toBe(4)
    expect(s.badges).toEqual([3, 4])
    s.shell.seen()
    expect(s.badges).toEqual([3, 4, 0])
    s.events.emit('data.changed', { resource: 'inspections' })
    expect(s.notes).toHaveLength(3)
  })

  it('a click restores, shows and focuses the window, clears the badge and sends notification.open', () => {
    const s = setup()
    s.win.focused = false
    s.win.minimized = true
    s.win.visible = false
    const note = posted(1)
    s.events.emit('notification.posted', note)
    s.notes[0]?.click()
    expect(s.win.calls).toEqual(['restore', 'show', 'focus'])
    expect(s.badges).toEqual([1, 0])
    expect(s.win.sent).toEqual([['event:notification.open', note]])
    // A window already shown is only focused.
    s.events.emit('notification.posted', posted(1))
    s.notes[1]?.click()
    expect(s.win.calls).toEqual(['restore', 'show', 'focus', 'focus'])
  })

  it('a click with the window closed to nothing opens it again', () => {
    const s = setup()
    s.close()
    s.events.emit('notification.posted', posted(1))
    s.notes[0]?.click()
    expect(s.reopened()).toBe(1)
    expect(s.win.sent).toHaveLength(1)
  })

  it('stops listening on close', () => {
    const s = setup()
    s.shell.close()
    s.events.emit('notification.posted', posted(1))
    expect(s.notes).toHaveLength(0)
  })
})

function status(state: LiveStatus['state']): LiveStatus {
  return {
    state,
    intervalMinutes: 2,
    nextPollAt: null,
    pausedUntil: null,
    backoffUntil: null,
    failingSince: null,
    step: null,
    lastOutcome: null,
  }
}

describe('the tray', () => {
  const clicked: string[] = []
  const actions: TrayActions = {
    open: () => clicked.push('open'),
    syncNow: () => clicked.push('sync'),
    pauseHour: () => clicked.push('pause'),
    resume: () => clicked.push('resume'),
    quit: () => clicked.push('quit'),
  }

  it('offers Open, Sync now, Pause for an hour, Resume and Quit, in the app language', () => {
    const items = trayMenuTemplate({ locale: 'ko', status: status('running'), unseen: 0, actions })
    const named = items.filter((item) => item.type !== 'separator')
    expect(named.map((item) => item.label)).toEqual([
      '열기',
      '지금 동기화',
      '1시간 동안 일시 중지',
      '다시 시작',
      '종료',
    ])
    expect(named.map((item) => item.enabled ?? true)).toEqual([true, true, true, false, true])
    for (const item of named) item.click?.({} as never, undefined, {} as never)
    expect(clicked).toEqual(['open', 'sync', 'pause', 'resume', 'quit'])
    const english = trayMenuTemplate({ locale: 'en', status: null, unseen: 3, actions })
    expect(english.filter((item) => item.type !== 'separator').map((item) => item.label)).toEqual([
      'Open',
      '3 unseen notifications',
      'Sync now',
      'Pause for an hour',
      'Resume',
      'Quit',
    ])
  })

  it('offers Resume only while paused, and no pause while a credential error stopped syncing', () => {
    const paused = trayMenuTemplate({ locale: 'en', status: status('paused'), unseen: 0, actions })
    expect(paused.find((item) => item.id === 'resume')?.enabled).toBe(true)
    expect(paused.find((item) => item.id === 'pause')?.enabled).toBe(false)
    const stopped = trayMenuTemplate({
      locale: 'en',
      status: status('stopped'),
      unseen: 0,
      actions,
    })
    expect(stopped.find((item) => item.id === 'pause')?.enabled).toBe(false)
  })

  it('closing the window hides it to the tray when set so, unless the app is quitting', () => {
    expect(closeHides({ closeToTray: true }, false)).toBe(true)
    expect(closeHides({ closeToTray: true }, true)).toBe(false)
    expect(closeHides({ closeToTray: false }, false)).toBe(false)
  })

  it('draws its icon, with the count dot when something is unseen', () => {
    const plain = iconBitmap(16, { dot: false })
    const dotted = iconBitmap(16, { dot: true })
    expect(plain).toHaveLength(16 * 16 * 4)
    // The top-right pixel area is red only with the dot (BGRA: red in the third byte).
    const at = (bitmap: Buffer, x: number, y: number) => [
      ...bitmap.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4),
    ]
    expect(at(dotted, 12, 3)).toEqual([0x2b, 0x3a, 0xd9, 0xff])
    expect(at(plain, 12, 3)).not.toEqual([0x2b, 0x3a, 0xd9, 0xff])
    // Corners outside the rounded square stay clear.
    expect(at(plain, 0, 0)).toEqual([0, 0, 0, 0])
    const overlay = iconBitmap(16, { dot: true, dotOnly: true })
    expect(at(overlay, 8, 8)).toEqual([0x2b, 0x3a, 0xd9, 0xff])
    expect(at(overlay, 0, 0)).toEqual([0, 0, 0, 0])
  })
})

describe('sleep and the network feed the schedule', () => {
  function fakeSchedule() {
    const calls: string[] = []
    const schedule: ShellSchedule = {
      status: () => status('running'),
      pause: () => calls.push('pause'),
      resume: () => calls.push('resume'),
      pollNow: () => calls.push('pollNow'),
      setAsleep: (asleep) => calls.push(`asleep:${asleep}`),
      setOnline: (online) => calls.push(`online:${online}`),
    }
    return { schedule, calls }
  }

  it('suspend and resume, unlock, and each change of isOnline reach the schedule', () => {
    const power = new EventEmitter()
    const { schedule, calls } = fakeSchedule()
    let online = true
    let tick: () => void = () => undefined
    const stop = feedSchedule({
      power: power as never,
      isOnline: () => online,
      schedule: () => schedule,
      every: (_ms, run) => {
        tick = run
        return () => (tick = () => undefined)
      },
    })
    power.emit('suspend')
    power.emit('resume')
    power.emit('unlock-screen')
    tick()
    online = false
    tick()
    tick()
    online = true
    tick()
    expect(calls).toEqual(['asleep:true', 'asleep:false', 'pollNow', 'online:false', 'online:true'])
    stop()
    power.emit('suspend')
    online = false
    tick()
    expect(calls).toHaveLength(5)
    expect(power.listenerCount('suspend')).toBe(0)
  })

  it('starting offline tells the schedule at once', () => {
    const { schedule, calls } = fakeSchedule()
    feedSchedule({
      power: new EventEmitter() as never,
      isOnline: () => false,
      schedule: () => schedule,
      every: () => () => undefined,
    })
    expect(calls).toEqual(['online:false'])
  })
})
