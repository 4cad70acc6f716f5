import type { MenuItemConstructorOptions } from 'electron'

/**
 * The application menu: the platform's usual roles. Electron's default menu
 * has View › Toggle Developer Tools, which on the wallet window would show
 * the address with the key; a packaged app's menu has no DevTools, reload or
 * force-reload item (and its windows set `devTools: false` too).
 */
export function applicationMenuTemplate(run: {
  readonly platform: NodeJS.Platform
  readonly packaged: boolean
}): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    ...(run.packaged
      ? []
      : ([
          { role: 'reload' },
          { role: 'forceReload' },
          { role: 'toggleDevTools' },
          { type: 'separator' },
        ] satisfies MenuItemConstructorOptions[])),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  return [
    ...(run.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ]
}
