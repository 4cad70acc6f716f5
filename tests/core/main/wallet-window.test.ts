import { EventEmitter } from 'node:events'
import type { BrowserWindowConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { WalletFlowMachine, type WalletEnd } from '../../../src/core/wallet/flow-machine'
import type { WalletFlowHandle } from '../../../src/core/wallet/wallet-service'
import {
  isWalletSession,
  openWalletWindow,
  type WalletSession,
  type WalletWindow,
} from '../../../src/main/wallet-window'

/**
 * The Electron wiring against fakes of just the Electron parts it uses (no
 * Electron binary runs here; the smoke suite covers the real window). The
 * fakes are event emitters with the methods `wallet-window.ts` calls; their
 * types come from Electron's `.d.ts` through the module's Pick types.
 */

const KEY = 'sk_live_SECRET_KEY_123'
const SERVICE = 'https://wallet.example.com'
const REDIRECT = 'https://shop.example.com/wallet/done'
const URL_WITH_KEY = `${SERVICE}/partner/p1/${KEY}/wallet/m1/pre-sync?redirectUri=${encodeURIComponent(REDIRECT)}`

class FakeEvent {
  prevented = false
  constructor(
    readonly url = '',
    readonly isMainFrame = true,
  ) {}
  preventDefault(): void {
    this.prevented = true
  }
}

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null
  loaded: string[] = []
  webRtcPolicy: string | null = null
  /** The WebRTC policy when the first address was loaded. */
  webRtcPolicyAtLoad: string | null = null
  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webRtcPolicy = policy
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.openHandler = handler
  }
  loadURL(url: string): Promise<void> {
    if (this.loaded.length === 0) this.webRtcPolicyAtLoad = this.webRtcPolicy
    this.loaded.push(url)
    return Promise.resolve()
  }
}

class FakeWindow extends EventEmitter {
  readonly webContents = new FakeContents()
  titles: string[] = []
  closed = false
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super()
  }
  setTitle(title: string): void {
    this.titles.push(title)
  }
  close(): void {
    this.closed = true
    this.emit('closed')
  }
  isDestroyed(): boolean {
    return this.closed
  }
}

class FakeSession extends EventEmitter {
  permission: ((...args: never[]) => void) | null = null
  check: (() => boolean) | null = null
  device: (() => boolean) | null = null
  beforeRequest:
    | ((
        details: { url: string; resourceType: string },
        callback: (answer: { cancel: boolean }) => void,
      ) => void)
    | null = null
  readonly webRequest = {
    onBeforeRequest: (handler: NonNullable<FakeSession['beforeRequest']>): void => {
      this.beforeRequest = handler
    },
  }
  /** Plays one request of the page; answers whether the session let it through. */
  request(url: string, resourceType = 'xhr'): boolean {
    let cancel = true
    this.beforeRequest?.({ url, resourceType }, (answer) => (cancel = answer.cancel))
    return !cancel
  }
  cleared = 0
  setPermissionRequestHandler(handler: (...args: never[]) => void): void {
    this.permission = handler
  }
  setPermissionCheckHandler(handler: () => boolean): void {
    this.check = handler
  }
  setDevicePermissionHandler(handler: () => boolean): void {
    this.device = handler
  }
  clearData(): Promise<void> {
    this.cleared += 1
    return Promise.resolve()
  }
  clearCache(): Promise<void> {
    return Promise.resolve()
  }
}

