import { closeSync, openSync, readlinkSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'

/**
 * Whether a running desktop app holds its single-instance lock on a data
 * folder. The shell takes it with Electron's `app.requestSingleInstanceLock()`
 * (`src/main/index.ts`), which is Chromium's process singleton on the
 * `userData` folder:
 *
 * - Linux and macOS: a symbolic link `SingletonLock` in the folder whose
 *   target is `HOSTNAME-PID` of the holder. It stays behind after a crash, so
 *   it counts only while that process lives (or when another computer wrote
 *   it, which this one cannot check: a home folder shared over the network).
 * - Windows: a file `lockfile` in the folder that the holder keeps open for
 *   writing with reads shared only, and deletes on close: it cannot be opened
 *   for writing while held.
 */

/** What the check reads of the machine (the real ones in {@link machineProbe}, fakes in tests). */
export interface LockProbe {
  readonly platform: NodeJS.Platform
  readonly hostname: string
  /** A symbolic link's target, or null when there is no link. */
  readlink(path: string): string | null
  /** Whether a process of this id runs. */
  alive(pid: number): boolean
  /** Opening the file for writing: it worked, it is held by another process, or it is not there. */
  openForWriting(path: string): 'opened' | 'busy' | 'missing'
}

/** Whether a desktop app holds its single-instance lock on `dataDir`. */
export function desktopLockHeld(dataDir: string, probe: LockProbe): boolean {
  if (probe.platform === 'win32') return probe.openForWriting(join(dataDir, 'lockfile')) === 'busy'
  const target = probe.readlink(join(dataDir, 'SingletonLock'))
  if (target === null) return false
  const split = target.lastIndexOf('-')
  const host = split > 0 ? target.slice(0, split) : ''
  const pid = Number(target.slice(split + 1))
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  if (host !== probe.hostname) return true
  return probe.alive(pid)
}

/** This machine. */
export const machineProbe: LockProbe = {
  platform: process.platform,
  hostname: hostname(),
  readlink(path) {
    try {
      return readlinkSync(path)
    } catch {
      return null
    }
  },
  alive(pid) {
    try {
      process.kill(pid, 0)
      return true
    } catch (error) {
      // EPERM: it runs, under another user.
      return (error as NodeJS.ErrnoException).code === 'EPERM'
    }
  },
  openForWriting(path) {
    try {
      closeSync(openSync(path, 'r+'))
      return 'opened'
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      return code === 'ENOENT' ? 'missing' : 'busy'
    }
  },
}
