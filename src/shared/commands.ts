import type { MessageKey } from './i18n'

/**
 * Every command of the app, declared once. This list drives the application
 * menu (main, `src/main/menu.ts`), the keyboard (the renderer's one key
 * dispatcher, `lib/shortcuts.ts`), the `?` overlay and the command palette.
 * No other file maps a key to an action.
 */

/**
 * Where a command's keys apply. `global` keys work on every screen (and
 * with Ctrl/⌘ even while typing); `list` keys on a list screen when no
 * field has the keyboard; `queue` keys on My queue, before its list keys;
 * `menu` keys inside an open pop-up menu (the member picker); `suggest` keys
 * in the suggestions under the review note (they fire while typing there);
 * `viewer` keys inside the card viewer; `editor`
 * keys inside the review note; `palette` keys in the palette's search field;
 * `field` keys in a list's search box and date fields.
 */
export type CommandContext =
  'global' | 'list' | 'queue' | 'menu' | 'suggest' | 'viewer' | 'editor' | 'palette' | 'field'

/** Contexts whose keys are meant for a text field and fire while typing in it. */
export const FIELD_CONTEXTS: readonly CommandContext[] = ['suggest', 'editor', 'palette', 'field']

/** Who runs a command: the renderer (a menu click sends `command.run`) or main itself. */
type CommandRunner = 'renderer' | 'main'

/** The application menu a command appears in (the platform's roles fill the rest). */
export type MenuPlace = 'file' | 'view' | 'go' | 'help'

/** One key that runs a command. */
export interface KeyBinding {
  /** `KeyboardEvent.key` (a letter in lower case matches either case). */
  readonly key: string
  /** The physical key (`KeyboardEvent.code`), so letters work while the Korean layout is active. */
  readonly code?: string
  /** Ctrl on Windows and Linux, ⌘ on macOS. */
  readonly mod?: true
  /** Shift held (a letter or a named key without it never matches a press with Shift). */
  readonly shift?: true
  /** How the overlay shows it (without the modifier). */
  readonly show: string
}

/** One command. */
export interface CommandSpec {
  readonly id: string
  /** Its label in the menu, the overlay and the palette (a key of messages/*.json). */
  readonly label: MessageKey
  readonly context: CommandContext
  readonly keys: readonly KeyBinding[]
  readonly runner: CommandRunner
  /** Listed in the application menu, under this menu. */
  readonly menu?: MenuPlace
  /** Offered by the command palette (when a handler is present). */
  readonly palette?: true
  /** Listed by the `?` overlay. */
  readonly help?: true
}

const letter = (char: string): KeyBinding => ({
  key: char,
  code: `Key${char.toUpperCase()}`,
  show: char.toUpperCase(),
})
const mod = (key: string, show = key.toUpperCase()): KeyBinding => ({
  key,
  ...(/^[a-z]$/.test(key) ? { code: `Key${key.toUpperCase()}` } : {}),
  ...(/^[0-9]$/.test(key) ? { code: `Digit${key}` } : {}),
  mod: true,
  show,
})
const plain = (key: string, show = key): KeyBinding => ({ key, show })
const shifted = (binding: KeyBinding): KeyBinding => ({
  ...binding,
  shift: true,
  show: `Shift+${binding.show}`,
})

/** The screens, in the sidebar's order (the renderer's `lib/views.ts` takes them from here). */
export const SCREENS = [
  'dashboard',
  'inspections',
  'guarantees',
  'wallet',
  'changes',
  'reconcile',
  'brands',
  'rejected',
  'accounts',
  'settings',
  // Shown only with a team server (docs/team.md "My queue"); last, so Ctrl/⌘+1–9 keep their screens.
  'queue',
] as const

const goTo = (screen: (typeof SCREENS)[number], index: number) =>
  ({
    id: `go.${screen}`,
    label: `nav.${screen}`,
    context: 'global',
    // Ctrl/⌘ 1–9 for the first nine screens; Settings takes the usual Ctrl/⌘ + comma.
    keys: index < 9 ? [mod(String(index + 1))] : screen === 'settings' ? [mod(',')] : [],
    runner: 'renderer',
    menu: 'go',
    palette: true,
  }) as const satisfies CommandSpec

