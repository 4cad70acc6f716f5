import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { isChannelName, isEventName } from '../shared/channels'

/**
 * Exposes exactly one object, `window.api`, whose two functions accept only
 * the channels and events listed in the shared contract (an allowlist). It
 * never exposes `ipcRenderer` itself, and listeners receive the payload only,
 * never Electron's event object.
 * https://www.electronjs.org/docs/latest/tutorial/context-isolation#security-considerations
 */
const api = {
  invoke(channel: unknown, args: unknown): Promise<unknown> {
    if (!isChannelName(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_channel', message: 'Unknown channel.' },
      })
    }
    return ipcRenderer.invoke(channel, args)
  },
  on(event: unknown, listener: unknown): () => void {
    if (!isEventName(event) || typeof listener !== 'function') return () => undefined
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => {
      ;(listener as (payload: unknown) => void)(payload)
    }
    ipcRenderer.on(`event:${event}`, wrapped)
    return () => {
      ipcRenderer.removeListener(`event:${event}`, wrapped)
    }
  },
}

contextBridge.exposeInMainWorld('api', api)
