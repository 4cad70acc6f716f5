import { describe, expect, it } from 'vitest'
import {
  loadFailureReason,
  WalletFlowMachine,
  type WalletEvent,
  type WalletVerdict,
} from '../../../src/core/wallet/flow-machine'

const SERVICE = 'https://wallet.example.com'
const STATIC = 'https://static.example.com'
const REDIRECT = 'https://redirect.example.com/wallet/done'

function machine(): WalletFlowMachine {
  return new WalletFlowMachine({ allowedOrigins: [SERVICE, STATIC], redirectUri: REDIRECT })
}

function run(events: readonly WalletEvent[]): { verdicts: WalletVerdict[]; m: WalletFlowMachine } {
  const m = machine()
  return { verdicts: events.map((event) => m.handle(event)), m }
}

const nav = (url: string, via: 'navigate' | 'redirect' | 'frame' | 'open' = 'navigate') =>
  ({ type: 'navigate', url, via }) as const

describe('wallet flow state machine', () => {
  it('follows a redirect chain within the service and completes on redirectUri with its parameters', () => {
    const { verdicts, m } = run([
      nav(`${SERVICE}/login`, 'redirect'),
      { type: 'loaded', status: 200 },
      nav(`${SERVICE}/partner/p/k/wallet/u/pre-sync/complete`),
      nav(`${STATIC}/card.png`, 'frame'),
      nav(`${REDIRECT}?result=success&refUserId=u1&linkedAt=2026-01-01`, 'redirect'),
    ])
    expect(verdicts.slice(0, 4).map((v) => v.action)).toEqual(['allow', 'allow', 'allow', 'allow'])
    expect(verdicts[4]).toEqual({
      action: 'deny',
      ended: {
        outcome: 'completed',
        reason: null,
        params: { result: 'success', refUserId: 'u1', linkedAt: '2026-01-01' },
      },
    })
    expect(m.end?.outcome).toBe('completed')
  })

  it('completes on redirectUri without parameters (and ignores the fragment)', () => {
    const { verdicts } = run([nav(`${REDIRECT}#x`)])
    expect(verdicts[0]?.ended).toEqual({ outcome: 'completed', reason: null, params: {} })
  })

  it('reads a cancel reported by the service as cancelled', () => {
    const { verdicts } = run([nav(`${REDIRECT}?result=cancel&refUserId=u1`, 'redirect')])
    expect(verdicts[0]?.ended).toMatchObject({ outcome: 'cancelled', reason: 'service' })
  })

  it.each([
    [
      'look-alike host',
      'https://redirect.example.com.evil.test/wallet/done?result=success',
      'https://redirect.example.com.evil.test',
    ],
    [
      'user info',
      'https://redirect.example.com@evil.test/wallet/done?result=success',
      'https://evil.test',
    ],
    [
      'another scheme',
      'http://redirect.example.com/wallet/done?result=success',
      'http://redirect.example.com',
    ],
    [
      'another port',
      'https://redirect.example.com:8443/wallet/done?result=success',
      'https://redirect.example.com:8443',
    ],
    ['off-origin page', 'https://phish.test/login', 'https://phish.test'],
    ['service host as user info', 'https://wallet.example.com@evil.test/', 'https://evil.test'],
    ['a data: page', 'data:text/html,<h1>x</h1>', 'data:'],
  ])('blocks a %s and names its origin', (_name, url, origin) => {
    for (const via of ['navigate', 'redirect'] as const) {
      const { verdicts, m } = run([nav(url, via)])
      expect(verdicts[0]).toEqual({
        action: 'deny',
        ended: { outcome: 'blocked', reason: origin, params: {} },
      })
      expect(m.end?.outcome).toBe('blocked')
    }
  })

  it('does not complete on another path of the redirect host', () => {
    const { verdicts } = run([nav('https://redirect.example.com/wallet/done-not?result=success')])
    expect(verdicts[0]?.ended?.outcome).toBe('blocked')
  })

  it('denies window.open elsewhere, loads a same-origin one in the same window, completes on redirectUri', () => {
    const m = machine()
    expect(m.handle(nav('https://ads.test/x', 'open'))).toEqual({ action: 'deny' })
    expect(m.end).toBeNull()
    expect(m.handle(nav(`${SERVICE}/help`, 'open'))).toEqual({ action: 'load-here' })
    expect(m.handle(nav(`${REDIRECT}?result=success`, 'open')).ended?.outcome).toBe('completed')
  })

  it('denies a subframe going elsewhere without ending the flow', () => {
    const m = machine()
    expect(m.handle(nav('https://tracker.test/frame', 'frame'))).toEqual({ action: 'deny' })
    expect(m.end).toBeNull()
  })

  it('ends once: a second completion, a close or a timeout after it change nothing', () => {
    const m = machine()
    const first = m.handle(nav(`${REDIRECT}?result=success&n=1`))
    expect(first.ended?.params).toEqual({ result: 'success', n: '1' })
    const later: WalletEvent[] = [
      nav(`${REDIRECT}?result=success&n=2`),
      { type: 'closed' },
      { type: 'timeout' },
      { type: 'load-failed', code: -105 },
      nav(`${SERVICE}/again`),
    ]
    for (const event of later) expect(m.handle(event)).toEqual({ action: 'deny' })
    expect(m.end).toEqual(first.ended)
  })

  it('ends cancelled when the window is closed, or staff cancel', () => {
    expect(run([{ type: 'closed' }]).m.end).toEqual({
      outcome: 'cancelled',
      reason: 'closed',
      params: {},
    })
    expect(run([{ type: 'cancel' }]).m.end?.reason).toBe('staff')
  })

  it('ends timed_out on timeout', () => {
    expect(run([nav(`${SERVICE}/x`), { type: 'timeout' }]).m.end).toEqual({
      outcome: 'timed_out',
      reason: null,
      params: {},
    })
  })

  it('ends failed on a load failure or an HTTP error, with a plain reason code', () => {
    expect(run([{ type: 'load-failed', code: -105 }]).m.end?.reason).toBe('unreachable')
    expect(run([{ type: 'load-failed', code: -202 }]).m.end?.reason).toBe('tls')
    expect(run([{ type: 'load-failed', code: -27 }]).m.end?.reason).toBe('refused')
    expect(run([{ type: 'loaded', status: 503 }]).m.end).toEqual({
      outcome: 'failed',
      reason: 'http-503',
      params: {},
    })
    expect(loadFailureReason(-106)).toBe('offline')
    expect(loadFailureReason(-999)).toBe('load-999')
  })

  it('ignores ERR_ABORTED, which a denied navigation causes', () => {
    const m = machine()
    expect(m.handle({ type: 'load-failed', code: -3 })).toEqual({ action: 'allow' })
    expect(m.end).toBeNull()
  })

  it('refuses a redirectUri that is not an address', () => {
    expect(
      () => new WalletFlowMachine({ allowedOrigins: [SERVICE], redirectUri: 'not a url' }),
    ).toThrow()
  })
})
