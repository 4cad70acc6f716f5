import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AppLock,
  FIRST_WAIT_MS,
  waitAfter,
  type AppLockOptions,
} from '../../../src/core/lock/app-lock'
import { parsePinRecord, PIN_SCRYPT } from '../../../src/core/lock/pin-hash'
import { isAppError } from '../../../src/core/app-error'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { SecureStore } from '../../../src/core/vault/secure-store'
import { Vault } from '../../../src/core/vault/vault'

/**
 * The lock's decisions on a fake clock (vitest's fake timers move `Date` and
 * `setTimeout` together). The entry goes through the real Vault over an
 * in-memory keychain; the core suite (lock-channels.test.ts) runs it over
 * the real keychain with the app's hash cost. Here PINs are hashed with a
 * smaller scrypt N (2^10), except where the stored record is checked.
 */
const PIN = '2580'
let keychain: MemoryStore
let vault: Vault
let idleSeconds: number
/** The settings' `lockPinSet`, kept across the locks of one test as the settings file would. */
let pinFlag: boolean
const locks: AppLock[] = []

function makeLock(overrides: Partial<AppLockOptions> = {}): AppLock {
  const lock = new AppLock({
    store: vault,
    idleSeconds: () => idleSeconds,
    pinFlag: {
      get: () => pinFlag,
      set: (value) => {
        pinFlag = value
      },
    },
    now: () => new Date(),
    secretReset: { available: () => true, matches: async (secret) => secret === 'the-secret' },
    eraseData: async () => undefined,
    pinCost: 2 ** 10,
    ...overrides,
  })
  locks.push(lock)
  return lock
}

/** A lock with {@link PIN} set, unlocked. */
async function withPin(): Promise<AppLock> {
  const lock = makeLock()
  await lock.ready()
  await lock.setPin(PIN, undefined)
  return lock
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(new Date('2026-03-02T09:00:00Z'))
  keychain = new MemoryStore()
  vault = new Vault({ keychain, service: 'lock-test' })
  idleSeconds = 600
  pinFlag = false
})

afterEach(() => {
  for (const lock of locks.splice(0)) lock.close()
  vi.useRealTimers()
})

