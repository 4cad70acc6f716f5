import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { tmpdir } from 'node:os'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { cacheFilesOf } from '../../../src/core/profiles/profile-service'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import type { ConnectionTestResult, ProfileView } from '../../../src/shared/profiles'
import type { AddressInfo } from 'node:net'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { SecureStore } from '../../../src/core/vault/secure-store'
import { bootForTest, call } from '../helpers/core'
import { keychainForTests } from '../helpers/keychain'

let second: Sandbox
let kc: Awaited<ReturnType<typeof keychainForTests>>
const cores: BootedCore[] = []

beforeAll(async () => {
  second = await startSandbox({ seed: 7, size: 20 })
  kc = await keychainForTests()
})
afterAll(async () => {
  await second.close()
})
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  await kc.cleanup()
})

async function boot(dataDir?: string): Promise<BootedCore & { dataDir: string }> {
  const core = await bootForTest({
    keychain: kc.keychain,
    keychainService: kc.service,
    ...(dataDir ? { dataDir } : {}),
  })
  cores.push(core)
  return core
}

function secondProfile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: '두 번째 매장',
    baseUrl: second.baseUrl,
    staticUrl: second.staticUrl,
    partnerId: second.partnerId,
    redirectUri: 'https://shop.example.com/wallet/done',
    ...overrides,
  }
}

async function addSecond(core: BootedCore, withSecret = true): Promise<ProfileView> {
  const saved = await call(core, 'profiles.save', secondProfile())
  if (withSecret) {
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
    })
  }
  return saved
}

