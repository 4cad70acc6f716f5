import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  net,
  powerMonitor,
  protocol,
  screen,
  session,
  shell,
} from 'electron'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import electronUpdater from 'electron-updater'
import appLog from 'electron-log/main'
import { fileURLToPath } from 'node:url'
import { createCore, type Core } from '../core/app'
import { appThreads } from '../core/threads/entries'
import { refusedAtStart } from '../core/security/debug-switches'
import { checkDownloadedUpdate, feedUrlOf } from '../core/updates/release-signature'
import { APP_DOCS_ORIGIN, appEntryUrl, appOriginFor } from '../core/security/policy'
import { handleAppProtocol, registerAppSchemes } from './app-protocol'
import { handleCardProtocol } from './card-protocol'
import { KeytarStore } from '../core/vault/keytar-store'
import { SANDBOX_PROFILE_ID } from '../shared/profiles'
import { DEFAULT_LOCALE } from '../shared/locales'
import { DISABLED_CHROMIUM_FEATURES } from '../shared/chromium-features'
import { createExternalLinkOpener } from './external-links'
import { registerIpc } from './ipc'
import { applicationMenuTemplate, createMenuLanguageWatch } from './menu'
import type { CommandId } from '../shared/commands'
import { installOrderlyQuit } from './orderly-quit'
import { createSaveWithDialog } from './save-export'
import { installSecurityDefaults } from './security'
import { openElectronStoreFile } from './settings-file'
import { electronWalletHost, isWalletSession } from './wallet-window'
import { createMainWindow } from './window'
import {
  chooseWindowPlacement,
  loadWindowState,
  saveWindowState,
  windowStateFile,
} from './window-state'
import { LazySandbox } from './lazy-sandbox'
import { sandboxAnchor } from '../core/sandbox-anchor'
import { aboutLines, aboutPanelOptions } from './about'
import {
  configureLog,
  coreLogTo,
  installCrashGuards,
  watchRenderer,
  type AskDialog,
} from './app-log'
import { startUpdates, updatesEnabled } from './updates'
import { lockApp, wireAppLock } from './app-lock'

/**
 * The Electron shell: lifecycle, the window, and wiring core to IPC. Every
 * behaviour lives in `src/core`, which is tested without Electron.
 */
const here = fileURLToPath(new URL('.', import.meta.url))
const rendererDir = join(here, '../renderer')
// The dev server's address is honoured only in an unpackaged run (policy.ts, appOriginFor).
const origin = appOriginFor({
  isPackaged: app.isPackaged,
  rendererUrl: process.env['ELECTRON_RENDERER_URL'],
})

const stateFile = () => windowStateFile(app.getPath('userData'))

let core: Core | null = null
let sandbox: LazySandbox | null = null
let mainWindow: BrowserWindow | null = null

/** The language of main's dialogs: the app's, once core is up. */
const locale = () => core?.language() ?? DEFAULT_LOCALE

// The log file (rotated, redacted by core's redactor; app-log.ts), and no silent exit on an uncaught error.
const logFile = configureLog(appLog, () =>
  core ? (text) => core?.redactor.redact(text) ?? text : (text) => text,
)
/** A native error or warning dialog; before the app is ready, the only one Electron offers. */
const askDialog: AskDialog = async (question) => {
  if (!app.isReady()) {
    dialog.showErrorBox(question.message, question.detail ?? '')
    return 0
  }
  const options = {
    type: question.type,
    title: app.getName(),
    message: question.message,
    ...(question.detail ? { detail: question.detail } : {}),
    buttons: [...question.buttons],
    cancelId: question.buttons.length - 1,
    noLink: true,
  }
  const answer = mainWindow
    ? await dialog.showMessageBox(mainWindow, options)
    : await dialog.showMessageBox(options)
  return answer.response
}
installCrashGuards({ process, log: appLog, ask: askDialog, locale, logFile: () => logFile })

const openLink = createExternalLinkOpener({
  showMessageBox: (options) => {
    const parent = BrowserWindow.getFocusedWindow()
    return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)
  },
  openExternal: (url) => shell.openExternal(url),
  origins: () => core?.linkOrigins() ?? [APP_DOCS_ORIGIN],
  locale: () => core?.language() ?? DEFAULT_LOCALE,
  log: (message) => appLog.warn(message),
})

function openWindow(booted: Core): void {
  mainWindow = createMainWindow({
    preload: join(here, '../preload/index.cjs'),
    packaged: app.isPackaged,
    events: booted.events,
    load: (win) => win.loadURL(appEntryUrl(origin)),
    // Reopened where it was, on a display that still exists (window-state.ts).
    placement: chooseWindowPlacement(
      loadWindowState(stateFile()),
      screen.getAllDisplays().map((display) => display.workArea),
      screen.getPrimaryDisplay().workArea,
    ),
    remember: (state) => saveWindowState(stateFile(), state),
  })
  // A crashed or hung page offers a reload (app-log.ts).
  watchRenderer({ contents: mainWindow.webContents, log: appLog, ask: askDialog, locale })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
}

/** Exports go through the system's save dialog, written owner-only by main. */
const saveWithDialog = createSaveWithDialog((options) =>
  mainWindow ? dialog.showSaveDialog(mainWindow, options) : dialog.showSaveDialog(options),
)

/** A menu command the renderer runs: sent to the main window as `command.run`. */
function sendToRenderer(id: CommandId): void {
  // Lock now locks in core at once, whatever the page is doing; the page follows `lock.changed`.
  if (id === 'app.lock') return lockApp()
  if (!mainWindow || mainWindow.isDestroyed()) return
  mainWindow.focus()
  mainWindow.webContents.send('event:command.run', { id })
}

