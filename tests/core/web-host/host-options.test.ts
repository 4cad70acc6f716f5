import { describe, expect, it } from 'vitest'
import type { Router } from '../../../src/core/router'
import { webHostSetup } from '../../../src/web-host/host-options'
import { SANDBOX_ONLY_MESSAGE, sandboxOnlyRouter } from '../../../src/web-host/sandbox-only'

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

  it('--allow-real-profiles uses the app’s folder and keychain and every profile', () => {
    expect(webHostSetup({ allowRealProfiles: true }, places)).toEqual({
      dataDir: '/home/u/.config/Appraisal Desk',
      temporary: false,
      keychain: 'system',
      sandboxOnly: false,
    })
  })
})

describe('the web host’s router without --allow-real-profiles', () => {
  /** A recording router: the guard's only collaborator. */
  function setup(active = 'sandbox') {
    const calls: string[] = []
    const router: Router = {
      channels: ['profiles.select', 'wallet.start', 'profiles.list'],
      dispatch: (channel) => {
        calls.push(channel)
        return Promise.resolve({ ok: true, value: null })
      },
    }
    return { calls, guarded: sandboxOnlyRouter(router, () => active) }
  }

  it('refuses to make another profile active, with a message naming the flag', async () => {
    const { calls, guarded } = setup()
    for (const args of [{ id: 'p-1234' }, {}, null, 'sandbox']) {
      expect(await guarded.dispatch('profiles.select', args)).toEqual({
        ok: false,
        error: { code: 'invalid_argument', message: SANDBOX_ONLY_MESSAGE, reason: 'sandbox_only' },
      })
    }
    expect(calls).toEqual([])
    expect((await guarded.dispatch('profiles.select', { id: 'sandbox' })).ok).toBe(true)
    expect((await guarded.dispatch('profiles.list', {})).ok).toBe(true)
    expect(calls).toEqual(['profiles.select', 'profiles.list'])
  })

  it('starts no wallet flow while another profile is active', async () => {
    expect((await setup('p-1234').guarded.dispatch('wallet.start', {})).ok).toBe(false)
    expect((await setup('sandbox').guarded.dispatch('wallet.start', {})).ok).toBe(true)
  })
})
