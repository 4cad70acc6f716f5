import type { DownloadedUpdate, ReleaseCheck } from '../core/updates/release-signature'
import { message, type Locale } from '../shared/i18n'

/**
 * Updates from the generic HTTPS feed named at package time (electron-builder
 * writes it into `resources/app-update.yml`; without one the updater is off).
 * This module holds every decision, against a typed slice of
 * electron-updater's `AppUpdater`; `index.ts` only passes the real one in.
 *
 * - Checked at start and once a day; a found update downloads in the
 *   background (`autoDownload`).
 * - Nothing installs unless the release is signed with the project's release
 *   key: a downloaded update is first checked against the feed's signed
 *   manifest (`checkDownloadedUpdate` in `src/core/updates/release-signature.ts`,
 *   docs/release.md); a refused one is logged, said once per version, and
 *   never offered or installed.
 * - Nothing installs without the staff's word: once downloaded, they are
 *   asked (in the app's language) to restart now, install when they quit, or
 *   wait. Only "when I quit" turns `autoInstallOnAppQuit` on.
 * - A background check that fails is logged only; a check asked for from the
 *   Help menu answers with a dialog either way.
 */

/**
 * How often the app looks for an update while it runs.
 * @internal
 */
export const UPDATE_CHECK_MS = 24 * 60 * 60 * 1000

/** The slice of electron-updater's `AppUpdater` this module drives. */
export interface UpdaterLike {
  autoDownload: boolean
  autoInstallOnAppQuit: boolean
  checkForUpdates(): Promise<{ readonly isUpdateAvailable?: boolean } | null>
  quitAndInstall(): void
  on(event: 'update-downloaded', listener: (info: DownloadedUpdate) => void): unknown
  on(
    event: 'download-progress',
    listener: (progress: { readonly percent: number }) => void,
  ): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
}

/** What the staff chose when an update is ready. */
type UpdateAnswer = 'now' | 'quit' | 'later'

/** The update's state, for the log and the Help menu's answer. */
type UpdateState =
  | { readonly kind: 'off' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'downloading'; readonly percent: number }
  | { readonly kind: 'ready'; readonly version: string; readonly onQuit: boolean }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'refused'; readonly version: string }

/** A question or notice for a native dialog: its text and buttons in the app's language. */
export interface UpdateDialog {
  readonly message: string
  readonly detail?: string
  readonly buttons: readonly string[]
}

/** Whether updates run: only in a packaged app that was built with a feed. */
export function updatesEnabled(run: {
  readonly packaged: boolean
  readonly feedConfigured: boolean
}): boolean {
  return run.packaged && run.feedConfigured
}

/**
 * The question asked when an update has downloaded; its buttons map to {@link UpdateAnswer}s in order.
 * @internal
 */
export function readyQuestion(locale: Locale, version: string): UpdateDialog {
  return {
    message: message(locale, 'update.ready', { version }),
    detail: message(locale, 'update.readyDetail'),
    buttons: [
      message(locale, 'update.now'),
      message(locale, 'update.onQuit'),
      message(locale, 'update.later'),
    ],
  }
}

const ANSWERS: readonly UpdateAnswer[] = ['now', 'quit', 'later']

/**
 * The answer of a button index of {@link readyQuestion} (a closed dialog is "later").
 * @internal
 */
export function answerOf(button: number): UpdateAnswer {
  return ANSWERS[button] ?? 'later'
}

/**
 * The notice a manual check ends with (null while a download or the question follows).
 * @internal
 */
export function manualCheckNotice(locale: Locale, state: UpdateState): UpdateDialog | null {
  const ok = [message(locale, 'common.close')]
  switch (state.kind) {
    case 'off':
      return { message: message(locale, 'update.off'), buttons: ok }
    case 'idle':
      return { message: message(locale, 'update.current'), buttons: ok }
    case 'failed':
      return { message: message(locale, 'update.failed'), detail: state.message, buttons: ok }
    case 'refused':
      return refusedNotice(locale, state.version)
    case 'ready':
      return state.onQuit
        ? {
            message: message(locale, 'update.willInstall', { version: state.version }),
            buttons: ok,
          }
        : null
    default:
      return null
  }
}

/**
 * The notice of an update that failed the signature check: it is not installed.
 * @internal
 */
