import type { MenuItemConstructorOptions } from 'electron'
import type { EventBus } from '../core/events'
import type { LiveStatus } from '../shared/live'
import type { PostedNotification } from '../shared/notifications'
import { message, type Locale } from '../shared/i18n'
import { unseenAfter } from '../shared/unseen-count'

/**
 * The desktop side of the live schedule (docs/live.md "Tray, badge and
 * start-up"): notifications through the OS, the unseen count on the dock or
 * taskbar, the tray's menu, closing to the tray, and the machine's sleep and
 * network fed to the schedule. Everything here decides on plain inputs and
 * is tested on fakes (tests/core/main/live-shell.test.ts); `index.ts` only
 * hands it Electron's objects.
 */

/**
 * What the shell needs of the main window.
 * @internal
 */
export interface ShellWindow {
  isDestroyed(): boolean
  isFocused(): boolean
  isMinimized(): boolean
  isVisible(): boolean
  restore(): void
  show(): void
  focus(): void
  hide(): void
  readonly webContents: { send(channel: string, payload: unknown): void }
}

/** What the shell needs of the live schedule (core's `LiveSchedule`). */
export interface ShellSchedule {
  status(): LiveStatus
  pause(minutes: number): unknown
  resume(): unknown
  pollNow(): void
  setAsleep(asleep: boolean): void
  setOnline(online: boolean): void
}

/** Options of {@link createLiveShell}. */
export interface LiveShellOptions {
  readonly events: Pick<EventBus, 'subscribe'>
  /** The main window, or null while it is closed. */
  readonly window: () => ShellWindow | null
  /** Opens the main window again (after it was closed to the tray). */
  readonly openWindow: () => void
  /** Shows one notification through the OS; `click` runs when staff click it. */
  readonly notify: (notification: PostedNotification, click: () => void) => void
  /** Puts the unseen count on the dock or taskbar (0 clears it). */
  readonly setBadge: (count: number) => void
}

/** The shell's notifications and unseen count. */
export interface LiveShell {
  /** The unseen count now. */
  readonly unseen: number
  /** Staff came back to the window: the count clears. */
  seen(): void
  /** Brings the window to the front (restored, shown, focused), opening it again if closed. */
  bringToFront(): void
  /** Stops listening. */
  close(): void
}

/**
 * Shows each `notification.posted` through the OS; a click brings the
 * window to the front and sends it `notification.open` (the window opens
 * the record or the Changes view). Notifications posted while the window is
 * not focused add to the unseen count on the badge, which clears when the
 * window is focused again ({@link LiveShell.seen}).
 */
export function createLiveShell(options: LiveShellOptions): LiveShell {
  let unseen = 0
  const setUnseen = (count: number): void => {
    if (count === unseen) return
    unseen = count
    options.setBadge(count)
  }
  const current = (): ShellWindow | null => {
    const win = options.window()
    return win && !win.isDestroyed() ? win : null
  }
  const bringToFront = (): void => {
    const win = current()
    if (!win) {
      options.openWindow()
      return
    }
    if (win.isMinimized()) win.restore()
    if (!win.isVisible()) win.show()
    win.focus()
  }
  const off = options.events.subscribe((event, payload) => {
    if (event !== 'notification.posted') return
    const notification = payload as PostedNotification
    if (!current()?.isFocused()) setUnseen(unseenAfter(unseen, notification))
    options.notify(notification, () => {
      bringToFront()
      setUnseen(0)
      current()?.webContents.send('event:notification.open', notification)
    })
  })
  return {
    get unseen() {
      return unseen
    },
    seen: () => setUnseen(0),
    bringToFront,
    close: off,
  }
}

/** What the tray's items do. */
export interface TrayActions {
  readonly open: () => void
  readonly syncNow: () => void
  readonly pauseHour: () => void
  readonly resume: () => void
  /** The orderly quit (`app.quit()`, held by `installOrderlyQuit`). */
  readonly quit: () => void
}

/**
 * The tray's menu in the app's language: Open, Sync now, Pause for an hour,
 * Resume (only while paused), Quit; and the unseen count, when there is one,
 * as a line that opens the window.
 */
