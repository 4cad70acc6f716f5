import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { KeytarStore } from '../../../src/core/vault/keytar-store'
import { Vault } from '../../../src/core/vault/vault'
import { keychainOrSkip, testServiceName } from '../helpers/keychain'

/** The origins the test profile's key is entered for. */
const AT = ['https://partner.example.com']

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../../..')
const child = resolve(import.meta.dirname, 'fixtures/keychain-child.ts')
const KEY = 'real_key_0123456789abWXYZ'
const SECRET = 'real_secret_0123456789abcdef'

/** Runs the child fixture with `env`, optionally wrapped in a command (e.g. a private keyring). */
interface ChildOut {
  setError: { code: string; message: string }
  status: { state: string }
  session: { state: string; keyLast4?: string }
  sessionRead: boolean
}

async function runChild(env: NodeJS.ProcessEnv, wrap: string[] = []): Promise<ChildOut> {
  const command = [...wrap, process.execPath, '--import', 'tsx', child, testServiceName()]
  const { stdout } = await run(command[0]!, command.slice(1), { cwd: root, env, timeout: 60_000 })
  const line = stdout.trim().split('\n').pop() ?? ''
  return JSON.parse(line) as ChildOut
}

describe('vault on the real OS keychain', () => {
  const store = new KeytarStore()
  const service = testServiceName()
  afterEach(async () => {
    for (const entry of await store.find(service).catch(() => [])) {
      await store.delete(service, entry.account)
    }
  })

  it('stores one entry per profile, reads it back in a new session, and removes it', async (ctx) => {
    await keychainOrSkip((reason) => ctx.skip(reason))
    const vault = new Vault({ keychain: store, service })
    expect(await vault.set('p-real', { apiKey: KEY, apiSecret: SECRET }, { origins: AT })).toEqual({
      state: 'keychain',
      keyLast4: 'WXYZ',
    })
    const entries = await store.find(service)
    expect(entries.map((entry) => entry.account)).toEqual(['profile:p-real'])

    const afterRestart = new Vault({ keychain: new KeytarStore(), service })
    expect(await afterRestart.get('p-real', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
    expect(await afterRestart.storedProfileIds()).toEqual(['p-real'])

    await afterRestart.delete('p-real')
    expect(await store.find(service)).toEqual([])
    expect((await new Vault({ keychain: store, service }).status('p-real', AT)).state).toBe(
      'missing',
    )
  })

  it('the entry keeps the origins the key was entered for; after a restart other origins are refused', async (ctx) => {
    await keychainOrSkip((reason) => ctx.skip(reason))
    await new Vault({ keychain: store, service }).set(
      'p-bound',
      { apiKey: KEY, apiSecret: SECRET },
      { origins: ['https://partner.example.com/api', 'https://images.example.com'] },
    )
    const raw = JSON.parse((await store.get(service, 'profile:p-bound')) ?? 'null') as unknown
    expect(raw).toMatchObject({
      origins: ['https://images.example.com', 'https://partner.example.com'],
    })
    const afterRestart = new Vault({ keychain: new KeytarStore(), service, log: () => undefined })
    const moved = ['https://partner.example.net', 'https://images.example.com']
    await expect(afterRestart.get('p-bound', moved)).rejects.toMatchObject({
      code: 'no_credentials',
    })
    expect(
      await afterRestart.get('p-bound', [
        'https://images.example.com',
        'https://partner.example.com',
      ]),
    ).toEqual({ apiKey: KEY, apiSecret: SECRET })
  })

  it('an entry written before entries carried origins is bound to the origins of its first use', async (ctx) => {
    await keychainOrSkip((reason) => ctx.skip(reason))
    await store.set(
      service,
      'profile:p-old',
      JSON.stringify({ v: 1, apiKey: KEY, apiSecret: SECRET }),
    )
    const logs: string[] = []
    const vault = new Vault({ keychain: store, service, log: (line) => logs.push(line) })
    expect(await vault.get('p-old', AT)).toEqual({ apiKey: KEY, apiSecret: SECRET })
    expect(JSON.parse((await store.get(service, 'profile:p-old')) ?? 'null')).toMatchObject({
      v: 2,
      origins: AT,
    })
    expect(logs.join('\n')).toMatch(/profile p-old is now bound to https:\/\/partner\.example\.com/)
    const afterRestart = new Vault({ keychain: new KeytarStore(), service, log: () => undefined })
    await expect(afterRestart.get('p-old', ['https://elsewhere.example'])).rejects.toMatchObject({
      code: 'no_credentials',
    })
  })

  it('docs/faults.md F22: an unreadable entry in the keychain counts as no credentials and is deleted', async (ctx) => {
    await keychainOrSkip((reason) => ctx.skip(reason))
    await store.set(service, 'profile:p-bad', 'not json at all')
    const vault = new Vault({ keychain: store, service, log: () => undefined })
    expect(await vault.status('p-bad', AT)).toEqual({ state: 'missing' })
    expect(await store.get(service, 'profile:p-bad')).toBeNull()
  })
})

describe.runIf(process.platform === 'linux')(
  'vault without a usable keychain (real keytar)',
  () => {
    it('docs/faults.md F20: no D-Bus session → keychain_unavailable naming GNOME Keyring/KWallet; session-only works', async () => {
      const env: NodeJS.ProcessEnv = { ...process.env }
      delete env['DBUS_SESSION_BUS_ADDRESS']
      delete env['DISPLAY']
      // libdbus also looks for $XDG_RUNTIME_DIR/bus; point it at an empty folder.
      env['XDG_RUNTIME_DIR'] = mkdtempSync(join(tmpdir(), 'no-bus-'))
      const out = await runChild(env)
      expect(out['setError'].code).toBe('keychain_unavailable')
      expect(out['setError'].message).toMatch(/GNOME Keyring or KWallet/)
      expect(out['status'].state).toBe('unavailable')
      expect(out['session']).toEqual({ state: 'session', keyLast4: '6789' })
      expect(out['sessionRead']).toBe(true)
    })

    it('docs/faults.md F19: a locked GNOME keyring → keychain_locked asking to unlock; session-only works', async () => {
      // A private keyring of its own (so the other tests' keyring stays unlocked), locked over D-Bus.
      const lock = [
        'gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets',
        '--method org.freedesktop.Secret.Service.Lock "[\'/org/freedesktop/secrets/collection/login\']" >/dev/null',
        '&& exec "$@"',
      ].join(' ')
      const out = await runChild(process.env, [
        resolve(root, 'scripts/with-keyring.sh'),
        'bash',
        '-c',
        lock,
        'lock',
      ])
      expect(out['setError'].code).toBe('keychain_locked')
      expect(out['setError'].message).toMatch(/Unlock your keyring/)
      // libsecret answers a read from a locked collection with "nothing stored" rather than an
      // error (it cannot show the unlock prompt here), so the status is `missing`; the write is
      // what reports the lock.
      expect(out['status'].state).toBe('missing')
      expect(out['session'].state).toBe('session')
    })
  },
)
