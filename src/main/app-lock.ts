import type { LockReason } from '../shared/lock'

/** What the shell needs of core's lock (`src/core/lock/app-lock.ts` decides everything). */
interface LockTarget {
  lockNow(reason: LockReason): unknown
}

/** The OS events the lock follows. */
type OsLockEvent = 'lock-screen' | 'suspend'

/** What the wiring uses of Electron's `powerMonitor` (index.ts passes the real one, checked against its `.d.ts`). */
interface OsLockSource {
  on(event: OsLockEvent, listener: () => void): unknown
  removeListener(event: OsLockEvent, listener: () => void): unknown
}

let target: LockTarget | null = null

/**
 * Wires the OS to core's app lock (docs/security.md "The app lock"): the
 * screen locking (`lock-screen`, macOS and Windows) and the computer going
 * to sleep (`suspend`) lock the app. Returns the function that unwires it.
 * https://www.electronjs.org/docs/latest/api/power-monitor#events
 */
export function wireAppLock(powerMonitor: OsLockSource, lock: LockTarget): () => void {
  target = lock
  const onOsLock = (): void => void lock.lockNow('os')
  powerMonitor.on('lock-screen', onOsLock)
  powerMonitor.on('suspend', onOsLock)
  return () => {
    powerMonitor.removeListener('lock-screen', onOsLock)
    powerMonitor.removeListener('suspend', onOsLock)
    if (target === lock) target = null
  }
}

/**
 * Locks the app now, from main (the menu's Lock now, the tray): core locks
 * and tells the window, even when the page itself is busy. Nothing happens
 * before core is up or without a PIN.
 */
export function lockApp(): void {
  target?.lockNow('user')
}