describe('profiles', () => {
  it('first run: only the Sandbox profile, active, labelled as demo with built-in credentials', async () => {
    const core = await boot()
    const list = await call(core, 'profiles.list')
    expect(list.activeId).toBe('sandbox')
    expect(list.profiles).toHaveLength(1)
    expect(list.profiles[0]).toMatchObject({
      id: 'sandbox',
      kind: 'sandbox',
      partnerId: core.sandbox.partnerId,
      timeZone: 'Asia/Seoul',
      credentials: { state: 'builtin', keyLast4: core.sandbox.apiKey.slice(-4) },
    })
    expect((await call(core, 'app.info')).profile.kind).toBe('sandbox')
  })

  it('adding a profile and its key stores the key in the keychain; the list shows only the last four', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    expect(saved.timeZone).toBe('Asia/Seoul')
    const list = await call(core, 'profiles.list')
    const view = list.profiles.find((profile) => profile.id === saved.id)
    expect(view?.credentials).toEqual({ state: 'keychain', keyLast4: second.apiKey.slice(-4) })
    expect(await kc.keychain.get(kc.service, `profile:${saved.id}`)).toContain(second.apiSecret)
  })

  it('moving a profile to another service or image host drops its key and secret; a rename keeps them', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    const account = `profile:${saved.id}`
    const renamed = await call(
      core,
      'profiles.save',
      secondProfile({ id: saved.id, name: '새 이름' }),
    )
    expect(renamed.credentials.state).toBe('keychain')
    const samePath = await call(
      core,
      'profiles.save',
      secondProfile({ id: saved.id, baseUrl: new URL('/v2', second.baseUrl).toString() }),
    )
    expect(samePath.credentials.state).toBe('keychain')
    const moved = await call(
      core,
      'profiles.save',
      secondProfile({ id: saved.id, baseUrl: 'https://partner.other.example/api' }),
    )
    expect(moved.credentials.state).toBe('missing')
    expect(await kc.keychain.get(kc.service, account)).toBeNull()

    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
    })
    const images = await call(
      core,
      'profiles.save',
      secondProfile({
        id: saved.id,
        baseUrl: 'https://partner.other.example/api',
        staticUrl: 'https://images.other.example',
      }),
    )
    expect(images.credentials.state).toBe('missing')
    expect(await kc.keychain.get(kc.service, account)).toBeNull()
  })

  it('a settings file edited by hand to another address does not get the key: nothing is sent there', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    await call(core, 'profiles.select', { id: saved.id })
    await core.close()
    cores.splice(cores.indexOf(core), 1)

    const heard: string[] = []
    const spy = createHttpServer((request, response) => {
      heard.push(`${request.url} ${JSON.stringify(request.headers)}`)
      response.end('{}')
    })
    const port = await new Promise<number>((done) =>
      spy.listen(0, '127.0.0.1', () => done((spy.address() as AddressInfo).port)),
    )
    try {
      const file = join(core.dataDir, 'settings.json')
      const settings = JSON.parse(readFileSync(file, 'utf8')) as {
        profiles: Array<{ id: string; baseUrl: string }>
      }
      const edited = settings.profiles.find((profile) => profile.id === saved.id)!
      edited.baseUrl = `http://127.0.0.1:${port}/api`
      writeFileSync(file, JSON.stringify(settings))

      const again = await boot(core.dataDir)
      expect((await call(again, 'app.info')).profile.baseUrl).toBe(edited.baseUrl)
      const view = (await call(again, 'profiles.list')).profiles.find((p) => p.id === saved.id)
      expect(view?.credentials).toMatchObject({
        state: 'missing',
        error: { code: 'no_credentials' },
      })
      expect((await call(again, 'profiles.test', { id: saved.id })).outcome).toBe('no_credentials')
      const refresh = await again.router.dispatch('brands.refresh', {})
      expect(!refresh.ok && refresh.error.code).toBe('no_credentials')
      expect(heard).toEqual([])
      // The entry itself is kept for the address it was entered for.
      expect(await kc.keychain.get(kc.service, `profile:${saved.id}`)).toContain(second.apiSecret)
    } finally {
      await new Promise((done) => spy.close(done))
    }
  })

  it('a save that moves the address aborts when the old key cannot be deleted: the old address stays', async () => {
    // A keychain whose delete fails while it is locked: only a fake can be made to fail that way.
    const inner = new MemoryStore()
    let locked = false
    const failing: SecureStore = {
      backend: 'fake',
      get: (service, account) => inner.get(service, account),
      set: (service, account, value) => inner.set(service, account, value),
      find: (service) => inner.find(service),
      delete: (service, account) =>
        locked
          ? Promise.reject(new Error('Cannot create an item in a locked collection'))
          : inner.delete(service, account),
    }
    const core = await bootForTest({ keychain: failing, keychainService: 'test' })
    cores.push(core)
    const saved = await addSecond(core)
    locked = true
    const moved = await core.router.dispatch(
      'profiles.save',
      secondProfile({ id: saved.id, baseUrl: 'https://partner.other.example/api' }),
    )
    expect(!moved.ok && moved.error.code).toBe('keychain_locked')
    const view = (await call(core, 'profiles.list')).profiles.find((p) => p.id === saved.id)
    expect(view?.baseUrl).toBe(second.baseUrl)
    expect(view?.credentials.state).toBe('keychain')
    const onDisk = readFileSync(join(core.dataDir, 'settings.json'), 'utf8')
    expect(onDisk).not.toContain('partner.other.example')
    // Removing the profile is refused the same way, and the profile stays.
    const removed = await core.router.dispatch('profiles.remove', { id: saved.id })
    expect(!removed.ok && removed.error.code).toBe('keychain_locked')
    expect((await call(core, 'profiles.list')).profiles.some((p) => p.id === saved.id)).toBe(true)
    locked = false
    const movedNow = await call(
      core,
      'profiles.save',
      secondProfile({ id: saved.id, baseUrl: 'https://partner.other.example/api' }),
    )
    expect(movedNow.credentials.state).toBe('missing')
  })

  it('switching profiles re-targets the brand list and tells the views', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    const events: unknown[] = []
    core.events.subscribe((event, payload) => events.push({ event, payload }))
    await call(core, 'profiles.select', { id: saved.id })
    expect(events).toContainEqual({ event: 'profiles.changed', payload: { activeId: saved.id } })
    expect((await call(core, 'app.info')).profile).toMatchObject({
      id: saved.id,
      kind: 'production',
      partnerId: second.partnerId,
    })
    const brands = await call(core, 'brands.refresh')
    expect(brands.total).toBeGreaterThan(0)
    expect(brands.freshness.staleBecause).toBeUndefined()
  })

  it('a profile is production unless saved as test; the kind is kept and an unknown kind is refused', async () => {
    const core = await boot()
    const saved = await addSecond(core, false)
    expect(saved.kind).toBe('production')
    const edited = await call(core, 'profiles.save', secondProfile({ id: saved.id, kind: 'test' }))
    expect(edited.kind).toBe('test')
    const listed = (await call(core, 'profiles.list')).profiles.find((p) => p.id === saved.id)
    expect(listed?.kind).toBe('test')
    const bad = await core.router.dispatch('profiles.save', secondProfile({ kind: 'staging' }))
    expect(bad.ok).toBe(false)
    expect(!bad.ok && bad.error.code).toBe('invalid_argument')
    expect((await call(core, 'profiles.list')).profiles).toHaveLength(2)
  })

  it('settings.set keeps the theme and reviewer name across restarts and refuses bad input', async () => {
    const core = await boot()
    const first = await call(core, 'settings.get')
    expect(first).toMatchObject({ theme: 'system', reviewerName: '', dataDir: core.dataDir })
    expect(first.path).toBe(join(core.dataDir, 'settings.json'))
    const set = await call(core, 'settings.set', { theme: 'dark', reviewerName: '  김감정  ' })
    expect(set).toMatchObject({ theme: 'dark', reviewerName: '김감정' })
    const bad = await core.router.dispatch('settings.set', { theme: 'neon' })
    expect(bad.ok).toBe(false)
    expect(!bad.ok && bad.error.code).toBe('invalid_argument')
    await core.close()
    cores.splice(cores.indexOf(core), 1)
    const again = await boot(core.dataDir)
    expect(await call(again, 'settings.get')).toMatchObject({
      theme: 'dark',
      reviewerName: '김감정',
    })
  })

  it('the last used profile opens at the next start', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    await call(core, 'profiles.select', { id: saved.id })
    await core.close()
    cores.splice(cores.indexOf(core), 1)
    const again = await boot(core.dataDir)
    expect((await call(again, 'app.info')).profile.id).toBe(saved.id)
    expect((await call(again, 'brands.refresh')).total).toBeGreaterThan(0)
  })

  it('a profile without a key says so when its data is asked for', async () => {
    const core = await boot()
    const saved = await addSecond(core, false)
    await call(core, 'profiles.select', { id: saved.id })
    const answer = await core.router.dispatch('brands.refresh', {})
    expect(answer.ok).toBe(false)
    expect(!answer.ok && answer.error.code).toBe('no_credentials')
  })

  it('the Sandbox profile can be neither edited nor removed', async () => {
    const core = await boot()
    const edit = await core.router.dispatch('profiles.save', { ...secondProfile(), id: 'sandbox' })
    const remove = await core.router.dispatch('profiles.remove', { id: 'sandbox' })
    expect(!edit.ok && edit.error.code).toBe('invalid_argument')
    expect(!remove.ok && remove.error.code).toBe('invalid_argument')
  })

  it('refuses plain http to a remote host and credentials inside the address', async () => {
    const core = await boot()
    for (const baseUrl of ['http://partner.example.com', 'https://user:pw@partner.example.com']) {
      const answer = await core.router.dispatch('profiles.save', secondProfile({ baseUrl }))
      expect(!answer.ok && answer.error.code).toBe('invalid_argument')
    }
    const badId = await core.router.dispatch('profiles.remove', { id: '../../etc' })
    expect(!badId.ok && badId.error.code).toBe('invalid_argument')
  })

  it('any change of the team server’s host, port, database, role, CA file or TLS mode deletes its password', async () => {
    const core = await boot()
    const team = { host: 'team.example.com', port: 5432, database: 'team', role: 'minji' }
    const saved = await call(core, 'profiles.save', secondProfile({ team }))
    const account = `team:${saved.id}`
    const changes: Array<Record<string, unknown>> = [
      { port: 5433 },
      { database: 'team2' },
      { caFile: '/etc/shop/ca.pem' },
      { caFile: '/etc/shop/other-ca.pem' },
      { tls: 'plain' },
      { tls: 'verify-full' },
      { host: 'team2.example.com' },
      { role: 'jisoo' },
    ]
    let current: Record<string, unknown> = team
    for (const change of changes) {
      await call(core, 'team.setPassword', { id: saved.id, password: 'team-pw' })
      // A rename leaves the team server as it is, and the password with it; so does naming
      // the TLS mode the server is reached with anyway.
      await call(
        core,
        'profiles.save',
        secondProfile({ id: saved.id, name: '새 이름', team: current }),
      )
      expect(await kc.keychain.get(kc.service, account)).toBe('team-pw')
      await call(
        core,
        'profiles.save',
        secondProfile({ id: saved.id, team: { ...current, tls: current['tls'] ?? 'verify-full' } }),
      )
      expect(await kc.keychain.get(kc.service, account)).toBe('team-pw')
      current = { ...current, ...change }
      await call(core, 'profiles.save', secondProfile({ id: saved.id, team: current }))
      expect(await kc.keychain.get(kc.service, account), JSON.stringify(change)).toBeNull()
    }
  })

  it('removing the team server, or pointing it at another host or role, deletes its password; the profile keeps working alone', async () => {
    const core = await boot()
    const team = { host: '127.0.0.1', port: 1, database: 'team', role: 'minji', tls: 'plain' }
    const saved = await call(core, 'profiles.save', secondProfile({ team }))
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
    })
    const account = `team:${saved.id}`
    await call(core, 'team.setPassword', { id: saved.id, password: 'team-pw-1' })
    expect(await kc.keychain.get(kc.service, account)).toBe('team-pw-1')

    await call(
      core,
      'profiles.save',
      secondProfile({ id: saved.id, team: { ...team, role: 'jisoo' } }),
    )
    expect(await kc.keychain.get(kc.service, account)).toBeNull()

    await call(core, 'team.setPassword', { id: saved.id, password: 'team-pw-2' })
    await call(core, 'profiles.select', { id: saved.id })
    const removed = await call(core, 'profiles.save', secondProfile({ id: saved.id, team: null }))
    expect(removed.team ?? null).toBeNull()
    expect(await kc.keychain.get(kc.service, account)).toBeNull()
    expect(await kc.keychain.get(kc.service, `profile:${saved.id}`)).toContain(second.apiSecret)
    expect(await call(core, 'team.status')).toEqual({ state: 'none' })
    // Without a team server the local marks work as before.
    await call(core, 'sync.start', { resources: ['inspections'], mode: 'full' })
    await core.sync.idle()
    const [first] = (await call(core, 'inspections.query', { limit: 1 })).rows
    await call(core, 'reviews.set', { resource: 'inspections', idx: first!.idx, mark: 'reviewed' })
    const marked = await call(core, 'inspections.query', { review: 'reviewed' })
    expect(marked.rows.map((row) => row.idx)).toEqual([first!.idx])
  })

  it('removing the active profile returns to the Sandbox and deletes its keychain entry; the cache only when confirmed', async () => {
    const core = await boot()
    const kept = await addSecond(core)
    const removed = await addSecond(core)
    for (const id of [kept.id, removed.id]) {
      mkdirSync(join(core.dataDir, 'cache'), { recursive: true })
      for (const file of cacheFilesOf(core.dataDir, id)) writeFileSync(file, 'cache')
    }
    await call(core, 'profiles.select', { id: removed.id })

    const list = await call(core, 'profiles.remove', {
      id: removed.id,
      deleteCache: true,
    })
    expect(list.activeId).toBe('sandbox')
    expect(list.profiles.map((profile) => profile.id)).toEqual(['sandbox', kept.id])
    expect(await kc.keychain.get(kc.service, `profile:${removed.id}`)).toBeNull()
    expect(cacheFilesOf(core.dataDir, removed.id).some((file) => existsSync(file))).toBe(false)
    expect((await call(core, 'app.info')).profile.id).toBe('sandbox')

    await call(core, 'profiles.remove', { id: kept.id })
    expect(cacheFilesOf(core.dataDir, kept.id).every((file) => existsSync(file))).toBe(true)
    expect(await kc.keychain.find(kc.service)).toEqual([])
  })
})

