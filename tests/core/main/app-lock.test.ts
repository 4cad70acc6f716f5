import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { lockApp, wireAppLock } from '../../../src/main/app-lock'
import type { LockReason } from '../../../src/shared/lock'

/** A stand-in for Electron's powerMonitor: an EventEmitter, as the real one is. */
function fakePowerMonitor() {
  return new EventEmitter()
}

describe("the shell's wiring of the app lock", () => {
  it('locks on the OS screen lock and on sleep, and stops when unwired', () => {
    const monitor = fakePowerMonitor()
    const reasons: LockReason[] = []
    const unwire = wireAppLock(monitor, { lockNow: (reason) => reasons.push(reason) })
    monitor.emit('lock-screen')
    monitor.emit('suspend')
    monitor.emit('resume')
    monitor.emit('unlock-screen')
    expect(reasons).toEqual(['os', 'os'])
    unwire()
    monitor.emit('suspend')
    expect(reasons).toEqual(['os', 'os'])
    expect(monitor.listenerCount('suspend') + monitor.listenerCount('lock-screen')).toBe(0)
  })

  it('gives the tray and the menu one function that locks now, once core is wired', () => {
    const reasons: LockReason[] = []
    lockApp()
    const unwire = wireAppLock(fakePowerMonitor(), { lockNow: (reason) => reasons.push(reason) })
    lockApp()
    expect(reasons).toEqual(['user'])
    unwire()
    lockApp()
    expect(reasons).toEqual(['user'])
  })
})
