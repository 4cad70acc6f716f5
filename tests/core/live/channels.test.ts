import { afterAll, beforeAll, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { closeToTrayDefault } from '../../../src/shared/profiles'
import { bootForTest, call, type TestCore } from '../helpers/core'

let core: TestCore
beforeAll(async () => {
  core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'live-channels' })
})
afterAll(async () => {
  await core.close()
})

it('live.status, live.pause and live.resume answer the schedule; the interval is a setting', async () => {
  // Tests boot without autoSync: the schedule is not started.
  expect((await call(core, 'live.status', {})).state).toBe('off')
  const paused = await call(core, 'live.pause', { minutes: 60 })
  expect(Date.parse(paused.pausedUntil ?? '') - Date.now()).toBeGreaterThan(59 * 60_000)
  const resumed = await call(core, 'live.resume', {})
  expect(resumed.pausedUntil).toBeNull()
  const view = await call(core, 'settings.set', { live: { intervalMinutes: 5 } })
  expect(view.live).toEqual({ intervalMinutes: 5, windowDays: 30, allAccounts: false })
  expect((await call(core, 'live.status', {})).intervalMinutes).toBe(5)
  expect((await call(core, 'settings.get', {})).live.intervalMinutes).toBe(5)
})

it('refuses a bad pause or interval with invalid_argument and keeps what was set', async () => {
  for (const [channel, args] of [
    ['live.pause', { minutes: 0 }],
    ['live.pause', { minutes: 1.5 }],
    ['live.pause', {}],
    ['settings.set', { live: { intervalMinutes: 0 } }],
    ['settings.set', { live: { intervalMinutes: 61 } }],
    ['settings.set', { live: { windowDays: 0 } }],
    ['settings.set', { live: { allAccounts: 'yes' } }],
    ['settings.set', { live: { allAccounts: null } }],
    ['settings.set', { live: { allAccounts: true, other: 1 } }],
    ['live.signal', { online: 'yes' }],
  ] as const) {
    const result = await core.router.dispatch(channel, args)
    expect(result.ok, `${channel} ${JSON.stringify(args)}`).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('invalid_argument')
  }
  expect((await call(core, 'settings.get', {})).live).toEqual({
    intervalMinutes: 5,
    windowDays: 30,
    allAccounts: false,
  })
  expect((await call(core, 'live.status', {})).pausedUntil).toBeNull()
})

it('keeps the desktop choices: close to the tray by platform, start at login off; bad input refused', async () => {
  const start = await call(core, 'settings.get', {})
  expect(start.desktop).toEqual({
    closeToTray: closeToTrayDefault(process.platform),
    startAtLogin: false,
  })
  expect([closeToTrayDefault('win32'), closeToTrayDefault('darwin')]).toEqual([true, true])
  expect(closeToTrayDefault('linux')).toBe(false)
  const view = await call(core, 'settings.set', { desktop: { startAtLogin: true } })
  expect(view.desktop).toEqual({ closeToTray: start.desktop.closeToTray, startAtLogin: true })
  await call(core, 'settings.set', { desktop: { closeToTray: !start.desktop.closeToTray } })
  for (const args of [
    { desktop: { startAtLogin: 'yes' } },
    { desktop: { closeToTray: null } },
    { desktop: { other: true } },
  ]) {
    const result = await core.router.dispatch('settings.set', args)
    expect(result.ok, JSON.stringify(args)).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('invalid_argument')
  }
  expect((await call(core, 'settings.get', {})).desktop).toEqual({
    closeToTray: !start.desktop.closeToTray,
    startAtLogin: true,
  })
})
