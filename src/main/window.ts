import { BrowserWindow } from 'electron'
import type { EventBus } from '../core/events'
import { WINDOW_SIZE, type WindowPlacement, type WindowState } from './window-state'

/** Creates the main window with the architecture's secure defaults. */
export function createMainWindow(options: {
  preload: string
  /** A packaged app has no DevTools (`app.isPackaged`). */
  packaged: boolean
  load: (win: BrowserWindow) => Promise<void>
  events: EventBus
  /** Where and how large to open (`chooseWindowPlacement`). */
  placement: WindowPlacement
  /** Called as the window closes with its normal (unmaximised) bounds and whether it is maximised. */
  remember: (state: WindowState) => void
}): BrowserWindow {
  const { placement } = options
  const win = new BrowserWindow({
    ...(placement.x !== undefined && placement.y !== undefined
      ? { x: placement.x, y: placement.y }
      : {}),
    width: placement.width,
    height: placement.height,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: 'Appraisal Desk',
    backgroundColor: '#f5f4f0',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      webviewTag: false,
      // Middle-click opens no window (every window.open is refused as well, security.ts).
      disableBlinkFeatures: 'Auxclick',
      devTools: !options.packaged,
    },
  })
  const unsubscribe = options.events.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(`event:${event}`, payload)
  })
  if (placement.maximized) win.maximize()
  win.on('close', () =>
    options.remember({ ...win.getNormalBounds(), maximized: win.isMaximized() }),
  )
  win.on('closed', unsubscribe)
  win.once('ready-to-show', () => win.show())
  void options.load(win)
  return win
}
