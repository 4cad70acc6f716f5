import { randomBytes } from 'node:crypto'
import { KeytarStore } from '../../../src/core/vault/keytar-store'
import { withKeychainTimeout } from '../../../src/core/vault/keychain-errors'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { SecureStore } from '../../../src/core/vault/secure-store'

/**
 * A keychain service name of this test run only, so the tests never read or
 * touch the app's own entries on a developer's desktop; tests delete what
 * they store under it.
 */
export function testServiceName(): string {
  return `Appraisal Desk test ${process.pid}-${randomBytes(4).toString('hex')}`
}

/** Whether the real OS keychain answers a set/get/delete round trip (and the reason when not). */
export async function probeKeychain(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const store = new KeytarStore()
  const service = testServiceName()
  try {
    await withKeychainTimeout(store.set(service, 'probe', 'probe-value'), 5000)
    const value = await withKeychainTimeout(store.get(service, 'probe'), 5000)
    await withKeychainTimeout(store.delete(service, 'probe'), 5000)
    return value === 'probe-value'
      ? { ok: true }
      : { ok: false, reason: 'read back a different value' }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Keychain tests run against a real keychain. With `CI` set they must not
 * skip: an unreachable keychain fails them (CI runs them through
 * `scripts/with-keyring.sh`). On a desktop without one, they are skipped
 * with the reason.
 */
export async function keychainOrSkip(skip: (reason: string) => void): Promise<void> {
  const probe = await probeKeychain()
  if (probe.ok) return
  const reason = `no OS keychain reachable (${probe.reason}); run under scripts/with-keyring.sh`
  if (process.env['CI']) throw new Error(`CI requires a real keychain: ${reason}`)
  skip(reason)
}

/**
 * The keychain for tests of code above the vault: the real OS keychain under
 * a test-only service name when one answers, else the session-only memory
 * store (the behaviour under test does not depend on which). `cleanup`
 * removes every entry the test stored.
 */
export async function keychainForTests(): Promise<{
  keychain: SecureStore
  service: string
  real: boolean
  cleanup(): Promise<void>
}> {
  const service = testServiceName()
  const real = (await probeKeychain()).ok
  const keychain: SecureStore = real ? new KeytarStore() : new MemoryStore()
  return {
    keychain,
    service,
    real,
    async cleanup() {
      for (const entry of await keychain.find(service).catch(() => [])) {
        await keychain.delete(service, entry.account)
      }
    },
  }
}
