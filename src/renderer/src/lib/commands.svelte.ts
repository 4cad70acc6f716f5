import { untrack } from 'svelte'
import type { CommandId } from '../../../shared/commands'

/**
 * Runs the registry's commands (`src/shared/commands.ts`) in the renderer.
 * Screens and components register a handler while they are shown; a key
 * press (App's one dispatcher), a menu click (`command.run`) and the palette
 * all run a command through {@link runCommand}. The most recently registered
 * handler of a command wins, so a screen shown later overrides one below it.
 */

/** Returns false when it did not apply (the key then goes on as usual). */
type CommandHandler = () => boolean | void

/** Not reactive itself: `version` tells readers that it changed. */
const handlers: Partial<Record<CommandId, CommandHandler[]>> = {}
let version = $state(0)
/** Bumps the version without reading it (registering inside an `$effect` must not make it depend on it). */
const bump = (): void => untrack(() => void (version += 1))

/** Registers `handler` for `id`; returns the function that removes it. */
export function onCommand(id: CommandId, handler: CommandHandler): () => void {
  const list = (handlers[id] ??= [])
  list.push(handler)
  bump()
  return () => {
    const current = handlers[id] ?? []
    const at = current.indexOf(handler)
    if (at >= 0) current.splice(at, 1)
    bump()
  }
}

/** Registers several handlers at once (a Svelte `$effect` returns the result). */
export function onCommands(map: Partial<Record<CommandId, CommandHandler>>): () => void {
  const offs = Object.entries(map).map(([id, handler]) =>
    onCommand(id as CommandId, handler as CommandHandler),
  )
  return () => {
    for (const off of offs) off()
  }
}

/** Whether `id` can run now (a handler is registered). Reactive. */
export function canRun(id: CommandId): boolean {
  void version
  return (handlers[id]?.length ?? 0) > 0
}

/** Runs `id`; true when a handler ran and applied. */
export function runCommand(id: CommandId): boolean {
  const list = handlers[id]
  const handler = list?.[list.length - 1]
  if (!handler) return false
  return handler() !== false
}
