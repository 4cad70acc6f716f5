import { describe, expect, it } from 'vitest'
import {
  APP_DOCS_ORIGIN,
  APP_INDEX_URL,
  appEntryUrl,
  appOriginFor,
  decideExternalLink,
  isAppUrl,
  isTrustedSender,
  linkOrigins,
  type AppOrigin,
  type LinkAllowlist,
} from '../../../src/core/security/policy'

const built: AppOrigin = appOriginFor({ isPackaged: true, rendererUrl: undefined })
const dev: AppOrigin = { devServerOrigin: 'http://localhost:5173' }
const top = null

describe('where the window loads the app from', () => {
  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    const origin = appOriginFor({ isPackaged: true, rendererUrl: 'https://evil.test/' })
    expect(appEntryUrl(origin)).toBe(APP_INDEX_URL)
    expect(isTrustedSender({ url: 'https://evil.test/', parent: top }, origin)).toBe(false)
  })

  it('uses a loopback dev server in an unpackaged run, nothing else', () => {
    const origin = appOriginFor({ isPackaged: false, rendererUrl: 'http://localhost:5173' })
    expect(appEntryUrl(origin)).toBe('http://localhost:5173/')
    expect(isTrustedSender({ url: 'http://localhost:5173/#brands', parent: top }, origin)).toBe(
      true,
    )
    expect(appOriginFor({ isPackaged: false, rendererUrl: 'https://evil.test/' })).toEqual({})
    expect(appOriginFor({ isPackaged: false, rendererUrl: 'file:///tmp/x.html' })).toEqual({})
    expect(appOriginFor({ isPackaged: false, rendererUrl: undefined })).toEqual({})
  })
})

describe('IPC sender validation', () => {
  it.each([
    ['the app page', { url: APP_INDEX_URL, parent: top }, true],
    ['the app page with a fragment', { url: `${APP_INDEX_URL}#brands`, parent: top }, true],
    ['a subframe of the app page', { url: APP_INDEX_URL, parent: {} }, false],
    ['another app file', { url: 'app://renderer/assets/evil.html', parent: top }, false],
    ['another app host', { url: 'app://other/index.html', parent: top }, false],
    ['a local file', { url: 'file:///tmp/evil.html', parent: top }, false],
    [
      'the wallet page',
      { url: 'https://wallet.example.com/partner/x/key/wallet/u/pre-sync', parent: top },
      false,
    ],
    ['about:blank', { url: 'about:blank', parent: top }, false],
    ['an empty URL', { url: '', parent: top }, false],
  ])('%s → %s', (_name, frame, expected) => {
    expect(isTrustedSender(frame, built)).toBe(expected)
  })

  it('rejects a missing frame (destroyed or navigated away)', () => {
    expect(isTrustedSender(null, built)).toBe(false)
    expect(isTrustedSender(undefined, built)).toBe(false)
  })

  it('accepts only the dev server origin in development', () => {
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null }, dev)).toBe(true)
    expect(isTrustedSender({ url: 'http://localhost:5174/', parent: null }, dev)).toBe(false)
    expect(isTrustedSender({ url: APP_INDEX_URL, parent: null }, dev)).toBe(false)
    expect(isTrustedSender({ url: 'http://localhost.evil.com:5173/', parent: null }, dev)).toBe(
      false,
    )
  })
})

describe('navigation', () => {
  it('treats only the app page as in-app', () => {
    expect(isAppUrl('https://example.com', built)).toBe(false)
    expect(isAppUrl('javascript:alert(1)', built)).toBe(false)
  })

  it.each([
    ['the index page', APP_INDEX_URL, true],
    ['the root', 'app://renderer/', true],
    ['a dot-dot escape', 'app://renderer/../../../etc/passwd', false],
    ['an encoded dot-dot escape', 'app://renderer/%2e%2e/evil.html', false],
    ['a dot-dot back to the index', 'app://renderer/assets/../index.html', true],
    ['credentials in the address', 'app://user:pw@renderer/index.html', false],
    ['the built index as a file', 'file:///opt/app/out/renderer/index.html', false],
    ['a UNC share', 'file://attacker/share/x', false],
    ['another local file', 'file:///etc/passwd', false],
  ])('%s → %s', (_name, url, expected) => {
    expect(isAppUrl(url, built)).toBe(expected)
    expect(isTrustedSender({ url, parent: null }, built)).toBe(expected)
  })
})