describe('the app lock', () => {
  it('never locks without a PIN, and refuses nothing', async () => {
    const lock = makeLock()
    await lock.ready()
    expect(lock.status()).toMatchObject({ pinSet: false, locked: false })
    lock.lockNow('user')
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(lock.isLocked()).toBe(false)
    await expect(lock.guard('inspections.query')).resolves.toBeUndefined()
  })

  it('locks after the idle time; input postpones it; 0 turns it off', async () => {
    const lock = await withPin()
    const heard: boolean[] = []
    lock.subscribe((status) => heard.push(status.locked))
    await vi.advanceTimersByTimeAsync(599_000)
    lock.activity()
    await vi.advanceTimersByTimeAsync(599_000)
    expect(lock.isLocked()).toBe(false)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(lock.status()).toMatchObject({ locked: true, reason: 'idle' })
    expect(heard).toEqual([true])
    await expect(lock.guard('inspections.query')).rejects.toSatisfy((error) =>
      isAppError(error, 'locked'),
    )
    // The lock's own channels and the settings the lock screen paints with stay open.
    await expect(lock.guard('lock.unlock')).resolves.toBeUndefined()
    await expect(lock.guard('settings.get')).resolves.toBeUndefined()

    expect((await lock.unlock(PIN)).unlocked).toBe(true)
    idleSeconds = 0
    lock.idleChanged()
    await vi.advanceTimersByTimeAsync(86_400_000)
    expect(lock.isLocked()).toBe(false)
  })

  it('locks now, runs onLock (wallet flows end), and unlocks only with the PIN', async () => {
    const onLock = vi.fn()
    const lock = makeLock({ onLock })
    await lock.ready()
    await lock.setPin(PIN, undefined)
    expect(lock.lockNow('user')).toMatchObject({ locked: true, reason: 'user' })
    expect(onLock).toHaveBeenCalledTimes(1)
    expect(await lock.unlock('0000')).toMatchObject({
      unlocked: false,
      status: { locked: true, failures: 1 },
    })
    expect(await lock.unlock(PIN)).toMatchObject({
      unlocked: true,
      status: { locked: false, failures: 0 },
    })
  })

  it('starts locked when a PIN is stored, so quitting and starting again opens nothing', async () => {
    await withPin()
    const restarted = makeLock()
    expect(restarted.isLocked()).toBe(true)
    await expect(restarted.guard('inspections.query')).rejects.toSatisfy((error) =>
      isAppError(error, 'locked'),
    )
    expect(restarted.status()).toMatchObject({ locked: true, reason: 'start', pinSet: true })
  })

  it('fails closed when the keychain cannot be read at start', async () => {
    const broken: SecureStore = {
      backend: 'broken',
      get: async () => {
        throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
      },
      set: async () => undefined,
      delete: async () => false,
      find: async () => [],
    }
    vault = new Vault({ keychain: broken, service: 'lock-test' })
    pinFlag = true
    const lock = makeLock()
    await lock.ready()
    expect(lock.status()).toMatchObject({ locked: true, pinSet: true })
    await expect(lock.unlock(PIN)).rejects.toSatisfy((error) =>
      isAppError(error, 'keychain_unavailable'),
    )
    expect(lock.isLocked()).toBe(true)

    // Without a PIN in the settings the app opens at once, keychain or not (docs/faults.md F19).
    pinFlag = false
    const open = makeLock()
    await open.ready()
    expect(open.isLocked()).toBe(false)
    await expect(open.guard('inspections.query')).resolves.toBeUndefined()
  })

  it('locks at start when the keychain holds a PIN the settings forgot', async () => {
    await withPin()
    expect(pinFlag).toBe(true)
    pinFlag = false
    const restarted = makeLock()
    const heard: boolean[] = []
    restarted.subscribe((status) => heard.push(status.locked))
    await vi.waitFor(() => expect(heard).toEqual([true]))
    expect(restarted.status()).toMatchObject({ locked: true, reason: 'start', pinSet: true })
    expect(pinFlag).toBe(true)
    expect((await restarted.unlock(PIN)).unlocked).toBe(true)
  })

  it('makes each entry after the fifth wrong one wait longer, even the right PIN, and keeps the count over a restart', async () => {
    const lock = await withPin()
    lock.lockNow('user')
    for (let failures = 1; failures <= 4; failures += 1) {
      expect(await lock.unlock('9999')).toMatchObject({
        unlocked: false,
        status: { failures, retryAt: null },
      })
    }
    const fifth = await lock.unlock('9999')
    expect(fifth.status.failures).toBe(5)
    expect(Date.parse(fifth.status.retryAt ?? '')).toBe(Date.now() + FIRST_WAIT_MS)

    // During the wait nothing is checked, not even the right PIN.
    const early = await lock.unlock(PIN).catch((error: unknown) => error)
    expect(isAppError(early, 'locked')).toBe(true)
    expect((early as { retryAt?: string }).retryAt).toBe(fifth.status.retryAt)
    expect(lock.isLocked()).toBe(true)

    // The count lives in the keychain entry beside the hash: a restart keeps the wait.
    const restarted = makeLock()
    await restarted.ready()
    expect(restarted.status()).toMatchObject({ failures: 5, retryAt: fifth.status.retryAt })

    await vi.advanceTimersByTimeAsync(FIRST_WAIT_MS)
    const sixth = await lock.unlock('9999')
    expect(Date.parse(sixth.status.retryAt ?? '') - Date.now()).toBe(2 * FIRST_WAIT_MS)
    await vi.advanceTimersByTimeAsync(2 * FIRST_WAIT_MS)
    expect(await lock.unlock(PIN)).toMatchObject({ unlocked: true, status: { failures: 0 } })
    expect([4, 5, 6, 7, 40].map(waitAfter)).toEqual([0, 30_000, 60_000, 120_000, 3_600_000])
  })

  it('takes guesses sent at once one at a time, so they cannot pass the wait', async () => {
    const lock = await withPin()
    lock.lockNow('user')
    const answers = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) => lock.unlock(`guess-${index}`)),
    )
    expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(5)
    expect(
      answers.every(
        (answer) => answer.status === 'fulfilled' || isAppError(answer.reason, 'locked'),
      ),
    ).toBe(true)
    expect(lock.status().failures).toBe(5)
  })

  it('changes or removes the PIN only with the current one', async () => {
    const lock = await withPin()
    await expect(lock.setPin('1111', undefined)).rejects.toSatisfy((error) =>
      isAppError(error, 'locked'),
    )
    await expect(lock.setPin('1111', '0000')).rejects.toSatisfy((error) =>
      isAppError(error, 'locked'),
    )
    await lock.setPin('1111', PIN)
    lock.lockNow('user')
    expect((await lock.unlock(PIN)).unlocked).toBe(false)
    expect((await lock.unlock('1111')).unlocked).toBe(true)
    await expect(lock.removePin(PIN)).rejects.toSatisfy((error) => isAppError(error, 'locked'))
    expect(await lock.removePin('1111')).toMatchObject({ pinSet: false, locked: false })
    expect(await keychain.find('lock-test')).toEqual([])
  })

  it('stores only a salted scrypt hash with its parameters, never the PIN', async () => {
    const lock = makeLock({ pinCost: undefined })
    await lock.ready()
    await lock.setPin(PIN, undefined)
    const [entry] = await keychain.find('lock-test')
    expect(entry?.account).toBe('app-lock')
    expect(entry?.password).not.toContain(PIN)
    expect(parsePinRecord(entry?.password ?? '')).toMatchObject({
      kdf: 'scrypt',
      N: PIN_SCRYPT.N,
      r: PIN_SCRYPT.r,
      p: PIN_SCRYPT.p,
      failures: 0,
    })
  })

  it('resets a forgotten PIN with the secret (a wrong one counts) or by erasing the data', async () => {
    const eraseData = vi.fn(async () => undefined)
    const lock = makeLock({ eraseData })
    await lock.ready()
    await lock.setPin(PIN, undefined)
    lock.lockNow('user')
    await expect(lock.resetWithSecret('not-it')).rejects.toSatisfy((error) =>
      isAppError(error, 'locked'),
    )
    expect(lock.status()).toMatchObject({ locked: true, failures: 1 })
    expect(await lock.resetWithSecret('the-secret')).toMatchObject({
      locked: false,
      pinSet: false,
    })

    await lock.setPin(PIN, undefined)
    lock.lockNow('user')
    expect(await lock.resetByErasing()).toMatchObject({ locked: false, pinSet: false })
    expect(eraseData).toHaveBeenCalledTimes(1)
  })

  it('refuses the secret reset where the secret is public (the Sandbox beside other accounts)', async () => {
    const lock = makeLock({
      secretReset: { available: () => false, matches: async () => true },
    })
    await lock.ready()
    await lock.setPin(PIN, undefined)
    lock.lockNow('user')
    await expect(lock.resetWithSecret('sandbox-secret')).rejects.toSatisfy((error) =>
      isAppError(error, 'invalid_argument'),
    )
    expect(lock.isLocked()).toBe(true)
  })
})
