import { app, BrowserWindow, ipcMain, net, session } from 'electron'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { bootWithEmbeddedSandbox, type BootedCore } from '../core/boot'
import type { AppOrigin } from '../core/security/policy'
import { handleCardProtocol, registerCardScheme } from './card-protocol'
import { KeytarStore } from '../core/vault/keytar-store'
import { registerIpc } from './ipc'
import { installSecurityDefaults } from './security'
import { openElectronStoreFile } from './settings-file'
import { createMainWindow } from './window'

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

let core: BootedCore | null = null
let mainWindow: BrowserWindow | null = null

function openWindow(booted: BootedCore): void {
  mainWindow = createMainWindow({
    preload: join(here, '../preload/index.cjs'),
    events: booted.events,
    load: (win) => (devServer ? win.loadURL(devServer) : win.loadFile(rendererIndex)),
  })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
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
    installSecurityDefaults(session.defaultSession, origin)
    core = await bootWithEmbeddedSandbox({
      fetch: (input, init) => net.fetch(input, init),
      dataDir: app.getPath('userData'),
      host: 'electron',
      version: app.getVersion(),
      keychain: new KeytarStore(),
      openSettings: openElectronStoreFile,
      autoSync: true,
      // Built next to index.js from src/core/store/owner-worker.ts (electron.vite.config.ts).
      storeWorker: { url: new URL('./owner-worker.js', import.meta.url) },
    })
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
    void core?.close()
  })
}