export function refusedNotice(locale: Locale, version: string): UpdateDialog {
  return {
    message: message(locale, 'update.refused', { version }),
    detail: message(locale, 'update.refusedDetail'),
    buttons: [message(locale, 'common.close')],
  }
}

/** Timers the schedule uses (fake ones in tests). */
interface UpdateTimers {
  setInterval(run: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

/** Starts the schedule: checks now and daily. Returns the controls the menu and quit use. */
export function startUpdates(options: {
  readonly updater: UpdaterLike | null
  readonly locale: () => Locale
  /** Shows a dialog; resolves with the button index chosen. */
  readonly ask: (dialog: UpdateDialog) => Promise<number>
  readonly log: (line: string) => void
  /** Checks a downloaded update against the feed's signed manifest (core's `checkDownloadedUpdate`). */
  readonly verify: (update: DownloadedUpdate) => Promise<ReleaseCheck>
  readonly timers?: UpdateTimers
}): { check(manual: boolean): Promise<void>; state(): UpdateState; stop(): void } {
  const updater = options.updater
  if (updater === null) {
    return {
      async check(manual) {
        const notice = manualCheckNotice(options.locale(), { kind: 'off' })
        if (manual && notice) await options.ask(notice)
      },
      state: () => ({ kind: 'off' }),
      stop: () => undefined,
    }
  }
  const active: UpdaterLike = updater
  const timers = options.timers ?? {
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  }
  let state: UpdateState = { kind: 'idle' }
  let asked: string | null = null

  updater.autoDownload = true
  updater.autoInstallOnAppQuit = false
  updater.on('download-progress', ({ percent }) => {
    state = { kind: 'downloading', percent }
  })
  updater.on('error', (error) => {
    state = { kind: 'failed', message: error.message }
    options.log(`update failed: ${error.message}`)
  })
  updater.on('update-downloaded', (update) => {
    void offer(update)
  })

  /** Checks the signature, then asks (once per version; "later" asks again at the next start). */
  async function offer(update: DownloadedUpdate): Promise<void> {
    const { version } = update
    options.log(`update ${version} downloaded; checking its signature`)
    const checked = await options.verify(update).catch((error: unknown): ReleaseCheck => ({
      ok: false,
      reason: 'malformed',
      detail: error instanceof Error ? error.message : String(error),
    }))
    if (!checked.ok) {
      active.autoInstallOnAppQuit = false
      state = { kind: 'refused', version }
      options.log(`update ${version} refused (${checked.reason}): ${checked.detail}`)
      if (asked === version) return
      asked = version
      await options.ask(refusedNotice(options.locale(), version))
      return
    }
    state = { kind: 'ready', version, onQuit: false }
    options.log(`update ${version} is signed with the release key`)
    if (asked === version) return
    asked = version
    await options.ask(readyQuestion(options.locale(), version)).then((button) => {
      const answer = answerOf(button)
      options.log(`update ${version}: staff chose ${answer}`)
      if (answer === 'now') active.quitAndInstall()
      else if (answer === 'quit') {
        active.autoInstallOnAppQuit = true
        state = { kind: 'ready', version, onQuit: true }
      }
    })
  }

  let inflight: Promise<void> | null = null
  async function run(): Promise<void> {
    if (state.kind !== 'ready' && state.kind !== 'refused') state = { kind: 'checking' }
    try {
      const result = await active.checkForUpdates()
      if (state.kind === 'checking') {
        state = result?.isUpdateAvailable ? { kind: 'downloading', percent: 0 } : { kind: 'idle' }
      }
    } catch (error) {
      state = { kind: 'failed', message: error instanceof Error ? error.message : String(error) }
      options.log(`update check failed: ${state.message}`)
    }
  }

  /** Checks (joining a check under way); a manual one ends with a notice. */
  async function check(manual: boolean): Promise<void> {
    if (state.kind !== 'downloading') {
      inflight ??= run().finally(() => (inflight = null))
      await inflight
    }
    const notice = manual ? manualCheckNotice(options.locale(), state) : null
    if (notice) await options.ask(notice)
  }

  void check(false)
  const handle = timers.setInterval(() => void check(false), UPDATE_CHECK_MS)
  return {
    check,
    state: () => state,
    stop: () => timers.clearInterval(handle),
  }
}
