import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  COMMANDS,
  FIELD_CONTEXTS,
  type CommandContext,
  type CommandSpec,
} from '../../../src/shared/commands'
import { message } from '../../../src/shared/i18n'

describe('the command registry', () => {
  const commands = COMMANDS as readonly CommandSpec[]
  const contexts = [...new Set(commands.map((command) => command.context))]

  it('gives no two commands the same key in one context (global keys count in every context)', () => {
    // Shift is part of a chord (Shift+J extends a selection where J moves).
    const prefix = (binding: CommandSpec['keys'][number]) =>
      `${binding.mod ? 'mod+' : ''}${binding.shift ? 'shift+' : ''}`
    const chord = (binding: CommandSpec['keys'][number]) =>
      `${prefix(binding)}${binding.key.toLowerCase()}`
    for (const context of contexts) {
      const active: CommandContext[] = context === 'global' ? ['global'] : ['global', context]
      // A field's own keys fire while typing, where global keys without Ctrl/⌘ do not.
      const inField = FIELD_CONTEXTS.includes(context)
      const seen = new Map<string, string>()
      for (const command of commands.filter((c) => active.includes(c.context))) {
        for (const binding of command.keys) {
          if (inField && command.context === 'global' && !binding.mod) continue
          const id = chord(binding)
          expect(seen.get(id), `${context}: ${id}`).toBeUndefined()
          seen.set(id, command.id)
          if (binding.code) {
            const byCode = `${prefix(binding)}${binding.code}`
            expect(seen.get(byCode), `${context}: ${byCode}`).toBeUndefined()
            seen.set(byCode, command.id)
          }
        }
      }
    }
  })

  it('has unique ids and a label in both languages for every command', () => {
    expect(new Set(commands.map((command) => command.id)).size).toBe(commands.length)
    for (const command of commands) {
      for (const locale of ['ko', 'en'] as const) {
        expect(message(locale, command.label), `${locale} ${command.id}`).toBeTruthy()
      }
    }
    for (const context of contexts) {
      expect(message('ko', `keys.context.${context}`)).toBeTruthy()
    }
  })

  it('is the only place a key is read: no renderer file looks at event.key or event.code', () => {
    const root = join(import.meta.dirname, '../../../src/renderer/src')
    const offenders: string[] = []
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (/\.(svelte|ts)$/.test(entry.name) && !path.endsWith(join('lib', 'shortcuts.ts'))) {
          const text = readFileSync(path, 'utf8')
          if (/\b(event|e|ev)\.(key|code|keyCode)\b/.test(text)) offenders.push(path)
          // Every key handler asks the registry.
          if (/onkeydown/.test(text) && !/commandFor\(/.test(text)) offenders.push(path)
        }
      }
    }
    walk(root)
    expect(offenders).toEqual([])
  })
})