export const COMMANDS = [
  // Global: the palette, the overlay, the screens, actions on the screen in view.
  {
    id: 'palette.open',
    label: 'cmd.palette',
    context: 'global',
    keys: [mod('k')],
    runner: 'renderer',
    menu: 'view',
    help: true,
  },
  {
    id: 'help.shortcuts',
    label: 'keys.help',
    context: 'global',
    keys: [plain('?')],
    runner: 'renderer',
    menu: 'help',
    palette: true,
    help: true,
  },
  ...SCREENS.map(goTo),
  {
    id: 'sync.run',
    label: 'cmd.sync',
    context: 'global',
    keys: [],
    runner: 'renderer',
    menu: 'file',
    palette: true,
  },
  {
    id: 'list.export',
    label: 'list.exportXlsx',
    context: 'global',
    keys: [mod('e')],
    runner: 'renderer',
    menu: 'file',
    palette: true,
    help: true,
  },
  {
    // The app lock (docs/security.md "The app lock"); main's tray calls core directly.
    id: 'app.lock',
    label: 'cmd.lock',
    context: 'global',
    keys: [mod('l')],
    runner: 'renderer',
    menu: 'file',
    palette: true,
    help: true,
  },
  {
    id: 'reviews.undo',
    label: 'cmd.undo',
    context: 'global',
    keys: [mod('z')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    // The sidebar collapsed to its short forms, or open (remembered in the settings).
    id: 'app.toggleSidebar',
    label: 'cmd.sidebar',
    context: 'global',
    keys: [mod('b')],
    runner: 'renderer',
    menu: 'view',
    palette: true,
    help: true,
  },
  {
    id: 'app.toggleLanguage',
    label: 'cmd.language',
    context: 'global',
    keys: [],
    runner: 'renderer',
    menu: 'view',
    palette: true,
  },
  // Main: windows and files only the shell has.
  {
    id: 'app.openLog',
    label: 'cmd.openLog',
    context: 'global',
    keys: [],
    runner: 'main',
    menu: 'help',
  },
  {
    id: 'app.checkUpdates',
    label: 'cmd.checkUpdates',
    context: 'global',
    keys: [],
    runner: 'main',
    menu: 'help',
  },
  {
    id: 'app.about',
    label: 'cmd.about',
    context: 'global',
    keys: [],
    runner: 'main',
    menu: 'help',
  },
  // A list screen, no field focused.
  {
    // Before the list keys: on My queue, N opens the next record (elsewhere N writes a note).
    id: 'queue.next',
    label: 'queue.next',
    context: 'queue',
    keys: [letter('n')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    id: 'list.next',
    label: 'keys.next',
    context: 'list',
    keys: [plain('ArrowDown', '↓'), letter('j')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.previous',
    label: 'keys.previous',
    context: 'list',
    keys: [plain('ArrowUp', '↑'), letter('k')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.extendNext',
    label: 'keys.extendNext',
    context: 'list',
    keys: [shifted(letter('j')), shifted(plain('ArrowDown', '↓'))],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.extendPrevious',
    label: 'keys.extendPrevious',
    context: 'list',
    keys: [shifted(letter('k')), shifted(plain('ArrowUp', '↑'))],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.selectAll',
    label: 'keys.selectAll',
    context: 'list',
    keys: [mod('a')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    id: 'list.nextCard',
    label: 'keys.nextCard',
    context: 'list',
    keys: [plain('ArrowRight', '→')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.previousCard',
    label: 'keys.previousCard',
    context: 'list',
    keys: [plain('ArrowLeft', '←')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.open',
    label: 'keys.open',
    context: 'list',
    keys: [plain('Enter')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.close',
    label: 'keys.close',
    context: 'list',
    keys: [plain('Escape', 'Esc')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.search',
    label: 'keys.search',
    context: 'list',
    keys: [plain('/')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'list.markReviewed',
    label: 'keys.markReviewed',
    context: 'list',
    keys: [letter('r')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    id: 'list.markFollowUp',
    label: 'keys.markFollowUp',
    context: 'list',
    keys: [letter('f')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    id: 'list.editNote',
    label: 'keys.editNote',
    context: 'list',
    keys: [letter('n')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  {
    id: 'list.copyId',
    label: 'keys.copyId',
    context: 'list',
    keys: [letter('c')],
    runner: 'renderer',
    palette: true,
    help: true,
  },
  // Inside an open pop-up menu (the member picker): it keeps these keys from the list.
  {
    id: 'menu.next',
    label: 'menu.next',
    context: 'menu',
    keys: [plain('ArrowDown', '↓')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'menu.previous',
    label: 'menu.previous',
    context: 'menu',
    keys: [plain('ArrowUp', '↑')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'menu.close',
    label: 'menu.dismiss',
    context: 'menu',
    keys: [plain('Escape', 'Esc')],
    runner: 'renderer',
    help: true,
  },
  // In the suggestions under the review note (a mention's member): they fire while typing.
  {
    id: 'suggest.next',
    label: 'menu.next',
    context: 'suggest',
    keys: [plain('ArrowDown', '↓')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'suggest.previous',
    label: 'menu.previous',
    context: 'suggest',
    keys: [plain('ArrowUp', '↑')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'suggest.choose',
    label: 'suggest.choose',
    context: 'suggest',
    keys: [plain('Enter'), plain('Tab')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'suggest.close',
    label: 'suggest.close',
    context: 'suggest',
    keys: [plain('Escape', 'Esc')],
    runner: 'renderer',
    help: true,
  },
  // Inside the card viewer (a modal: it has the keyboard to itself).
  {
    id: 'viewer.next',
    label: 'cmd.viewerNext',
    context: 'viewer',
    keys: [plain('ArrowRight', '→'), plain('ArrowDown', '↓')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'viewer.previous',
    label: 'cmd.viewerPrevious',
    context: 'viewer',
    keys: [plain('ArrowLeft', '←'), plain('ArrowUp', '↑')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'viewer.zoomIn',
    label: 'cmd.zoomIn',
    context: 'viewer',
    keys: [plain('+'), plain('=')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'viewer.zoomOut',
    label: 'cmd.zoomOut',
    context: 'viewer',
    keys: [plain('-')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'viewer.zoomReset',
    label: 'cmd.zoomReset',
    context: 'viewer',
    keys: [plain('0')],
    runner: 'renderer',
    help: true,
  },
  // Inside the review note.
  {
    id: 'editor.save',
    label: 'cmd.saveNote',
    context: 'editor',
    keys: [{ key: 'Enter', mod: true, show: 'Enter' }],
    runner: 'renderer',
    help: true,
  },
  // In a list's search box or a date field.
  {
    id: 'field.submit',
    label: 'cmd.fieldSubmit',
    context: 'field',
    keys: [plain('Enter')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'field.clear',
    label: 'cmd.fieldClear',
    context: 'field',
    keys: [plain('Escape', 'Esc')],
    runner: 'renderer',
    help: true,
  },
  // Inside the command palette's field.
  {
    id: 'palette.next',
    label: 'cmd.paletteNext',
    context: 'palette',
    keys: [plain('ArrowDown', '↓')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'palette.previous',
    label: 'cmd.palettePrevious',
    context: 'palette',
    keys: [plain('ArrowUp', '↑')],
    runner: 'renderer',
    help: true,
  },
  {
    id: 'palette.run',
    label: 'cmd.paletteRun',
    context: 'palette',
    keys: [plain('Enter')],
    runner: 'renderer',
    help: true,
  },
] as const satisfies readonly CommandSpec[]

/** The id of a command. */
export type CommandId = (typeof COMMANDS)[number]['id']

const BY_ID: ReadonlyMap<string, CommandSpec> = new Map(
  (COMMANDS as readonly CommandSpec[]).map((command) => [command.id, command]),
)

/** Membership test for untrusted strings (a `command.run` payload). */
export function isCommandId(value: unknown): value is CommandId {
  return typeof value === 'string' && BY_ID.has(value)
}

/** The commands of a context, in declaration order. */
export function commandsIn(context: CommandContext): readonly CommandSpec[] {
  return (COMMANDS as readonly CommandSpec[]).filter((command) => command.context === context)
}

/**
 * The menu accelerator of a command (Electron's syntax): its first Ctrl/⌘
 * key, or none. Plain letter keys are never menu accelerators: they would
 * take the letter from every text field.
 */
export function acceleratorOf(command: CommandSpec): string | undefined {
  const binding = command.keys.find((key) => key.mod)
  return binding ? `CmdOrCtrl+${binding.show}` : undefined
}

/** How a key shows in the overlay and palette on this platform (`⌘K` or `Ctrl+K`). */
export function keyLabel(binding: KeyBinding, mac: boolean): string {
  if (!binding.mod) return mac ? binding.show.replace(/^Shift\+/, '⇧') : binding.show
  return mac ? `⌘${binding.show}` : `Ctrl+${binding.show}`
}
