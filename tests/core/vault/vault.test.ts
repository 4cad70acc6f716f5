import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { classifyKeychainError, toKeychainError } from '../../../src/core/vault/keychain-errors'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { SecureStore } from '../../../src/core/vault/secure-store'
import { MAX_ENTRY_BYTES, Vault } from '../../../src/core/vault/vault'

/** The origins the test profile's key is entered for. */
const AT = ['https://partner.example.com']

const KEY = 'live_key_0123456789abcdef'
const SECRET = 'live_secret_fedcba9876543210'

/**
 * Small fakes, only for what a real keychain cannot be made to do here:
 * hang on an unlock prompt, refuse a large blob the way Windows does, or fail
 * to decrypt. Each wraps a MemoryStore and overrides one call.
 */
function keychainWith(overrides: Partial<SecureStore>): SecureStore & { inner: MemoryStore } {
  const inner = new MemoryStore()
  return {
    backend: 'fake',
    inner,
    get: overrides.get ?? ((service, account) => inner.get(service, account)),
    set: overrides.set ?? ((service, account, value) => inner.set(service, account, value)),
    delete: overrides.delete ?? ((service, account) => inner.delete(service, account)),
    find: overrides.find ?? ((service) => inner.find(service)),
  }
}

function quietVault(keychain: SecureStore, timeoutMs?: number): { vault: Vault; logs: string[] } {
  const logs: string[] = []
  const vault = new Vault({
    keychain,
    service: 'test',
    platform: 'linux',
    log: (line) => logs.push(line),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  })
  return { vault, logs }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('vault', () => {
  it('stores key and secret together and tells the renderer only the key’s last four characters', async () => {
    const { vault } = quietVault(keychainWith({}))
    const status = await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    expect(status).toEqual({ state: 'keychain', keyLast4: 'cdef' })
    expect(JSON.stringify(await vault.status('p-1', AT))).not.toContain(SECRET)
    expect(await vault.get('p-1', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
  })

  it('never claims the keychain holds a key that a keychain in memory keeps for this session', async () => {
    const { vault } = quietVault(new MemoryStore())
    expect(await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })).toEqual({
      state: 'session',
      keyLast4: 'cdef',
    })
    expect(await vault.status('p-1', AT)).toEqual({ state: 'session', keyLast4: 'cdef' })
  })

  it('replaces only the secret when only the secret is given', async () => {
    const { vault } = quietVault(new MemoryStore())
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    await vault.set('p-1', { apiSecret: 'new_secret_value_1234' }, { origins: AT })
    expect(await vault.get('p-1', AT)).toEqual({ apiKey: KEY, apiSecret: 'new_secret_value_1234' })
  })

  it('asks for both when a first entry lacks the secret', async () => {
    const { vault } = quietVault(new MemoryStore())
    const error = await rejection(vault.set('p-1', { apiKey: KEY }, { origins: AT }))
    expect(isAppError(error, 'invalid_argument')).toBe(true)
  })

  it('says no_credentials when nothing is stored', async () => {
    const { vault } = quietVault(new MemoryStore())
    expect(await vault.status('p-1', AT)).toEqual({ state: 'missing' })
    const error = await rejection(vault.get('p-1', AT))
    expect(isAppError(error, 'no_credentials')).toBe(true)
  })

  it('docs/faults.md F19: a keychain that never answers (unlock prompt) times out as locked, with Retry advice', async () => {
    const hanging = keychainWith({ get: () => new Promise<never>(() => undefined) })
    const { vault } = quietVault(hanging, 20)
    const error = await rejection(vault.get('p-1', AT))
    expect(isAppError(error, 'keychain_locked')).toBe(true)
    expect((error as Error).message).toMatch(/unlock/i)
    expect((await vault.status('p-1', AT)).state).toBe('locked')
  })

  it('docs/faults.md F20: a missing keychain on set names the fix and nothing is stored; session-only then works', async () => {
    const absent = keychainWith({
      set: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      get: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
    })
    const { vault } = quietVault(absent)
    const error = await rejection(
      vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT }),
    )
    expect(isAppError(error, 'keychain_unavailable')).toBe(true)
    expect((error as Error).message).toMatch(/GNOME Keyring or KWallet/)
    expect((error as Error).message).toMatch(/this session only/)
    expect((await vault.status('p-1', AT)).state).toBe('unavailable')

    const status = await vault.set(
      'p-1',
      { apiKey: KEY, apiSecret: SECRET },
      { origins: AT, sessionOnly: true },
    )
    expect(status).toEqual({ state: 'session', keyLast4: 'cdef' })
    expect(await vault.get('p-1', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
    expect(await absent.inner.find('test')).toEqual([])
  })

  it('docs/faults.md F21: a key and secret over 2 KB are refused before the keychain is asked', async () => {
    const keychain = keychainWith({})
    const { vault } = quietVault(keychain)
    const error = await rejection(
      vault.set('p-1', { apiKey: KEY, apiSecret: 'x'.repeat(MAX_ENTRY_BYTES) }, { origins: AT }),
    )
    expect(isAppError(error, 'too_large')).toBe(true)
    expect((error as Error).message).toMatch(/2048 bytes/)
    expect(await keychain.inner.find('test')).toEqual([])
  })

  it('docs/faults.md F21: Windows’ "The stub received bad data." is reported as too large', async () => {
    const windows = keychainWith({
      set: () => Promise.reject(new Error('The stub received bad data.')),
    })
    const { vault } = quietVault(windows)
    const error = await rejection(
      vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT }),
    )
    expect(isAppError(error, 'too_large')).toBe(true)
  })

  it('docs/faults.md F22: an entry that cannot be decrypted counts as no credentials and is deleted', async () => {
    const deleted: string[] = []
    const broken = keychainWith({
      get: () => Promise.reject(new Error('Failed to decrypt the stored data')),
      delete: (_service, account) => {
        deleted.push(account)
        return Promise.resolve(true)
      },
    })
    const { vault, logs } = quietVault(broken)
    expect(await vault.status('p-1', AT)).toEqual({ state: 'missing' })
    expect(deleted).toEqual(['profile:p-1'])
    expect(logs.join('\n')).toMatch(
      /fake entry of profile p-1 could not be decrypted \(platform linux\)/,
    )
  })

  it('docs/faults.md F22: an entry that is not ours (garbled) counts as no credentials and is deleted', async () => {
    const keychain = new MemoryStore()
    await keychain.set('test', 'profile:p-1', '\u0000garbled')
    const { vault } = quietVault(keychain)
    expect(await vault.status('p-1', AT)).toEqual({ state: 'missing' })
    expect(await keychain.get('test', 'profile:p-1')).toBeNull()
  })

  it('remove deletes the keychain entry and the session copy', async () => {
    const keychain = new MemoryStore()
    const { vault } = quietVault(keychain)
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    await vault.set('p-2', { apiKey: KEY, apiSecret: SECRET }, { origins: AT, sessionOnly: true })
    await vault.delete('p-1')
    await vault.delete('p-2')
    expect(await keychain.find('test')).toEqual([])
    expect((await vault.status('p-1', AT)).state).toBe('missing')
    expect((await vault.status('p-2', AT)).state).toBe('missing')
  })
})