describe('test connection says what happened', () => {
  async function outcome(core: BootedCore, id: string): Promise<ConnectionTestResult> {
    return call(core, 'profiles.test', { id })
  }

  it('works: the Sandbox and a good second profile', async () => {
    const core = await boot()
    expect(await outcome(core, 'sandbox')).toMatchObject({ outcome: 'ok' })
    const saved = await addSecond(core)
    const result = await outcome(core, saved.id)
    expect(result.outcome).toBe('ok')
    expect(result.brandCount).toBeGreaterThan(0)
  })

  it('docs/faults.md F17: wrong secret → wrong_credentials (401)', async () => {
    const core = await boot()
    const saved = await addSecond(core)
    await call(core, 'profiles.setSecret', { id: saved.id, apiSecret: 'wrong_secret_12345678' })
    expect(await outcome(core, saved.id)).toMatchObject({
      outcome: 'wrong_credentials',
      error: { code: 'auth', status: 401 },
    })
  })

  it('wrong partner → wrong_partner (403)', async () => {
    const core = await boot()
    const saved = await call(core, 'profiles.save', secondProfile({ partnerId: 'demo-shop-9999' }))
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
    })
    expect((await outcome(core, saved.id)).outcome).toBe('wrong_partner')
  })

  it('host unreachable → unreachable', async () => {
    const core = await boot()
    const server = createServer()
    const port = await new Promise<number>((done) =>
      server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)),
    )
    await new Promise((done) => server.close(done))
    const saved = await call(
      core,
      'profiles.save',
      secondProfile({ baseUrl: `http://127.0.0.1:${port}` }),
    )
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: second.apiKey,
      apiSecret: second.apiSecret,
    })
    expect(await outcome(core, saved.id)).toMatchObject({
      outcome: 'unreachable',
      error: { code: 'network' },
    })
  })

  it('no key stored → no_credentials', async () => {
    const core = await boot()
    const saved = await addSecond(core, false)
    expect((await outcome(core, saved.id)).outcome).toBe('no_credentials')
  })
})

