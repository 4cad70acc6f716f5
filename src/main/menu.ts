import type { MenuItemConstructorOptions } from 'electron'
import {
  COMMANDS,
  acceleratorOf,
  type CommandId,
  type CommandSpec,
  type MenuPlace,
} from '../shared/commands'
import { message, type Locale, type MessageKey } from '../shared/i18n'

/** What a menu item of the registry does when clicked. */
interface MenuActions {
  /** A renderer command: main sends `command.run` to the focused window. */
  readonly sendToRenderer: (id: CommandId) => void
  /** A command main runs itself (log file, updates, about). */
  readonly runInMain: (id: CommandId) => void
}

/**
 * The application menu: the platform's usual roles (app, edit, view,
 * window, help) with the registry's commands (src/shared/commands.ts), all
 * labelled in the app's language; main builds it again when the language
 * changes. Electron's default menu has View › Toggle Developer Tools, which
 * on the wallet window would show the address with the key; a packaged
 * app's menu has no DevTools, reload or force-reload item (and its windows
 * set `devTools: false` too).
 *
 * Accelerators are shown but not registered (`registerAccelerator: false`):
 * the renderer's key dispatcher runs the same keys, so a key runs its
 * command once, in the desktop window and in a browser alike.
 */
export function applicationMenuTemplate(run: {
  readonly platform: NodeJS.Platform
  readonly packaged: boolean
  readonly locale: Locale
  readonly actions: MenuActions
}): MenuItemConstructorOptions[] {
  const text = (key: MessageKey): string => message(run.locale, key)
  const role = (
    name: NonNullable<MenuItemConstructorOptions['role']>,
    key: MessageKey,
  ): MenuItemConstructorOptions => ({ role: name, label: text(key) })
  const commands = (place: MenuPlace): MenuItemConstructorOptions[] =>
    (COMMANDS as readonly CommandSpec[])
      .filter((command) => command.menu === place)
      .map((command) => {
        const accelerator = acceleratorOf(command)
        const id = command.id as CommandId
        return {
          id,
          label: text(command.label),
          ...(accelerator ? { accelerator, registerAccelerator: false } : {}),
          click: () =>
            command.runner === 'main' ? run.actions.runInMain(id) : run.actions.sendToRenderer(id),
        }
      })
  const mac = run.platform === 'darwin'
  const separator: MenuItemConstructorOptions = { type: 'separator' }

  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: 'Appraisal Desk',
          submenu: [
            role('about', 'cmd.about'),
            separator,
            role('services', 'menu.services'),
            separator,
            role('hide', 'menu.hide'),
            role('hideOthers', 'menu.hideOthers'),
            role('unhide', 'menu.unhide'),
            separator,
            role('quit', 'menu.quit'),
          ],
        },
      ]
    : []
  const file: MenuItemConstructorOptions = {
    label: text('menu.file'),
    submenu: [
      ...commands('file'),
      separator,
      mac ? role('close', 'menu.close') : role('quit', 'menu.quit'),
    ],
  }
  const edit: MenuItemConstructorOptions = {
    label: text('menu.edit'),
    submenu: [
      role('undo', 'menu.undo'),
      role('redo', 'menu.redo'),
      separator,
      role('cut', 'menu.cut'),
      role('copy', 'menu.copy'),
      role('paste', 'menu.paste'),
      role('selectAll', 'menu.selectAll'),
    ],
  }
  const view: MenuItemConstructorOptions = {
    label: text('menu.view'),
    submenu: [
      ...commands('view'),
      separator,
      ...(run.packaged
        ? []
        : [
            role('reload', 'menu.reload'),
            role('forceReload', 'menu.forceReload'),
            role('toggleDevTools', 'menu.toggleDevTools'),
            separator,
          ]),
      role('resetZoom', 'menu.resetZoom'),
      role('zoomIn', 'menu.zoomIn'),
      role('zoomOut', 'menu.zoomOut'),
      separator,
      role('togglefullscreen', 'menu.togglefullscreen'),
    ],
  }
  const go: MenuItemConstructorOptions = { label: text('menu.go'), submenu: commands('go') }
  const windowMenu: MenuItemConstructorOptions = {
    label: text('menu.window'),
    role: 'windowMenu',
    submenu: [
      role('minimize', 'menu.minimize'),
      role('zoom', 'menu.zoom'),
      ...(mac ? [separator, role('front', 'menu.front')] : [role('close', 'menu.close')]),
    ],
  }
  const help: MenuItemConstructorOptions = {
    label: text('menu.help'),
    role: 'help',
    // The About item sits in the app menu on macOS (the platform's place for it).
    submenu: commands('help').filter((item) => !(mac && item.id === 'app.about')),
  }
  return [...appMenu, file, edit, view, go, windowMenu, help]
}

/**
 * Keeps the application menu in the app's language: `refresh` builds it
 * again when the language changed since the last build (main calls it
 * after `settings.set`), and does nothing otherwise.
 */
export function createMenuLanguageWatch(options: {
  readonly locale: () => Locale
  readonly build: (locale: Locale) => void
}): { refresh(): void } {
  let built: Locale | null = null
  const refresh = (): void => {
    const locale = options.locale()
    if (locale === built) return
    built = locale
    options.build(locale)
  }
  refresh()
  return { refresh }
}
