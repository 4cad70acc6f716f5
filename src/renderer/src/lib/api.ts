import type { ChannelName, EventName } from '../../../shared/channels'
import type { AppApi, ChannelArgs, ChannelResult, EventPayloads } from '../../../shared/contract'
import type { Result } from '../../../shared/errors'

const TOKEN_KEY = 'appraisal-desk.web-host-token'
/** Set when `window.api` is this file's HTTP shim (the web host), not Electron's preload. */
let webShim = false

/**
 * `window.api` in Electron (set by the preload). In the web host there is no
 * preload, so the same interface is carried over HTTP: `POST /ipc/<channel>`
 * with the per-launch token, and one event stream from `/events`. Everything
 * else in the renderer is identical in both hosts.
 */
export function getApi(): AppApi {
  if (window.api) return window.api
  const api = createHttpApi(takeToken())
  webShim = true
  window.api = api
  return api
}

/**
 * Where card images are served from: the `card:` protocol in Electron, the
 * web host's `/card` route in a browser. Either way main fetches, checks and
 * caches the image; the page never loads a remote URL itself.
 */
export function cardBase(): string {
  getApi()
  return webShim ? '/card' : 'card://image'
}

/** True in the web host (a browser page), false in Electron's window. */
export function isWebHost(): boolean {
  getApi()
  return webShim
}

/**
 * The session's token: from `#token=…` (the address the host prints), or
 * exchanged at `POST /session` for a one-time `#code=…` (the address
 * `npm start` opens the browser with, so the token is never on another
 * program's command line). Either is removed from the address bar at once;
 * the token is kept for reloads.
 */
function takeToken(): Promise<string> {
  const parts = location.hash.replace(/^#/, '').split('&')
  const tokenPart = parts.find((part) => part.startsWith('token='))
  const codePart = parts.find((part) => part.startsWith('code='))
  if (tokenPart || codePart) {
    const rest = parts.filter((part) => part !== tokenPart && part !== codePart).join('&')
    history.replaceState(null, '', location.pathname + location.search + (rest ? `#${rest}` : ''))
  }
  if (tokenPart) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(tokenPart.slice('token='.length)))
  } else if (codePart) {
    const code = decodeURIComponent(codePart.slice('code='.length))
    return fetch('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    })
      .then(async (response) => {
        if (response.ok) {
          const { token } = (await response.json()) as { token: string }
          sessionStorage.setItem(TOKEN_KEY, token)
        }
      })
      .catch(() => undefined)
      .then(() => sessionStorage.getItem(TOKEN_KEY) ?? '')
  }
  return Promise.resolve(sessionStorage.getItem(TOKEN_KEY) ?? '')
}

/**
 * Calls one listener: a listener that throws is reported and skipped, as
 * Electron's IPC would, so the other listeners and the event stream go on.
 */
function deliver(listener: (payload: never) => void, payload: never): void {
  try {
    listener(payload)
  } catch (error) {
    reportError(error)
  }
}

/**
 * Calls that must arrive even when sent as the page goes away (`pagehide`):
 * sent with `keepalive`, which outlives the page (their bodies are tiny,
 * well within the browser's keepalive quota).
 */
const KEEPALIVE_CHANNELS: ReadonlySet<ChannelName> = new Set<ChannelName>(['wallet.cancel'])

function createHttpApi(session: Promise<string>): AppApi {
  const listeners = new Map<EventName, Set<(payload: never) => void>>()
  let streaming = false
  /**
   * The token once known (at once, from the address or a reload's storage).
   * A call then leaves in the task that makes it: awaiting the session would
   * hold every request back until the running task ends, so the calls a
   * screen makes while it is being built (its list's first page among them)
   * would leave only after the whole screen is built, instead of while it is.
   */
  let token: string | null = null
  void session.then((value) => (token = value))

  async function stream(): Promise<void> {
    streaming = true
    try {
      const token = await session
      const response = await fetch('/events', { headers: { 'x-app-token': token } })
      if (!response.ok || !response.body) return
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      let buffer = ''
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buffer += value
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const chunk = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (!chunk.startsWith('data: ')) continue
          const { event, payload } = JSON.parse(chunk.slice(6)) as {
            event: EventName
            payload: never
          }
          for (const listener of listeners.get(event) ?? []) deliver(listener, payload)
        }
      }
    } catch {
      // The host went away; views keep their data and calls report the failure.
    } finally {
      streaming = false
    }
  }

  return {
    async invoke<C extends ChannelName>(
      channel: C,
      args: ChannelArgs<C>,
    ): Promise<Result<ChannelResult<C>>> {
      try {
        const response = await fetch(`/ipc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-token': token ?? (await session) },
          body: JSON.stringify(args ?? {}),
          keepalive: KEEPALIVE_CHANNELS.has(channel),
        })
        if (!response.ok) {
          return {
            ok: false,
            error: {
              code: response.status === 401 ? 'forbidden_sender' : 'internal',
              message: `Web host answered ${response.status}.`,
            },
          }
        }
        return (await response.json()) as Result<ChannelResult<C>>
      } catch {
        return { ok: false, error: { code: 'internal', message: 'The web host is not reachable.' } }
      }
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: never) => void)
      listeners.set(event, set)
      if (!streaming) void stream()
      return () => set.delete(listener as (payload: never) => void)
    },
  }
}