describe('the app starts whatever state settings and keychain are in', () => {
  it('a damaged settings file: the app starts on the Sandbox and tells the user where the old file is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'core-'))
    writeFileSync(join(dataDir, 'settings.json'), '\u0000\u0001 not json')
    const core = await boot(dataDir)
    const settings = await call(core, 'settings.get')
    expect(settings.notices).toHaveLength(1)
    expect(settings.notices[0]?.kind).toBe('settings_reset')
    expect(existsSync(join(dataDir, settings.notices[0]!.keptAs))).toBe(true)
    expect((await call(core, 'brands.refresh')).total).toBeGreaterThan(0)
  })

  it('docs/faults.md F19: a keychain stuck on an unlock prompt: the list still answers and says it is locked', async () => {
    // A keychain that never answers: only a fake can hold an unlock prompt open.
    const hanging = new MemoryStore()
    hanging.get = () => new Promise<never>(() => undefined)
    const core = await bootForTest({
      keychain: hanging,
      keychainService: 'test',
      keychainTimeoutMs: 20,
    })
    cores.push(core)
    const saved = await call(core, 'profiles.save', secondProfile())
    const list = await call(core, 'profiles.list')
    const view = list.profiles.find((profile) => profile.id === saved.id)
    expect(view?.credentials.state).toBe('locked')
    expect(view?.credentials.error?.message).toMatch(/Unlock your keyring/)
    await call(core, 'profiles.select', { id: saved.id })
    const answer = await core.router.dispatch('brands.refresh', {})
    expect(!answer.ok && answer.error.code).toBe('keychain_locked')
    expect((await call(core, 'profiles.test', { id: saved.id })).outcome).toBe('keychain')
  })
})