function setup() {
  const machine = new WalletFlowMachine({ allowedOrigins: [SERVICE], redirectUri: REDIRECT })
  let settle: (end: WalletEnd) => void = () => undefined
  const ended = new Promise<WalletEnd>((resolve) => (settle = resolve))
  const flow: WalletFlowHandle = {
    id: 'f1',
    url: URL_WITH_KEY,
    title: 'Wallet link',
    partition: 'wallet-f1',
    allowedOrigins: [SERVICE],
    ended,
    feed: (event) => {
      const verdict = machine.handle(event)
      if (verdict.ended) settle(verdict.ended)
      return verdict
    },
  }
  const session = new FakeSession()
  let win: FakeWindow | null = null
  const partitions: string[] = []
  // The one cast: the fakes implement only what the module uses of these Electron types.
  openWalletWindow(flow, {
    session: (partition) => {
      partitions.push(partition)
      return session as unknown as WalletSession
    },
    BrowserWindow: class extends FakeWindow {
      constructor(options: BrowserWindowConstructorOptions) {
        super(options)
        // eslint-disable-next-line @typescript-eslint/no-this-alias -- the test keeps the window the module made
        win = this
      }
    } as unknown as new (options: BrowserWindowConstructorOptions) => WalletWindow,
  })
  if (!win) throw new Error('no window')
  const w: FakeWindow = win
  return { machine, flow, session, win: w, contents: w.webContents, partitions }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('wallet window wiring', () => {
  it('lets the page send requests to the service only, so the key in its address cannot leave', () => {
    const { session, win } = setup()
    expect(session.request(`${SERVICE}/static/app.js`, 'script')).toBe(true)
    expect(session.request(URL_WITH_KEY, 'mainFrame')).toBe(true)
    expect(session.request('data:image/png;base64,AAAA', 'image')).toBe(true)
    for (const [url, type] of [
      [`https://evil.test/?u=${encodeURIComponent(URL_WITH_KEY)}`, 'xhr'],
      ['https://evil.test/pixel.gif', 'image'],
      ['https://evil.test/beacon', 'ping'],
      ['wss://wallet.example.com/socket', 'webSocket'],
      ['https://wallet.example.com.evil.test/', 'xhr'],
      ['https://user@wallet.example.com/', 'xhr'],
      ['http://wallet.example.com/', 'xhr'],
      ['not a url', 'xhr'],
    ]) {
      expect(session.request(url ?? '', type), url).toBe(false)
    }
    expect(win.options.webPreferences).toMatchObject({
      devTools: false,
      webSecurity: true,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
    })
  })

  it('opens with no preload, sandboxed, isolated, no Node, on the flow’s in-memory partition', () => {
    const { win, partitions, contents, session } = setup()
    expect(win.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      partition: 'wallet-f1',
    })
    expect(win.options.webPreferences).not.toHaveProperty('preload')
    expect(partitions).toEqual(['wallet-f1'])
    expect(win.options.webPreferences?.partition?.startsWith('persist:')).toBe(false)
    expect(isWalletSession(session)).toBe(true)
    expect(contents.loaded).toEqual([URL_WITH_KEY])
    expect(JSON.stringify([win.titles, win.options.title])).not.toContain(KEY)
  })

  it('restricts WebRTC to proxied routes before the page loads', () => {
    const { contents } = setup()
    expect(contents.webRtcPolicyAtLoad).toBe('disable_non_proxied_udp')
  })

  it('keeps its own title when the page sets one', () => {
    const { contents, win } = setup()
    const event = new FakeEvent()
    contents.emit('page-title-updated', event, URL_WITH_KEY)
    expect(event.prevented).toBe(true)
    expect(win.titles).toEqual(['Wallet link'])
  })

  it('allows the service, blocks another origin, closes the window and clears the session', async () => {
    const { contents, machine, win, session } = setup()
    const inside = new FakeEvent(`${SERVICE}/next`)
    contents.emit('will-navigate', inside)
    expect(inside.prevented).toBe(false)
    const away = new FakeEvent('https://evil.test/x')
    contents.emit('will-navigate', away)
    expect(away.prevented).toBe(true)
    expect(machine.end).toMatchObject({ outcome: 'blocked', reason: 'https://evil.test' })
    await settled()
    expect(win.closed).toBe(true)
    expect(session.cleared).toBeGreaterThan(0)
  })

  it('intercepts a server redirect to redirectUri and completes with its parameters', async () => {
    const { contents, machine, win } = setup()
    const redirect = new FakeEvent(`${REDIRECT}?result=success&refUserId=m1`)
    contents.emit('will-redirect', redirect)
    expect(redirect.prevented).toBe(true)
    expect(machine.end).toMatchObject({ outcome: 'completed', params: { refUserId: 'm1' } })
    await settled()
    expect(win.closed).toBe(true)
  })

  it('guards subframes only in will-frame-navigate', () => {
    const { contents, machine } = setup()
    const main = new FakeEvent('https://evil.test/', true)
    contents.emit('will-frame-navigate', main)
    expect(main.prevented).toBe(false)
    const frame = new FakeEvent('https://tracker.test/', false)
    contents.emit('will-frame-navigate', frame)
    expect(frame.prevented).toBe(true)
    expect(machine.end).toBeNull()
  })

  it('never opens a window: same-origin targets load here, others are refused', () => {
    const { contents } = setup()
    expect(contents.openHandler?.({ url: 'https://ads.test/' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: `${SERVICE}/help` })).toEqual({ action: 'deny' })
    expect(contents.loaded).toEqual([URL_WITH_KEY, `${SERVICE}/help`])
  })

  it('fails on a main-frame load failure or an HTTP error, not on a subframe’s', () => {
    const first = setup()
    first.contents.emit('did-fail-load', new FakeEvent(), -105, 'ERR_NAME_NOT_RESOLVED', '', false)
    expect(first.machine.end).toBeNull()
    first.contents.emit('did-fail-load', new FakeEvent(), -105, 'ERR_NAME_NOT_RESOLVED', '', true)
    expect(first.machine.end).toMatchObject({ outcome: 'failed', reason: 'unreachable' })
    const second = setup()
    second.contents.emit('did-navigate', new FakeEvent(), SERVICE, 500, 'Internal Server Error')
    expect(second.machine.end).toMatchObject({ outcome: 'failed', reason: 'http-500' })
  })

  it('cancels when the user closes the window', async () => {
    const { win, machine, session } = setup()
    win.close()
    expect(machine.end).toMatchObject({ outcome: 'cancelled', reason: 'closed' })
    await settled()
    expect(session.cleared).toBeGreaterThan(0)
  })

  it('refuses every permission, download and login prompt', () => {
    const { session, contents } = setup()
    const answer = vi.fn()
    ;(session.permission as unknown as (c: unknown, p: string, cb: (ok: boolean) => void) => void)(
      null,
      'notifications',
      answer,
    )
    expect(answer).toHaveBeenCalledWith(false)
    expect(session.check?.()).toBe(false)
    expect(session.device?.()).toBe(false)
    const item = { cancel: vi.fn() }
    const download = new FakeEvent()
    session.emit('will-download', download, item)
    expect(download.prevented).toBe(true)
    expect(item.cancel).toHaveBeenCalled()
    const login = new FakeEvent()
    const callback = vi.fn()
    contents.emit('login', login, {}, {}, callback)
    expect(login.prevented).toBe(true)
    expect(callback).toHaveBeenCalledWith()
  })
})
