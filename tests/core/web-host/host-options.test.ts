import { describe, expect, it } from 'vitest'
import type { Router } from '../../../src/core/router'
import type { PartnerKind } from '../../../src/shared/domain'
import { WebHostRefusal, webHostSetup, type WebHostFlags } from '../../../src/web-host/host-options'
import {
  PRODUCTION_WALLET_MESSAGE,
  SANDBOX_ONLY_MESSAGE,
  webHostRouter,
} from '../../../src/web-host/host-router'

const places = {
  temporaryDir: () => '/tmp/appraisal-desk-web-x',
  userDataDir: '/home/u/.config/Appraisal Desk',
}

describe('web host setup', () => {
  it('by default: a temporary folder, an in-memory keychain, the Sandbox only', () => {
    expect(webHostSetup({}, places)).toEqual({
      dataDir: '/tmp/appraisal-desk-web-x/data',
      temporary: true,
      keychain: 'memory',
      sandboxOnly: true,
    })
  })

  it('--data-dir chooses the folder and keeps the rest', () => {
    expect(webHostSetup({ dataDir: '/srv/desk' }, places)).toEqual({
      dataDir: '/srv/desk',
      temporary: false,
      keychain: 'memory',
      sandboxOnly: true,
    })
  })

  it('--other-profiles with a --data-dir of its own: every profile, the keychain under its own name', () => {
    expect(webHostSetup({ dataDir: '/srv/desk', otherProfiles: true }, places)).toEqual({
      dataDir: '/srv/desk',
      temporary: false,
      keychain: 'system',
      sandboxOnly: false,
    })
  })

  it('never uses the desktop app’s own data folder, nor a folder inside it', () => {
    const refused: WebHostFlags[] = [
      { dataDir: places.userDataDir },
      { dataDir: `${places.userDataDir}/` },
      { dataDir: `${places.userDataDir}/cache/../` },
      { dataDir: `${places.userDataDir}/web`, otherProfiles: true },
      { otherProfiles: true },
    ]
    for (const flags of refused) {
      expect(() => webHostSetup(flags, places), JSON.stringify(flags)).toThrow(WebHostRefusal)
    }
    // A sibling whose name starts the same is another folder.
    expect(webHostSetup({ dataDir: `${places.userDataDir} (web)` }, places).dataDir).toBe(
      `${places.userDataDir} (web)`,
    )
  })
})

describe('the web host’s router', () => {
  /** A recording router: the guard's only collaborator. */
  function setup(
    sandboxOnly: boolean,
    active = 'sandbox',
    kind: PartnerKind | 'sandbox' = 'sandbox',
  ) {
    const calls: string[] = []
    const router: Router = {
      channels: ['profiles.select', 'wallet.start', 'profiles.list'],
      dispatch: (channel) => {
        calls.push(channel)
        return Promise.resolve({ ok: true, value: null })
      },
    }
    return {
      calls,
      guarded: webHostRouter(router, { sandboxOnly, active: () => ({ id: active, kind }) }),
    }
  }

  it('without --other-profiles refuses to make another profile active, with a message naming the flags', async () => {
    const { calls, guarded } = setup(true)
    for (const args of [{ id: 'p-1234' }, {}, null, 'sandbox']) {
      expect(await guarded.dispatch('profiles.select', args)).toEqual({
        ok: false,
        error: { code: 'invalid_argument', message: SANDBOX_ONLY_MESSAGE, reason: 'sandbox_only' },
      })
    }
    expect(SANDBOX_ONLY_MESSAGE).toContain('--other-profiles')
    expect(calls).toEqual([])
    expect((await guarded.dispatch('profiles.select', { id: 'sandbox' })).ok).toBe(true)
    expect((await guarded.dispatch('profiles.list', {})).ok).toBe(true)
    expect(calls).toEqual(['profiles.select', 'profiles.list'])
  })

  it('without --other-profiles starts no wallet flow while another profile is active', async () => {
    expect((await setup(true, 'p-1234', 'test').guarded.dispatch('wallet.start', {})).ok).toBe(
      false,
    )
    expect((await setup(true, 'sandbox').guarded.dispatch('wallet.start', {})).ok).toBe(true)
  })

  it('with --other-profiles runs wallet flows of test accounts, never of a production one', async () => {
    const test = setup(false, 'p-1234', 'test')
    expect((await test.guarded.dispatch('profiles.select', { id: 'p-9' })).ok).toBe(true)
    expect((await test.guarded.dispatch('wallet.start', {})).ok).toBe(true)
    const production = setup(false, 'p-5678', 'production')
    expect(await production.guarded.dispatch('wallet.start', {})).toEqual({
      ok: false,
      error: {
        code: 'invalid_argument',
        message: PRODUCTION_WALLET_MESSAGE,
        reason: 'production_wallet',
      },
    })
    expect(production.calls).toEqual([])
  })
})
