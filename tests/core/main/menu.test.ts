import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import * as menuModule from '../../../src/main/menu'
import { applicationMenuTemplate } from '../../../src/main/menu'
import { COMMANDS, type CommandId } from '../../../src/shared/commands'
import { message } from '../../../src/shared/i18n'

/** The application menu built from the command registry, with recording actions. */
function build(platform: NodeJS.Platform, locale: 'ko' | 'en' = 'ko') {
  const sent: CommandId[] = []
  const ran: CommandId[] = []
  const menu = applicationMenuTemplate({
    platform,
    packaged: true,
    locale,
    actions: { sendToRenderer: (id) => sent.push(id), runInMain: (id) => ran.push(id) },
  })
  return { menu, sent, ran }
}

function items(menu: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
}

function click(item: MenuItemConstructorOptions): void {
  ;(item.click as () => void)()
}

describe('the application menu', () => {
  it('lists every menu command of the registry once, labelled in the app’s language', () => {
    for (const locale of ['ko', 'en'] as const) {
      const all = items(build('linux', locale).menu)
      for (const command of COMMANDS.filter((c) => 'menu' in c)) {
        const found = all.filter((item) => item.id === command.id)
        expect(found, command.id).toHaveLength(1)
        expect(found[0]?.label).toBe(message(locale, command.label))
      }
    }
    const top = build('linux', 'en').menu.map((item) => item.label)
    expect(top).toEqual(['File', 'Edit', 'View', 'Go', 'Window', 'Help'])
    expect(build('linux', 'ko').menu.map((item) => item.label)).toContain('도움말')
  })

  it('sends renderer commands as command.run and runs main ones in main', () => {
    const { menu, sent, ran } = build('win32')
    const all = items(menu)
    click(all.find((item) => item.id === 'go.guarantees') as MenuItemConstructorOptions)
    click(all.find((item) => item.id === 'app.openLog') as MenuItemConstructorOptions)
    expect(sent).toEqual(['go.guarantees'])
    expect(ran).toEqual(['app.openLog'])
  })

  it('shows Ctrl/⌘ accelerators without registering them (the renderer runs the keys)', () => {
    const palette = items(build('linux').menu).find((item) => item.id === 'palette.open')
    expect(palette).toMatchObject({ accelerator: 'CmdOrCtrl+K', registerAccelerator: false })
    for (const item of items(build('linux').menu)) {
      if (item.accelerator) expect(item.registerAccelerator, String(item.id)).toBe(false)
    }
  })

  it('puts About in the macOS app menu, in Help elsewhere', () => {
    const mac = build('darwin', 'en').menu
    expect(mac[0]?.label).toBe('Appraisal Desk')
    expect(items([mac[0] as MenuItemConstructorOptions]).some((i) => i.role === 'about')).toBe(true)
    const help = build('linux', 'en').menu.at(-1) as MenuItemConstructorOptions
    expect(items([help]).some((item) => item.id === 'app.about')).toBe(true)
  })
})

describe('the menu’s language', () => {
  it('is built at once and again only when the language changed', () => {
    const { createMenuLanguageWatch } = menuModule
    let locale: 'ko' | 'en' = 'ko'
    const builds: string[] = []
    const watch = createMenuLanguageWatch({ locale: () => locale, build: (l) => builds.push(l) })
    watch.refresh()
    expect(builds).toEqual(['ko'])
    locale = 'en'
    watch.refresh()
    watch.refresh()
    expect(builds).toEqual(['ko', 'en'])
  })
})
