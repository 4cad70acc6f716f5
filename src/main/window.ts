import { BrowserWindow } from 'electron'
import type { EventBus } from '../core/events'

/** Creates the main window with the architecture's secure defaults. */
export function createMainWindow(options: {
  preload: string
  /** A packaged app has no DevTools (`app.isPackaged`). */
  packaged: boolean
  load: (win: BrowserWindow) => Promise<void>
  events: EventBus
}): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
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
      devTools: !options.packaged,
    },
  })
  const unsubscribe = options.events.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(`event:${event}`, payload)
  })
  win.on('closed', unsubscribe)
  win.once('ready-to-show', () => win.show())
  void options.load(win)
  return win
}
