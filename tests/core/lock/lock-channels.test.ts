import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { KeytarStore } from '../../../src/core/vault/keytar-store'
import { cacheFilesOf } from '../../../src/core/profiles/profile-service'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'
import { LOCK_OPEN_CHANNELS, isOpenWhileLocked } from '../../../src/shared/lock'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profiles'
import type { EventPayloads } from '../../../src/shared/contract'
import { bootForTest, call, selectService, type TestCore } from '../helpers/core'
import { keychainOrSkip, testServiceName } from '../helpers/keychain'

/**
 * The lock in the composed core, over the real OS keychain (a private GNOME
 * Keyring under scripts/with-keyring.sh): what every channel answers while
 * locked, where the PIN's hash lives, the resets, and the syncs that go on.
 */
const PIN = 'counter-7731'
const cores: TestCore[] = []
const store = new KeytarStore()
let service = ''

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const entry of await store.find(service).catch(() => [])) {
    await store.delete(service, entry.account)
  }
})

async function lockedCore(ctx: { skip: (reason: string) => void }): Promise<TestCore> {
  await keychainOrSkip((reason) => ctx.skip(reason))
  service = testServiceName()
  const core = await bootForTest({ keychain: store, keychainService: service })
  cores.push(core)
  await call(core, 'lock.setPin', { pin: PIN })
  expect(await call(core, 'lock.now', {})).toMatchObject({ locked: true, reason: 'user' })
  return core
}