describe('key binding', () => {
  const ELSEWHERE = ['https://evil.example.net']

  it('hands the key out only for the origins it was entered for', async () => {
    const { vault, logs } = quietVault(new MemoryStore())
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    expect(await vault.get('p-1', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
    const error = await rejection(vault.get('p-1', ELSEWHERE))
    expect(isAppError(error, 'no_credentials')).toBe(true)
    expect((error as Error).message).toMatch(/entered for another address/)
    expect(await vault.status('p-1', ELSEWHERE)).toMatchObject({
      state: 'missing',
      error: { code: 'no_credentials' },
    })
    // Bound to the service and the image host: asking for one more origin is refused too.
    expect(await rejection(vault.get('p-1', [...AT, ...ELSEWHERE]))).toBeInstanceOf(Error)
    expect(logs.join('\n')).toMatch(/refused for https:\/\/evil\.example\.net/)
    expect(logs.join('\n')).not.toContain(SECRET)
  })

  it('a session-only key is bound the same way', async () => {
    const { vault } = quietVault(new MemoryStore())
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT, sessionOnly: true })
    expect((await vault.status('p-1', AT)).state).toBe('session')
    expect(isAppError(await rejection(vault.get('p-1', ELSEWHERE)), 'no_credentials')).toBe(true)
  })

  it('a new secret alone is not paired with a key entered for other origins', async () => {
    const { vault } = quietVault(new MemoryStore())
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    const error = await rejection(
      vault.set('p-1', { apiSecret: 'new_secret_value_1234' }, { origins: ELSEWHERE }),
    )
    expect(isAppError(error, 'invalid_argument')).toBe(true)
    expect(await vault.get('p-1', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
  })

  it('an entry whose origins are not a list of addresses binds to nothing', async () => {
    const keychain = new MemoryStore()
    await keychain.set(
      'test',
      'profile:p-1',
      JSON.stringify({ v: 2, apiKey: KEY, apiSecret: SECRET, origins: 'x' }),
    )
    const { vault } = quietVault(keychain)
    expect(isAppError(await rejection(vault.get('p-1', AT)), 'no_credentials')).toBe(true)
  })
})

describe('deleting never passes a keychain failure off as success', () => {
  it.each([
    ['no keychain', 'Cannot autolaunch D-Bus without X11 $DISPLAY', 'keychain_unavailable'],
    ['a locked keychain', 'Cannot create an item in a locked collection', 'keychain_locked'],
    ['an unknown failure', 'something odd happened', 'keychain_unavailable'],
    ['a decryption failure', 'Failed to decrypt the stored data', 'keychain_unavailable'],
  ] as const)('%s → %s, and the key stays readable', async (_what, message, code) => {
    let failing = false
    const keychain = keychainWith({})
    keychain.delete = (service, account) =>
      failing ? Promise.reject(new Error(message)) : keychain.inner.delete(service, account)
    const { vault, logs } = quietVault(keychain)
    await vault.set('p-1', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })
    failing = true
    expect(isAppError(await rejection(vault.delete('p-1')), code)).toBe(true)
    expect(isAppError(await rejection(vault.deleteTeamPassword('p-1')), code)).toBe(true)
    expect(logs.join('\n')).toMatch(new RegExp(`fake delete failed: ${code}`))
    expect(await keychain.inner.get('test', 'profile:p-1')).toContain(SECRET)
  })
})

describe('keychain error messages', () => {
  it.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', 'keychain_unavailable'],
    ['Could not connect: No such file or directory', 'keychain_unavailable'],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      'keychain_unavailable',
    ],
    [
      'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
      'keychain_unavailable',
    ],
    ['Cannot create an item in a locked collection', 'keychain_locked'],
    ['User canceled the operation.', 'keychain_locked'],
    ['User interaction is not allowed.', 'keychain_locked'],
    ['The specified keychain could not be found.', 'keychain_unavailable'],
    ['The stub received bad data.', 'too_large'],
  ])('%s → %s', (message, code) => {
    expect(toKeychainError(new Error(message), 'linux').code).toBe(code)
  })

  it('names the fix for each OS', () => {
    const missing = new Error('no keychain')
    expect(toKeychainError(missing, 'darwin').message).toMatch(/Keychain Access/)
    expect(toKeychainError(missing, 'win32').message).toMatch(/Credential Manager/)
    expect(toKeychainError(missing, 'linux').message).toMatch(/GNOME Keyring or KWallet/)
  })

  it('does not take an unknown failure for a decryption problem, nor for a missing keychain', () => {
    expect(classifyKeychainError(new Error('something odd'))).toBe('unknown')
    expect(toKeychainError(new Error('something odd'), 'linux').message).toMatch(
      /does not recognise; nothing was changed/,
    )
  })
})
