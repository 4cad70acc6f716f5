import { mkdtempSync, symlinkSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { desktopLockHeld, machineProbe, type LockProbe } from '../../../src/web-host/desktop-lock'

/** A machine where `links` are the symbolic links, `running` the process ids and `busy` the held files. */
function fake(
  platform: NodeJS.Platform,
  seen: { links?: Record<string, string>; running?: number[]; busy?: string[]; files?: string[] },
): LockProbe {
  return {
    platform,
    hostname: 'counter-pc',
    readlink: (path) => seen.links?.[path] ?? null,
    alive: (pid) => seen.running?.includes(pid) ?? false,
    openForWriting: (path) =>
      seen.busy?.includes(path) ? 'busy' : seen.files?.includes(path) ? 'opened' : 'missing',
  }
}

describe('the desktop app’s single-instance lock, seen from the web host', () => {
  const dir = '/home/u/.config/Appraisal Desk'
  const link = join(dir, 'SingletonLock')

  it('is held while the process its SingletonLock names runs (Linux, macOS)', () => {
    const links = { [link]: 'counter-pc-4242' }
    expect(desktopLockHeld(dir, fake('linux', { links, running: [4242] }))).toBe(true)
    expect(desktopLockHeld(dir, fake('darwin', { links, running: [4242] }))).toBe(true)
    // Left behind by a crash: that process is gone.
    expect(desktopLockHeld(dir, fake('linux', { links, running: [1] }))).toBe(false)
    expect(desktopLockHeld(dir, fake('linux', { running: [4242] }))).toBe(false)
  })

  it('counts a lock another computer took as held (a shared home folder), a malformed one not', () => {
    expect(desktopLockHeld(dir, fake('linux', { links: { [link]: 'front-desk-17' } }))).toBe(true)
    expect(desktopLockHeld(dir, fake('linux', { links: { [link]: 'nonsense' } }))).toBe(false)
  })

  it('is held on Windows while its lockfile cannot be opened for writing', () => {
    const file = join(dir, 'lockfile')
    expect(desktopLockHeld(dir, fake('win32', { busy: [file] }))).toBe(true)
    expect(desktopLockHeld(dir, fake('win32', { files: [file] }))).toBe(false)
    expect(desktopLockHeld(dir, fake('win32', {}))).toBe(false)
  })

  it('reads a real SingletonLock on this machine', () => {
    const held = mkdtempSync(join(tmpdir(), 'ad-lock-'))
    symlinkSync(`${hostname()}-${process.pid}`, join(held, 'SingletonLock'))
    expect(desktopLockHeld(held, { ...machineProbe, platform: 'linux' })).toBe(true)
    const stale = mkdtempSync(join(tmpdir(), 'ad-lock-'))
    // No process has the largest pid Linux allows plus one.
    symlinkSync(`${hostname()}-4194305`, join(stale, 'SingletonLock'))
    expect(desktopLockHeld(stale, { ...machineProbe, platform: 'linux' })).toBe(false)
    expect(desktopLockHeld(mkdtempSync(join(tmpdir(), 'ad-lock-')), machineProbe)).toBe(false)
  })
})
