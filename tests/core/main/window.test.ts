import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { EventBus } from '../../../src/core/events'
import { applicationMenuTemplate } from '../../../src/main/menu'

/**
 * The main window's options and the application menu, with `electron`
 * replaced by a fake BrowserWindow that records its options (no Electron
 * binary runs here).
 */
const created: BrowserWindowConstructorOptions[] = []
const closeListeners: (() => void)[] = []
const maximized: boolean[] = []
vi.mock('electron', () => ({
  BrowserWindow: class {
    readonly webContents = { send: () => undefined }
    constructor(options: BrowserWindowConstructorOptions) {
      created.push(options)
    }
    on(event: string, listener: () => void): void {
      if (event === 'close') closeListeners.push(listener)
    }
    maximize(): void {
      maximized.push(true)
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1300, height: 900 }
    }
    isMaximized(): boolean {
      return maximized.length > 0
    }
    once(): void {}
    isDestroyed(): boolean {
      return false
    }
  },
}))

async function windowOptions(packaged: boolean): Promise<BrowserWindowConstructorOptions> {
  const { createMainWindow } = await import('../../../src/main/window')
  createMainWindow({
    preload: '/app/preload.cjs',
    packaged,
    events: new EventBus(),
    load: () => Promise.resolve(),
    placement: { width: 1280, height: 820, maximized: false },
    remember: () => undefined,
  })
  const options = created.at(-1)
  if (!options) throw new Error('no window')
  return options
}

/** Every role in a menu template, submenus included. */
function roles(items: readonly MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ])
}

describe('main window and menu', () => {
  it('are off in a packaged app’s window and on in development', async () => {
    expect((await windowOptions(true)).webPreferences).toMatchObject({
      devTools: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    })
    expect((await windowOptions(false)).webPreferences?.devTools).toBe(true)
  })

  it('leaves insecure content, experimental and Blink features off (Electron’s defaults)', async () => {
    const preferences = (await windowOptions(true)).webPreferences ?? {}
    for (const option of [
      'allowRunningInsecureContent',
      'experimentalFeatures',
      'enableBlinkFeatures',
      'nodeIntegrationInWorker',
      'nodeIntegrationInSubFrames',
    ] as const) {
      expect(preferences[option], option).toBeUndefined()
    }
  })

  it('have no menu item in a packaged app (nor reload), on every platform', () => {
    const menu = (platform: NodeJS.Platform, packaged: boolean) =>
      applicationMenuTemplate({
        platform,
        packaged,
        locale: 'ko',
        actions: { sendToRenderer: () => undefined, runInMain: () => undefined },
      })
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const packaged = roles(menu(platform, true))
      expect(packaged).not.toContain('toggleDevTools')
      expect(packaged).not.toContain('reload')
      expect(packaged).not.toContain('forceReload')
      // The View role brings its own DevTools item, so the menu must not use it.
      expect(packaged).not.toContain('viewMenu')
      expect(packaged).toContain('copy')
    }
    expect(roles(menu('linux', false))).toContain('toggleDevTools')
    expect(roles(menu('darwin', true))[0]).toBe('about')
  })
})

describe('the window’s place', () => {
  it('opens where it is told, maximised when it was, and remembers its place on close', async () => {
    const { createMainWindow } = await import('../../../src/main/window')
    const remembered: unknown[] = []
    createMainWindow({
      preload: '/app/preload.cjs',
      packaged: true,
      events: new EventBus(),
      load: () => Promise.resolve(),
      placement: { x: 1600, y: 40, width: 1500, height: 1000, maximized: true },
      remember: (state) => remembered.push(state),
    })
    expect(created.at(-1)).toMatchObject({ x: 1600, y: 40, width: 1500, height: 1000 })
    expect(maximized).toEqual([true])
    for (const listener of closeListeners) listener()
    expect(remembered).toEqual([{ x: 10, y: 20, width: 1300, height: 900, maximized: true }])
  })
})