export function trayMenuTemplate(run: {
  readonly locale: Locale
  readonly status: LiveStatus | null
  readonly unseen: number
  readonly actions: TrayActions
}): MenuItemConstructorOptions[] {
  const paused = run.status?.state === 'paused'
  const stopped = run.status?.state === 'stopped'
  return [
    { id: 'open', label: message(run.locale, 'tray.open'), click: run.actions.open },
    ...(run.unseen > 0
      ? [
          {
            id: 'unseen',
            label: message(run.locale, 'tray.unseen', { n: run.unseen }),
            click: run.actions.open,
          },
        ]
      : []),
    { type: 'separator' },
    { id: 'sync', label: message(run.locale, 'tray.syncNow'), click: run.actions.syncNow },
    {
      id: 'pause',
      label: message(run.locale, 'tray.pauseHour'),
      enabled: !paused && !stopped,
      click: run.actions.pauseHour,
    },
    {
      id: 'resume',
      label: message(run.locale, 'tray.resume'),
      enabled: paused,
      click: run.actions.resume,
    },
    { type: 'separator' },
    { id: 'quit', label: message(run.locale, 'tray.quit'), click: run.actions.quit },
  ]
}

/**
 * Whether closing the window hides it to the tray (the app keeps syncing)
 * or closes it: hidden when the setting says so and the app is not quitting
 * (Quit, from the tray or the menu, always quits).
 */
export function closeHides(setting: { readonly closeToTray: boolean }, quitting: boolean): boolean {
  return setting.closeToTray && !quitting
}

/** What the shell needs of Electron's `powerMonitor`. */
export interface PowerEvents {
  on(event: 'suspend' | 'resume' | 'lock-screen' | 'unlock-screen', listener: () => void): unknown
  removeListener(
    event: 'suspend' | 'resume' | 'lock-screen' | 'unlock-screen',
    listener: () => void,
  ): unknown
}

/**
 * Feeds the schedule the machine's sleep and network: asleep on `suspend`,
 * awake on `resume` (the schedule catches up at once); back at the locked
 * screen (`unlock-screen`), a poll at once, so staff find the desk current;
 * `isOnline()` read every `everyMs` and each change passed on. Returns the
 * cleanup.
 */
export function feedSchedule(run: {
  readonly power: PowerEvents
  readonly isOnline: () => boolean
  readonly schedule: () => ShellSchedule | null
  readonly every: (ms: number, tick: () => void) => () => void
  readonly everyMs?: number
}): () => void {
  const suspend = (): void => run.schedule()?.setAsleep(true)
  const resume = (): void => run.schedule()?.setAsleep(false)
  const unlock = (): void => run.schedule()?.pollNow()
  run.power.on('suspend', suspend)
  run.power.on('resume', resume)
  run.power.on('unlock-screen', unlock)
  let online = run.isOnline()
  if (!online) run.schedule()?.setOnline(false)
  const stop = run.every(run.everyMs ?? 10_000, () => {
    const now = run.isOnline()
    if (now === online) return
    online = now
    run.schedule()?.setOnline(now)
  })
  return () => {
    stop()
    run.power.removeListener('suspend', suspend)
    run.power.removeListener('resume', resume)
    run.power.removeListener('unlock-screen', unlock)
  }
}

/** An RGBA colour. */
type Rgba = readonly [number, number, number, number]

/** The logo's gold, and the count's red. */
const ICON_GOLD: Rgba = [0xc8, 0x93, 0x3a, 0xff]
const DOT_RED: Rgba = [0xd9, 0x3a, 0x2b, 0xff]

/**
 * Pixels (BGRA, as `nativeImage.createFromBitmap` takes them) of the tray's
 * icon, `size` pixels square: a rounded square in the logo's gold, with a red
 * dot in its corner when there are unseen notifications; `dotOnly` draws the
 * dot alone (the taskbar's overlay on Windows). Drawn, not shipped, so the
 * packaged app needs no extra file.
 */
export function iconBitmap(size: number, options: { dot: boolean; dotOnly?: boolean }): Buffer {
  const pixels = Buffer.alloc(size * size * 4)
  const radius = size * 0.22
  const dotRadius = options.dotOnly ? size / 2 : size * 0.24
  const dotCentre = options.dotOnly ? size / 2 : size - dotRadius
  const put = (x: number, y: number, [r, g, b, a]: Rgba): void => {
    const at = (y * size + x) * 4
    pixels[at] = b
    pixels[at + 1] = g
    pixels[at + 2] = r
    pixels[at + 3] = a
  }
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const cx = x + 0.5
      const cy = y + 0.5
      const inDot =
        (options.dot || options.dotOnly === true) &&
        (cx - dotCentre) ** 2 + (cy - (options.dotOnly ? dotCentre : dotRadius)) ** 2 <=
          dotRadius ** 2
      if (inDot) {
        put(x, y, DOT_RED)
        continue
      }
      if (options.dotOnly) continue
      // Inside the rounded square: the distance to the nearest corner's centre.
      const dx = Math.max(radius - cx, 0, cx - (size - radius))
      const dy = Math.max(radius - cy, 0, cy - (size - radius))
      if (dx * dx + dy * dy <= radius * radius) put(x, y, ICON_GOLD)
    }
  }
  return pixels
}
