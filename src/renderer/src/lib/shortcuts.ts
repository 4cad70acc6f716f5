/** What a key does on a list screen. */
export type ShortcutAction =
  | 'next'
  | 'previous'
  | 'nextCard'
  | 'previousCard'
  | 'open'
  | 'close'
  | 'search'
  | 'markReviewed'
  | 'markFollowUp'
  | 'editNote'
  | 'copyId'
  | 'help'

/** The shortcuts as the help overlay lists them: keys shown, and the action. */
export const SHORTCUTS: ReadonlyArray<{
  readonly keys: readonly string[]
  readonly action: ShortcutAction
}> = [
  { keys: ['↓', 'J'], action: 'next' },
  { keys: ['↑', 'K'], action: 'previous' },
  { keys: ['→'], action: 'nextCard' },
  { keys: ['←'], action: 'previousCard' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['Esc'], action: 'close' },
  { keys: ['/'], action: 'search' },
  { keys: ['R'], action: 'markReviewed' },
  { keys: ['F'], action: 'markFollowUp' },
  { keys: ['N'], action: 'editNote' },
  { keys: ['C'], action: 'copyId' },
  { keys: ['?'], action: 'help' },
]

const BY_KEY: Readonly<Record<string, ShortcutAction>> = {
  ArrowDown: 'next',
  j: 'next',
  ArrowUp: 'previous',
  k: 'previous',
  ArrowRight: 'nextCard',
  ArrowLeft: 'previousCard',
  Enter: 'open',
  Escape: 'close',
  '/': 'search',
  r: 'markReviewed',
  f: 'markFollowUp',
  n: 'editNote',
  c: 'copyId',
  '?': 'help',
}

/** Letter keys by physical key, so they work while the Korean layout is active (j types ㅓ). */
const BY_CODE: Readonly<Record<string, ShortcutAction>> = {
  KeyJ: 'next',
  KeyK: 'previous',
  KeyR: 'markReviewed',
  KeyF: 'markFollowUp',
  KeyN: 'editNote',
  KeyC: 'copyId',
}

/** The part of a keyboard event the map reads (a real `KeyboardEvent` fits). */
export interface KeyLike {
  readonly key: string
  readonly code?: string
  readonly keyCode?: number
  readonly isComposing?: boolean
  readonly ctrlKey?: boolean
  readonly metaKey?: boolean
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

/**
 * The action of a key press on a list screen, or null. Nothing fires while an
 * IME composition is open (`isComposing`, or Chromium's keyCode 229), with
 * Ctrl/⌘/Alt held (those belong to the system), while typing in a field, or
 * for Enter on a button or link (which activate themselves).
 */
export function shortcutFor(event: KeyLike): ShortcutAction | null {
  if (event.isComposing || event.keyCode === 229) return null
  if (event.ctrlKey || event.metaKey || event.altKey) return null
  if (isTypingTarget(event.target)) return null
  const action =
    BY_KEY[event.key] ??
    (/^[a-z]$/i.test(event.key) ? BY_KEY[event.key.toLowerCase()] : undefined) ??
    (event.key.length === 1 && !/^[\x20-\x7e]$/.test(event.key) && event.code
      ? BY_CODE[event.code]
      : undefined)
  if (!action) return null
  if (action === 'open' && (event.target as Element | null)?.closest?.('button, a[href], summary'))
    return null
  return action
}