describe('the app lock in core', () => {
  it('refuses every data channel with locked, whatever the arguments, until unlocked', async (ctx) => {
    const core = await lockedCore(ctx)
    // From the router's own table: a channel added later is refused unless listed as open.
    const data = core.router.channels.filter((channel) => !isOpenWhileLocked(channel))
    expect(data.length).toBe(core.router.channels.length - LOCK_OPEN_CHANNELS.length)
    for (const channel of data) {
      for (const args of [{}, { unexpected: 'x'.repeat(300) }]) {
        const answer = await core.router.dispatch(channel, args)
        expect({ channel, answer }).toMatchObject({
          channel,
          answer: { ok: false, error: { code: 'locked' } },
        })
      }
    }
    // Card images are refused too (the `card:` protocol and `/card/` answer 423).
    expect(await core.images.serve('/f/0123.png')).toMatchObject({ ok: false, status: 423 })
    expect((await core.router.dispatch('settings.get', {})).ok).toBe(true)
    expect(await call(core, 'lock.status', {})).toMatchObject({ locked: true, pinSet: true })

    expect(await call(core, 'lock.unlock', { pin: PIN })).toMatchObject({ unlocked: true })
    expect((await core.router.dispatch('inspections.query', {})).ok).toBe(true)
    expect((await core.images.serve('/f/0123.png')).ok).toBe(false)
    expect(await core.images.serve('/f/0123.png')).not.toMatchObject({ status: 423 })
  })

  it('keeps the PIN and its hash out of the settings file, in a keychain entry of its own', async (ctx) => {
    const core = await lockedCore(ctx)
    await call(core, 'lock.unlock', { pin: PIN })
    await call(core, 'settings.set', { lockIdleSeconds: 300 })
    const entries = await store.find(service)
    const lockEntry = entries.find((entry) => entry.account === 'app-lock')
    expect(lockEntry).toBeDefined()
    const record = JSON.parse(lockEntry?.password ?? '{}') as { hash: string; salt: string }
    const settingsText = readFileSync(join(core.dataDir, 'settings.json'), 'utf8')
    expect(settingsText).toContain('"lockIdleSeconds": 300')
    expect(settingsText).toContain('"lockPinSet": true')
    for (const secret of [PIN, record.hash, record.salt]) {
      expect(settingsText).not.toContain(secret)
      expect(lockEntry?.password.includes(PIN)).toBe(false)
    }
  })

  it('lets syncs go on while locked', async (ctx) => {
    const core = await lockedCore(ctx)
    const progress: Array<EventPayloads['sync.progress']> = []
    core.events.subscribe((event, payload) => {
      if (event === 'sync.progress') progress.push(payload as EventPayloads['sync.progress'])
    })
    // What the background schedule does (the hosts' autoSync): core's own engine, no channel.
    core.sync.enqueue()
    await core.sync.idle()
    expect(core.lock.isLocked()).toBe(true)
    expect(progress.some((event) => event.phase !== 'running')).toBe(true)
    await call(core, 'lock.unlock', { pin: PIN })
    const page = await call(core, 'inspections.query', {})
    expect(page.total).toBe(50)
  })

  it('resets a forgotten PIN with the active account secret, not the public Sandbox one', async (ctx) => {
    const core = await lockedCore(ctx)
    await call(core, 'lock.unlock', { pin: PIN })
    const partner = {
      baseUrl: core.sandbox.baseUrl,
      staticUrl: core.sandbox.staticUrl,
      partnerId: core.sandbox.partnerId,
      apiKey: 'lock_test_key_0123456789',
      apiSecret: 'lock_test_secret_0123456789abcdef',
    }
    const id = await selectService(core, partner)
    await call(core, 'lock.now', {})
    const wrong = await core.router.dispatch('lock.resetWithSecret', { apiSecret: 'nope' })
    expect(wrong).toMatchObject({ ok: false, error: { code: 'locked' } })
    expect(
      await call(core, 'lock.resetWithSecret', { apiSecret: partner.apiSecret }),
    ).toMatchObject({ locked: false, pinSet: false })

    // With the Sandbox active beside a partner account, its public secret resets nothing.
    await call(core, 'lock.setPin', { pin: PIN })
    await call(core, 'profiles.select', { id: SANDBOX_PROFILE_ID })
    await call(core, 'lock.now', {})
    const sandboxSecret = await core.router.dispatch('lock.resetWithSecret', {
      apiSecret: core.sandbox.apiSecret,
    })
    expect(sandboxSecret).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(core.lock.isLocked()).toBe(true)
    expect(await call(core, 'lock.status', {})).toMatchObject({ secretResetAvailable: false })
    expect(id).not.toBe(SANDBOX_PROFILE_ID)
  })

  it('resets a forgotten PIN by erasing every cached list and stored key', async (ctx) => {
    const core = await lockedCore(ctx)
    await call(core, 'lock.unlock', { pin: PIN })
    const id = await selectService(core, {
      baseUrl: core.sandbox.baseUrl,
      staticUrl: core.sandbox.staticUrl,
      partnerId: core.sandbox.partnerId,
      apiKey: core.sandbox.apiKey,
      apiSecret: core.sandbox.apiSecret,
    })
    await call(core, 'sync.start', { resources: ['inspections'] })
    await core.sync.idle()
    const [file] = cacheFilesOf(core.dataDir, id)
    expect(existsSync(file ?? '')).toBe(true)
    await call(core, 'lock.now', {})
    expect(await call(core, 'lock.resetByErasing', { confirm: true })).toMatchObject({
      locked: false,
      pinSet: false,
    })
    // Answered once the emptied file is open again, at the newest schema and no longer written.
    const reopened = new DatabaseSync(file ?? '', { readOnly: true })
    try {
      const schema = reopened.prepare('PRAGMA user_version').get() as { user_version: number }
      expect(schema.user_version).toBe(LATEST_VERSION)
      expect(reopened.prepare('SELECT count(*) AS n FROM inspections').get()).toEqual({ n: 0 })
    } finally {
      reopened.close()
    }
    expect(await store.find(service)).toEqual([])
    const { profiles } = await call(core, 'profiles.list', {})
    expect(profiles.find((profile) => profile.id === id)?.credentials.state).toBe('missing')
    expect((await call(core, 'inspections.query', {})).total).toBe(0)
  })

  it('changes nothing on a refused lock call but the one wrong entry it counts', async (ctx) => {
    const core = await lockedCore(ctx)
    await call(core, 'lock.unlock', { pin: PIN })
    const settingsFile = join(core.dataDir, 'settings.json')
    const stored = async () => {
      const entry = (await store.find(service)).find((found) => found.account === 'app-lock')
      const { failures, retryAt, ...kept } = JSON.parse(entry?.password ?? '{}') as Record<
        string,
        unknown
      >
      return { kept, failures, retryAt, settings: readFileSync(settingsFile, 'utf8') }
    }
    const before = await stored()
    const refusals: Array<[string, Record<string, unknown>, 'locked' | 'invalid_argument']> = [
      ['lock.setPin', { pin: 'a-new-pin', current: 'wrong-pin' }, 'locked'],
      ['lock.setPin', { pin: 'a-new-pin' }, 'locked'],
      ['lock.removePin', { current: 'wrong-pin' }, 'locked'],
      ['lock.setPin', { pin: 'x', current: PIN }, 'invalid_argument'],
      ['lock.removePin', { current: PIN, extra: 1 }, 'invalid_argument'],
      ['lock.unlock', { pin: '' }, 'invalid_argument'],
      ['lock.resetByErasing', { confirm: false }, 'invalid_argument'],
    ]
    let failures = 0
    for (const [channel, args, code] of refusals) {
      const answer = await core.router.dispatch(channel as 'lock.setPin', args)
      expect({ channel, answer }).toMatchObject({ answer: { ok: false, error: { code } } })
      if (code === 'locked') failures += 1
      const after = await stored()
      expect({ channel, ...after }).toEqual({
        channel,
        ...before,
        failures,
        retryAt: null,
      })
      expect(await call(core, 'lock.status', {})).toMatchObject({
        pinSet: true,
        locked: false,
        failures,
      })
    }
    // Locked, a wrong secret is refused and counted like a wrong PIN; nothing else moves.
    await call(core, 'lock.now', {})
    const wrongSecret = await core.router.dispatch('lock.resetWithSecret', { apiSecret: 'nope' })
    expect(wrongSecret).toMatchObject({ ok: false, error: { code: 'locked' } })
    expect(await stored()).toEqual({ ...before, failures: failures + 1, retryAt: null })
    expect(await call(core, 'lock.status', {})).toMatchObject({ pinSet: true, locked: true })
  })

  it('lets notifications name records only while unlocked', async (ctx) => {
    const core = await lockedCore(ctx)
    await call(core, 'lock.unlock', { pin: PIN })
    const items = [
      { resource: 'inspections' as const, idx: 7, name: '샤넬 클래식 플랩' },
      { resource: 'inspections' as const, idx: 8, name: '루이비통 스피디' },
    ]
    const open = core.notify('resultFlagged', items, (count) => `가품 ${count}건`)
    expect(open?.body).toContain('샤넬 클래식 플랩')
    await call(core, 'lock.now', {})
    const locked = core.notify('resultFlagged', items, (count) => `가품 ${count}건`)
    expect(locked).toMatchObject({ title: '가품 2건', count: 2 })
    expect(locked?.body).not.toContain('샤넬')
    expect(JSON.stringify(locked)).not.toContain('루이비통')
    // The setting itself is untouched: unlocked, details come back.
    await call(core, 'lock.unlock', { pin: PIN })
    expect(core.notify('resultFlagged', items, (count) => `가품 ${count}건`)?.body).toContain(
      '샤넬',
    )
  })
})
