import { existsSync, renameSync, rmSync } from 'node:fs'
import { join, parse } from 'node:path'
import { format } from 'node:util'
import { message, type Locale } from '../shared/i18n'

/**
 * The app's log file (electron-log's file transport, set up here), and what
 * main does with errors nobody caught and with a renderer that crashed or
 * hangs. Nothing here imports Electron: `index.ts` passes the real logger,
 * `process`, dialogs and web contents in, and tests pass fakes.
 */

/** A log file grows to this size before it is rotated. */
const LOG_MAX_BYTES = 1024 * 1024
/** Rotated files kept beside the current one (`main.1.log` newest … `main.3.log` oldest). */
const LOG_KEEP = 3

/**
 * Rotates `file`: `main.log` becomes `main.1.log`, `main.1.log` becomes
 * `main.2.log` and so on; the oldest beyond {@link LOG_KEEP} is deleted.
 * (electron-log's own rotation keeps one `.old.log`; this keeps a few.)
 * @internal
 */
export function rotateLog(file: string, keep = LOG_KEEP): void {
  const { dir, name, ext } = parse(file)
  const numbered = (n: number) => join(dir, `${name}.${n}${ext}`)
  rmSync(numbered(keep), { force: true })
  for (let n = keep - 1; n >= 1; n -= 1) {
    if (existsSync(numbered(n))) renameSync(numbered(n), numbered(n + 1))
  }
  if (existsSync(file)) renameSync(file, numbered(1))
}

/** Wallet-link addresses keep their origin only (their path carries the key). */
const WALLET_URL = /\bhttps?:\/\/[^\s/"'<>]+\/[^\s"'<>]*wallet[^\s"'<>]*/gi

/**
 * The text of a log entry, with secrets and wallet addresses removed.
 * @internal
 */
export function redactLine(text: string, redact: (text: string) => string): string {
  return redact(text).replace(WALLET_URL, (url) => {
    const origin = /^https?:\/\/[^/]+/i.exec(url)?.[0] ?? ''
    return `${origin}/[wallet address redacted]`
  })
}

/** The slice of electron-log's logger this module sets up. */
export interface LoggerLike {
  readonly transports: {
    readonly file: {
      maxSize: number
      archiveLogFn(file: { readonly path: string }): void
      getFile(): { readonly path: string }
    }
  }
  /** Functions every entry passes before the transports (electron-log's `hooks`). */
  readonly hooks: { push(hook: <E extends { data: unknown[] }>(entry: E) => E | false): unknown }
  info(...data: unknown[]): void
  warn(...data: unknown[]): void
  error(...data: unknown[]): void
}

/**
 * Sets the logger up: rotation at {@link LOG_MAX_BYTES}, and every entry
 * turned into one redacted string before any transport sees it. `redact`
 * is core's redactor (src/core/redact.ts), which knows the stored secrets.
 * Returns the log file's path (for Help › Open log file).
 */
export function configureLog(log: LoggerLike, redact: () => (text: string) => string): string {
  log.transports.file.maxSize = LOG_MAX_BYTES
  log.transports.file.archiveLogFn = (file) => rotateLog(file.path)
  log.hooks.push((entry) => ({
    ...entry,
    data: [redactLine(format(...entry.data), redact())],
  }))
  return log.transports.file.getFile().path
}

/**
 * Core's log (`createCore`'s `log`): its lines go to the same logger, so to
 * the rotated file through the redaction {@link configureLog} installs, not
 * to the console.
 */
export function coreLogTo(log: Pick<LoggerLike, 'warn'>): (message: string) => void {
  return (message) => log.warn(message)
}

/** A native dialog: message, detail, buttons; resolves with the index chosen. */
export type AskDialog = (dialog: {
  readonly type: 'error' | 'warning' | 'info'
  readonly message: string
  readonly detail?: string
  readonly buttons: readonly string[]
}) => Promise<number>

/**
 * Logs and shows every exception and rejection nobody caught in main, so
 * the app never exits silently: Node's default for an uncaught exception
 * is to end the process, and a listener replaces it. One dialog at a time;
 * more errors while it shows are logged only.
 */
export function installCrashGuards(options: {
  readonly process: Pick<NodeJS.Process, 'on'>
  readonly log: Pick<LoggerLike, 'error'>
  readonly ask: AskDialog
  readonly locale: () => Locale
  readonly logFile: () => string
}): void {
  let showing = false
  const report = (kind: 'exception' | 'rejection', error: unknown): void => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
    options.log.error(`uncaught ${kind}: ${text}`)
    if (showing) return
    showing = true
    const locale = options.locale()
    void options
      .ask({
        type: 'error',
        message: message(locale, 'crash.main'),
        detail: message(locale, 'crash.mainDetail', { file: options.logFile() }),
        buttons: [message(locale, 'common.close')],
      })
      .catch(() => undefined)
      .finally(() => (showing = false))
  }
  options.process.on('uncaughtException', (error) => report('exception', error))
  options.process.on('unhandledRejection', (reason) => report('rejection', reason))
}

/** The slice of a window's `webContents` the renderer watch uses. */
interface RendererLike {
  on(
    event: 'render-process-gone',
    listener: (event: unknown, details: { readonly reason: string }) => void,
  ): unknown
  on(event: 'unresponsive' | 'responsive', listener: () => void): unknown
  reload(): void
  isDestroyed(): boolean
}

/**
 * Offers a reload when the window's page crashed (`render-process-gone`,
 * except a clean exit) or hangs (`unresponsive`). A hang that ends by itself
 * before the staff answer leaves the page as it is.
 */
export function watchRenderer(options: {
  readonly contents: RendererLike
  readonly log: Pick<LoggerLike, 'warn'>
  readonly ask: AskDialog
  readonly locale: () => Locale
}): void {
  const { contents } = options
  let hung = false
  const offer = async (kind: 'gone' | 'hung'): Promise<void> => {
    const locale = options.locale()
    const button = await options.ask({
      type: 'warning',
      message: message(locale, kind === 'gone' ? 'crash.rendererGone' : 'crash.rendererHung'),
      buttons: [
        message(locale, 'crash.reload'),
        message(locale, kind === 'gone' ? 'common.close' : 'crash.wait'),
      ],
    })
    if (button !== 0 || contents.isDestroyed()) return
    if (kind === 'hung' && !hung) return
    contents.reload()
  }
  contents.on('render-process-gone', (_event, details) => {
    options.log.warn(`renderer gone: ${details.reason}`)
    if (details.reason === 'clean-exit') return
    void offer('gone')
  })
  contents.on('unresponsive', () => {
    options.log.warn('renderer unresponsive')
    if (hung) return
    hung = true
    void offer('hung').finally(() => (hung = false))
  })
  contents.on('responsive', () => {
    hung = false
  })
}
