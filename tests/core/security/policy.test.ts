import { describe, expect, it } from 'vitest'
import {
  isAppUrl,
  isExternalLinkAllowed,
  isTrustedSender,
  type AppOrigin,
} from '../../../src/core/security/policy'

const built: AppOrigin = {
  indexFileUrl: 'file:///opt/Appraisal%20Desk/resources/app.asar/out/renderer/index.html',
}
const dev: AppOrigin = { devServerOrigin: 'http://localhost:5173' }
const top = null

describe('IPC sender validation (FAULTS 40)', () => {
  it.each([
    [
      'the app page',
      {
        url: 'file:///opt/Appraisal%20Desk/resources/app.asar/out/renderer/index.html',
        parent: top,
      },
      true,
    ],
    [
      'the app page with a fragment',
      {
        url: 'file:///opt/Appraisal%20Desk/resources/app.asar/out/renderer/index.html#brands',
        parent: top,
      },
      true,
    ],
    [
      'a subframe of the app page',
      {
        url: 'file:///opt/Appraisal%20Desk/resources/app.asar/out/renderer/index.html',
        parent: {},
      },
      false,
    ],
    ['another local file', { url: 'file:///tmp/evil.html', parent: top }, false],
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
    expect(isTrustedSender({ url: 'http://localhost.evil.com:5173/', parent: null }, dev)).toBe(
      false,
    )
  })
})

describe('navigation and external links', () => {
  it('treats only the app page as in-app', () => {
    expect(isAppUrl('https://example.com', built)).toBe(false)
    expect(isAppUrl('javascript:alert(1)', built)).toBe(false)
  })

  it.each([
    ['https://example.com/help', true],
    ['http://example.com', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://server/share', false],
    ['https://user:pass@example.com', false],
    ['not a url', false],
  ])('system browser may open %s → %s', (url, expected) => {
    expect(isExternalLinkAllowed(url)).toBe(expected)
  })
})
