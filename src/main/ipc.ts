import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import type { Router } from '../core/router'
import { isTrustedSender, type AppOrigin } from '../core/security/policy'

/**
 * Registers every router channel on `ipcMain.handle`. Each call is checked
 * against the sender's frame first: only the app's own top-level page may
 * call (https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages).
 * Handlers answer `{ ok, value | error }` because Electron drops custom
 * error classes across `invoke` (electron/electron#24427).
 */
export function registerIpc(
  ipcMain: IpcMain,
  router: Router,
  origin: AppOrigin,
  /** Called after a trusted call was answered (main rebuilds its menu after `settings.set`). */
  afterCall: (channel: string) => void = () => undefined,
): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, args: unknown) => {
      const frame = event.senderFrame
      if (!isTrustedSender(frame ? { url: frame.url, parent: frame.parent } : null, origin)) {
        return {
          ok: false,
          error: { code: 'forbidden_sender', message: 'IPC is only accepted from the app window.' },
        }
      }
      const result = await router.dispatch(channel, args)
      afterCall(channel)
      return result
    })
  }
  return () => {
    for (const channel of router.channels) ipcMain.removeHandler(channel)
  }
}
