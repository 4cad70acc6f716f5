import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { Session } from 'electron'
import { APP_INDEX_URL } from '../../../src/core/security/policy'

/**
 * The shell's app-wide defaults (`src/main/security.ts`) with `electron`
 * replaced by a small fake (no Electron binary here): what a page gets when
 * it opens a window or navigates, and what the
 * session answers to permission requests.
 */
type Listener = (...args: unknown[]) => void
const appListeners = new Map<string, Listener>()
vi.mock('electron', () => ({
  app: { on: (event: string, listener: Listener) => appListeners.set(event, listener) },
}))

const opened: string[] = []
const logged: string[] = []
const session = {
  permissionRequest: null as Listener | null,
  permissionCheck: null as ((...args: unknown[]) => boolean) | null,
  headers: null as Listener | null,
  events: new Map<string, Listener>(),
  on(event: string, listener: Listener) {
    session.events.set(event, listener)
  },
  setPermissionRequestHandler(handler: Listener) {
    this.permissionRequest = handler
  },
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean) {
    this.permissionCheck = handler
  },
  webRequest: {
    onHeadersReceived(handler: Listener) {
      session.headers = handler
    },
  },
}

/** A fake web contents: records its handlers so the test can play a page's moves. */
function fakeContents() {
  const on = new Map<string, Listener>()
  let openHandler: ((details: { url: string }) => { action: string }) | null = null
  return {
    on: (event: string, listener: Listener) => on.set(event, listener),
    setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => {
      openHandler = handler
    },
    open: (url: string) => openHandler?.({ url }),
    navigate(url: string): boolean {
      let prevented = false
      on.get('will-navigate')?.({ url, preventDefault: () => (prevented = true) })
      return prevented
    },
    attachWebview(): boolean {
      let prevented = false
      on.get('will-attach-webview')?.({ preventDefault: () => (prevented = true) })
      return prevented
    },
  }
}

const index = APP_INDEX_URL

beforeAll(async () => {
  const { installSecurityDefaults } = await import('../../../src/main/security')
  installSecurityDefaults(
    session as unknown as Session,
    {},
    (url) => opened.push(url),
    () => false,
    (line) => logged.push(line),
  )
})

function page() {
  const contents = fakeContents()
  appListeners.get('web-contents-created')?.({}, contents)
  return contents
}

describe('shell security defaults', () => {
  it('never gives a page a new window; the URL goes to the link opener, which decides', () => {
    const contents = page()
    for (const url of [
      'https://partner.good.example/help',
      'https://evil.test/',
      'javascript:alert(1)',
      'file://attacker/share/x',
    ]) {
      expect(contents.open(url)).toEqual({ action: 'deny' })
    }
    expect(opened).toEqual([
      'https://partner.good.example/help',
      'https://evil.test/',
      'javascript:alert(1)',
      'file://attacker/share/x',
    ])
  })

  it('lets a page navigate only to the app page, never to a UNC path or the web', () => {
    const contents = page()
    expect(contents.navigate(`${index}#brands`)).toBe(false)
    expect(
      contents.navigate('file:///opt/Appraisal%20Desk/resources/app.asar/out/renderer/index.html'),
    ).toBe(true)
    expect(contents.navigate('file://attacker/share/index.html')).toBe(true)
    expect(contents.navigate('https://evil.test/')).toBe(true)
    expect(contents.navigate('file:///etc/passwd')).toBe(true)
    expect(contents.attachWebview()).toBe(true)
  })

  it('refuses every permission and sets the CSP on every response', () => {
    const answers: boolean[] = []
    session.permissionRequest?.({}, 'notifications', (granted: boolean) => answers.push(granted))
    expect(answers).toEqual([false])
    expect(session.permissionCheck?.({}, 'hid')).toBe(false)
    let headers: Record<string, string[]> = {}
    session.headers?.(
      { responseHeaders: { 'Content-Security-Policy': ['default-src *'] } },
      (result: { responseHeaders: Record<string, string[]> }) => {
        headers = result.responseHeaders
      },
    )
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'")
    expect(headers['X-Content-Type-Options']).toEqual(['nosniff'])
  })

  it('cancels every download in the app session', () => {
    let prevented = false
    let cancelled = false
    session.events.get('will-download')?.(
      { preventDefault: () => (prevented = true) },
      { cancel: () => (cancelled = true) },
    )
    expect([prevented, cancelled]).toEqual([true, true])
  })

  it('hands no client certificate to a site that asks for one', () => {
    let prevented = false
    const picked: unknown[][] = []
    appListeners.get('select-client-certificate')?.(
      { preventDefault: () => (prevented = true) },
      {},
      'https://partner.good.example/',
      [{ subjectName: 'staff' }],
      (...certificate: unknown[]) => picked.push(certificate),
    )
    expect(prevented).toBe(true)
    expect(picked).toEqual([[]])
  })

  it('refuses every certificate error, explicitly, and logs the origin without the path', () => {
    let prevented = false
    const answers: boolean[] = []
    appListeners.get('certificate-error')?.(
      { preventDefault: () => (prevented = true) },
      {},
      'https://partner.example.com/partner/p1/sk_live_KEY/wallet/m1',
      'net::ERR_CERT_AUTHORITY_INVALID',
      {},
      (trusted: boolean) => answers.push(trusted),
      false,
    )
    expect(prevented).toBe(true)
    expect(answers).toEqual([false])
    expect(logged).toEqual([
      '[security] refused an untrusted certificate for https://partner.example.com: net::ERR_CERT_AUTHORITY_INVALID',
    ])
  })
})
