import { app, BrowserWindow, dialog, ipcMain, net, session, shell } from 'electron'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createCore, type Core } from '../core/app'
import { APP_DOCS_ORIGIN, type AppOrigin } from '../core/security/policy'
import { handleCardProtocol, registerCardScheme } from './card-protocol'
import { KeytarStore } from '../core/vault/keytar-store'
import { createExternalLinkOpener } from './external-links'
import { registerIpc } from './ipc'
import { installSecurityDefaults } from './security'
import { openElectronStoreFile } from './settings-file'
import { electronWalletHost, isWalletSession } from './wallet-window'
import { createMainWindow } from './window'
import { startEmbeddedSandbox, type Sandbox } from '../sandbox'

/**
 * The Electron shell: lifecycle, the window, and wiring core to IPC. Every
 * behaviour lives in `src/core`, which is tested without Electron.
 */
const here = fileURLToPath(new URL('.', import.meta.url))
const rendererIndex = join(here, '../renderer/index.html')
const devServer = process.env['ELECTRON_RENDERER_URL']
const origin: AppOrigin = devServer
  ? { devServerOrigin: devServer }
  : { indexFileUrl: pathToFileURL(rendererIndex).toString() }

let core: Core | null = null
let sandbox: Sandbox | null = null
let mainWindow: BrowserWindow | null = null

const openLink = createExternalLinkOpener({
  showMessageBox: (options) => {
    const parent = BrowserWindow.getFocusedWindow()
    return parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)
  },
  openExternal: (url) => shell.openExternal(url),
  origins: () => core?.linkOrigins() ?? [APP_DOCS_ORIGIN],
  locale: () => core?.language() ?? 'ko',
  log: (message) => console.warn(message),
})

function openWindow(booted: Core): void {
  mainWindow = createMainWindow({
    preload: join(here, '../preload/index.cjs'),
    events: booted.events,
    load: (win) => (devServer ? win.loadURL(devServer) : win.loadFile(rendererIndex)),
  })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
}

/** Exports go through the system's save dialog; answers the path, or null when cancelled. */
async function saveWithDialog(fileName: string, text: string): Promise<string | null> {
  const options = { defaultPath: fileName, filters: [{ name: 'CSV', extensions: ['csv'] }] }
  const chosen = mainWindow
    ? await dialog.showSaveDialog(mainWindow, options)
    : await dialog.showSaveDialog(options)
  if (chosen.canceled || !chosen.filePath) return null
  await writeFile(chosen.filePath, text, 'utf8')
  return chosen.filePath
}

registerCardScheme()

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore()
      mainWindow.focus()
    }
  })

  void app.whenReady().then(async () => {
    installSecurityDefaults(session.defaultSession, origin, openLink, (contents) =>
      isWalletSession(contents.session),
    )
    // The shell starts the embedded sandbox and hands core its description (core never imports it).
    const embedded = await startEmbeddedSandbox()
    sandbox = embedded.sandbox
    core = createCore({
      fetch: (input, init) => net.fetch(input, init),
      dataDir: app.getPath('userData'),
      host: 'electron',
      version: app.getVersion(),
      keychain: new KeytarStore(),
      openSettings: openElectronStoreFile,
      autoSync: true,
      // Built next to index.js from src/core/store/owner/ and src/core/sync/page-thread/ (electron.vite.config.ts).
      storeWorker: {
        owner: { url: new URL('./owner-worker.js', import.meta.url) },
        checkpointer: { url: new URL('./checkpoint-worker.js', import.meta.url) },
      },
      pageWorker: { url: new URL('./page-worker.js', import.meta.url) },
      teamWorker: { url: new URL('./team-worker.js', import.meta.url) },
      sandbox: embedded.profile,
      saveFile: saveWithDialog,
    })
    core.wallet.useWindowHost(
      electronWalletHost({
        session: (partition) => session.fromPartition(partition),
        createWindow: (options) =>
          new BrowserWindow({ ...options, ...(mainWindow ? { parent: mainWindow } : {}) }),
        log: (message) => console.warn(message),
      }),
    )
    handleCardProtocol(core.images)
    registerIpc(ipcMain, core.router, origin)
    openWindow(core)
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0 && core) openWindow(core)
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  app.on('will-quit', () => {
    void core?.close().finally(() => sandbox?.close())
  })
}