describe('links to the system browser', () => {
  const allowlist: LinkAllowlist = {
    origins: linkOrigins({
      baseUrl: 'https://partner.good.example/api',
      staticUrl: 'https://static.good.example',
    }),
  }

  it('allowlists the https service hosts and the docs host, never a loopback sandbox', () => {
    expect(allowlist.origins).toEqual([
      APP_DOCS_ORIGIN,
      'https://partner.good.example',
      'https://static.good.example',
    ])
    expect(
      linkOrigins({ baseUrl: 'http://127.0.0.1:4010', staticUrl: 'http://127.0.0.1:4010/static' }),
    ).toEqual([APP_DOCS_ORIGIN])
  })

  it.each([
    ['https://partner.good.example/help?x=1', 'partner.good.example'],
    ['https://static.good.example/card.png', 'static.good.example'],
    ['HTTPS://PARTNER.GOOD.EXAMPLE/Help', 'partner.good.example'],
    ['https://partner.good.example:443/help', 'partner.good.example'],
    [`${APP_DOCS_ORIGIN}/guide/links`, new URL(APP_DOCS_ORIGIN).host],
    ['https://partner.good.example\\@evil.test/', 'partner.good.example'],
  ])('asks before opening %s, naming %s', (url, host) => {
    const decision = decideExternalLink(url, allowlist)
    expect(decision).toMatchObject({ action: 'ask', host })
  })

  it('opens without asking once the user agreed to the origin for this session', () => {
    const confirmed = new Set(['https://partner.good.example'])
    expect(
      decideExternalLink('https://partner.good.example/a', { ...allowlist, confirmed }),
    ).toEqual({
      action: 'allow',
      url: 'https://partner.good.example/a',
      host: 'partner.good.example',
    })
    expect(
      decideExternalLink('https://static.good.example/a', { ...allowlist, confirmed }).action,
    ).toBe('ask')
  })

  it.each([
    // look-alike hosts
    ['https://partner.good.example.evil.test/', 'host', 'partner.good.example.evil.test'],
    ['https://partner-good.example/', 'host', 'partner-good.example'],
    ['https://evil.partner.good.example/', 'host', 'evil.partner.good.example'],
    ['https://good.example/', 'host', 'good.example'],
    ['https://partner.good.example./', 'host', 'partner.good.example.'],
    ['https://partner.good.examp1e/', 'host', 'partner.good.examp1e'],
    // user-info tricks
    ['https://partner.good.example@evil.test/', 'credentials', 'evil.test'],
    ['https://partner.good.example:443@evil.test/', 'credentials', 'evil.test'],
    ['https://user:pass@partner.good.example/', 'credentials', 'partner.good.example'],
    // IDN homographs: Cyrillic а and о, shown in punycode
    ['https://p\u0430rtner.good.example/', 'host', 'xn--prtner-3nf.good.example'],
    ['https://partner.g\u043e\u043ed.example/', 'host', 'partner.xn--gd-fmca.example'],
    // ports
    ['https://partner.good.example:8443/', 'host', 'partner.good.example:8443'],
    ['https://partner.good.example:80/', 'host', 'partner.good.example:80'],
    // other schemes
    ['http://partner.good.example/', 'scheme', 'partner.good.example'],
    ['javascript:alert(document.cookie)', 'scheme', undefined],
    ['data:text/html,<script>alert(1)</script>', 'scheme', undefined],
    ['file:///etc/passwd', 'scheme', undefined],
    ['file://attacker/share/x', 'scheme', 'attacker'],
    ['smb://partner.good.example/share', 'scheme', 'partner.good.example'],
    ['ms-msdt:/id PCWDiagnostic /skip force', 'scheme', undefined],
    ['wss://partner.good.example/', 'scheme', 'partner.good.example'],
    ['about:blank', 'scheme', undefined],
    ['not a url', 'not_url', undefined],
    ['', 'not_url', undefined],
  ])('refuses %s (%s)', (url, reason, host) => {
    const decision = decideExternalLink(url, allowlist)
    expect(decision).toEqual(
      host === undefined ? { action: 'refuse', reason } : { action: 'refuse', reason, host },
    )
  })

  it('refuses every https link when nothing is allowlisted, and ignores non-https allowlist entries', () => {
    expect(decideExternalLink('https://example.com/', { origins: [] }).action).toBe('refuse')
    expect(
      decideExternalLink('http://127.0.0.1:4010/', { origins: ['http://127.0.0.1:4010'] }).action,
    ).toBe('refuse')
    expect(
      decideExternalLink('https://evil.test/', { origins: ['not a url', 'javascript:x'] }).action,
    ).toBe('refuse')
  })

  it('a wallet page calling window.open or following target=_blank gets the same decision', () => {
    // No page gets a new window (every setWindowOpenHandler answers `deny`); a URL handed to the
    // system browser goes through this decision: an allowlisted https host only, after asking.
    const wallet = {
      origins: linkOrigins({
        baseUrl: 'https://wallet.good.example',
        staticUrl: 'https://static.good.example',
      }),
    }
    expect(decideExternalLink('https://wallet.good.example/terms', wallet).action).toBe('ask')
    expect(decideExternalLink('https://phish.test/login', wallet).action).toBe('refuse')
    expect(decideExternalLink('http://wallet.good.example/terms', wallet).action).toBe('refuse')
    expect(
      decideExternalLink('javascript:opener.location="https://phish.test"', wallet).action,
    ).toBe('refuse')
  })
})