/** The versions the About panel names. */
const aboutVersions = () => ({
  app: app.getVersion(),
  electron: process.versions.electron,
  chrome: process.versions.chrome,
  node: process.versions.node,
})

/** Updates from the feed written into app-update.yml at package time (off without one; updates.ts). */
let updates: ReturnType<typeof startUpdates> | null = null

/** A menu command main runs itself. */
function runMainCommand(id: CommandId): void {
  if (id === 'app.about') {
    const [first = '', ...rest] = aboutLines(locale(), aboutVersions())
    void askDialog({ type: 'info', message: first, detail: rest.join('\n'), buttons: ['OK'] })
  } else if (id === 'app.openLog') void shell.openPath(logFile)
  else if (id === 'app.checkUpdates') void updates?.check(true)
}

registerAppSchemes(protocol)
// Before the app is ready, so the renderer starts with it (see the module for why).
app.commandLine.appendSwitch('disable-features', DISABLED_CHROMIUM_FEATURES.join(','))

// A packaged app never starts with a debugging port or V8 flags on its command line
// (debug-switches.ts): no fuse covers Chromium's switches.
const refusal = refusedAtStart({ packaged: app.isPackaged, argv: process.argv.slice(1) })
if (refusal) {
  appLog.error(refusal)
  process.stderr.write(`${refusal}\n`)
  app.exit(1)
} else if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore()
      mainWindow.focus()
    }
  })

  installOrderlyQuit({
    app,
    close: async () => {
      await core?.close()
      await sandbox?.stop()
    },
    log: (message) => appLog.warn(message),
  })

  void app.whenReady().then(async () => {
    app.setAboutPanelOptions(aboutPanelOptions(locale(), aboutVersions()))
    handleAppProtocol(protocol, rendererDir)
    installSecurityDefaults(
      session.defaultSession,
      origin,
      openLink,
      (contents) => isWalletSession(contents.session),
      (message) => appLog.warn(message),
    )
    // The shell describes the embedded sandbox to core (core never imports it) and starts
    // it at the first request that goes to it: only while the Sandbox profile is in use.
    // Its data ends in the hours before the first launch on this data folder (sandbox-anchor.ts).
    const embedded = await LazySandbox.create({
      anchor: sandboxAnchor(app.getPath('userData'), Date.now()),
    })
    sandbox = embedded
    core = createCore({
      fetch: embedded.wrapFetch((input, init) => net.fetch(input, init)),
      dataDir: app.getPath('userData'),
      host: 'electron',
      version: app.getVersion(),
      keychain: new KeytarStore(),
      // Core's own lines go to the log file, through the same redaction as the shell's (app-log.ts).
      log: coreLogTo(appLog),
      openSettings: openElectronStoreFile,
      autoSync: true,
      // The data threads, bundled next to index.js under their names (src/core/threads/entries.ts).
      ...appThreads((name) => ({ url: new URL(`./${name}.js`, import.meta.url) })),
      sandbox: embedded.profile,
      saveFile: saveWithDialog,
    })
    const walletHost = electronWalletHost({
      session: (partition) => session.fromPartition(partition),
      BrowserWindow,
      parent: () => mainWindow,
      log: (message) => appLog.warn(message),
    })
    core.wallet.useWindowHost({
      // The Sandbox's wallet page is served by the sandbox: started before the window loads it.
      open: (flow) => {
        const ready = embedded.covers(flow.url) ? embedded.ensure() : Promise.resolve()
        void ready.catch(() => undefined).then(() => walletHost.open(flow))
      },
    })
    const booted = core
    booted.events.subscribe((event) => {
      if (event === 'profiles.changed' && booted.profiles.activeId !== SANDBOX_PROFILE_ID) {
        void embedded.stop()
      }
    })
    handleCardProtocol(core.images)
    // The OS locking its screen or going to sleep locks the app (app-lock.ts).
    wireAppLock(powerMonitor, core.lock)
    // The menu is built from the command registry in the app's language, and again when it changes.
    const menu = createMenuLanguageWatch({
      locale: () => booted.language(),
      build: (locale) =>
        Menu.setApplicationMenu(
          Menu.buildFromTemplate(
            applicationMenuTemplate({
              platform: process.platform,
              packaged: app.isPackaged,
              locale,
              actions: { sendToRenderer, runInMain: runMainCommand },
            }),
          ),
        ),
    })
    registerIpc(ipcMain, core.router, origin, (channel) => {
      if (channel === 'settings.set') menu.refresh()
    })
    openWindow(core)
    const feedFile = join(process.resourcesPath, 'app-update.yml')
    const feedConfigured = existsSync(feedFile)
    const feedUrl = feedConfigured ? feedUrlOf(readFileSync(feedFile, 'utf8')) : null
    updates = startUpdates({
      updater: updatesEnabled({ packaged: app.isPackaged, feedConfigured })
        ? electronUpdater.autoUpdater
        : null,
      locale,
      ask: (question) => askDialog({ type: 'info', ...question }),
      log: (line) => appLog.warn(line),
      // The release's signed manifest, read from the same feed (release-signature.ts).
      verify: (update) =>
        feedUrl
          ? checkDownloadedUpdate({
              fetch: (input, init) => net.fetch(input, init),
              feedUrl,
              update,
            })
          : Promise.resolve({ ok: false, reason: 'unsigned', detail: 'no https feed address' }),
    })
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0 && core) openWindow(core)
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}
