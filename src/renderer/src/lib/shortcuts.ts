import {
  COMMANDS,
  FIELD_CONTEXTS,
  type CommandContext,
  type CommandId,
  type CommandSpec,
  type KeyBinding,
} from '../../../shared/commands'

/** The part of a keyboard event the map reads (a real `KeyboardEvent` fits). */
export interface KeyLike {
  readonly key: string
  readonly code?: string
  readonly keyCode?: number
  readonly isComposing?: boolean
  readonly ctrlKey?: boolean
  readonly metaKey?: boolean
  readonly shiftKey?: boolean
  readonly altKey?: boolean
  readonly target?: EventTarget | null
}

/** True for a field the user types into (where letters and Enter belong to the field). */
function isTypingTarget(target: EventTarget | null | undefined): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false
  const element = target as HTMLElement
  if (element.isContentEditable) return true
  return (
    element.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])') !==
    null
  )
}

function matches(binding: KeyBinding, event: KeyLike): boolean {
  const modHeld = event.ctrlKey === true || event.metaKey === true
  if (Boolean(binding.mod) !== modHeld) return false
  // Shift matters for letters and named keys (Shift+J extends a selection, J moves); a symbol
  // such as ? or + takes Shift on some layouts and not on others, so there it is ignored.
  const shiftMatters = binding.key.length > 1 || /^[a-z]$/.test(binding.key)
  if (shiftMatters && Boolean(binding.shift) !== (event.shiftKey === true)) return false
  if (event.key === binding.key) return true
  if (/^[a-z]$/.test(binding.key) && event.key.toLowerCase() === binding.key) return true
  // A letter typed with another layout (the Korean one: j types ㅓ) matches by physical key.
  return (
    binding.code !== undefined &&
    event.code === binding.code &&
    event.key.length === 1 &&
    !/^[\x20-\x7e]$/.test(event.key)
  )
}

/**
 * The command a key press runs among the commands of `contexts`, or null.
 * Nothing fires while an IME composition is open (`isComposing`, or
 * Chromium's keyCode 229) or with Alt held. Without Ctrl/⌘ nothing fires
 * while typing in a field, nor Enter on a button or link (they activate
 * themselves); keys of a field's own context (`FIELD_CONTEXTS`) do fire there.
 */
export function commandFor(event: KeyLike, contexts: readonly CommandContext[]): CommandId | null {
  if (event.isComposing || event.keyCode === 229) return null
  if (event.altKey) return null
  const modHeld = event.ctrlKey === true || event.metaKey === true
  const typing = isTypingTarget(event.target)
  for (const command of COMMANDS as readonly CommandSpec[]) {
    if (!contexts.includes(command.context)) continue
    if (typing && !modHeld && !FIELD_CONTEXTS.includes(command.context)) continue
    // Ctrl/⌘+Z in a field is the field's own undo of typing, not the review undo.
    if (typing && command.id === 'reviews.undo') continue
    // Ctrl/⌘+A in a field selects its text, not the list's rows: list keys never fire while typing.
    if (typing && command.context === 'list') continue
    if (!command.keys.some((binding) => matches(binding, event))) continue
    if (
      command.id === 'list.open' &&
      (event.target as Element | null)?.closest?.('button, a[href], summary')
    )
      return null
    return command.id as CommandId
  }
  return null
}

/** Whether the keyboard has ⌘ rather than Ctrl (macOS). */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(globalThis.navigator?.userAgent ?? '')
}
