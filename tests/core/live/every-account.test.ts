import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/core/app-error'
import type { BackgroundAccountScope } from '../../../src/core/live/background-account'
import { BackgroundTurns } from '../../../src/core/live/background-accounts'
import type { StepResult } from '../../../src/core/live/schedule'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { storeFileFor } from '../../../src/core/store/paths'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { startEmbeddedSandbox, type Sandbox } from '../../../src/sandbox'
import { localTimestamp } from '../../../src/shared/local-time'
import type { PostedNotification } from '../../../src/shared/notifications'
import { SANDBOX_ANCHOR } from '../../support/anchor'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { call } from '../helpers/core'
import { fakeClock, passTime, type FakeClock } from './fake-clock'

/**
 * Every-account mode (docs/live.md "Every account") on a fake clock over
 * real sandboxes: the active account is the built-in Sandbox; "상점 B" and
 * "상점 C" are two more sandbox instances (other seeds) saved as accounts
 * with their keys. Every request goes through a fetch that counts them by
 * service.
 */

const INTERVAL_MS = 2 * 60_000

let clock: FakeClock
let core: BootedCore
let shopB: Sandbox
let shopC: Sandbox
let idB: string
let idC: string
let requests: string[]
let dataDir: string
let posted: PostedNotification[]

async function addAccount(sandbox: Sandbox, name: string): Promise<string> {
  const { id } = await call(core, 'profiles.save', {
    name,
    baseUrl: sandbox.baseUrl,
    staticUrl: sandbox.staticUrl,
    partnerId: sandbox.partnerId,
    redirectUri: 'https://shop.example.com/done',
  })
  await call(core, 'profiles.setSecret', {
    id,
    apiKey: sandbox.apiKey,
    apiSecret: sandbox.apiSecret,
  })
  return id
}

beforeEach(async () => {
  clock = fakeClock()
  requests = []
  posted = []
  dataDir = mkdtempSync(join(tmpdir(), 'every-account-'))
  const counting: typeof fetch = (input, init) => {
    requests.push(input instanceof Request ? input.url : String(input))
    return fetch(input, init)
  }
  ;[{ sandbox: shopB }, { sandbox: shopC }] = await Promise.all([
    startEmbeddedSandbox({ anchor: SANDBOX_ANCHOR, size: 50, seed: 2 }),
    startEmbeddedSandbox({ anchor: SANDBOX_ANCHOR, size: 50, seed: 3 }),
  ])
  core = await bootWithEmbeddedSandbox({
    fetch: counting,
    dataDir,
    host: 'web',
    version: 'test',
    keychain: new MemoryStore(),
    keychainService: 'every-account',
    openSettings: openConfFile,
    log: () => undefined,
    sandbox: { size: 50 },
    autoSync: true,
    live: { clock },
  })
  core.events.subscribe((event, payload) => {
    if (event === 'notification.posted') posted.push(payload as PostedNotification)
  })
  await core.sync.idle()
  idB = await addAccount(shopB, '상점 B')
  idC = await addAccount(shopC, '상점 C')
})

afterEach(async () => {
  await core.close()
  await Promise.all([shopB.close(), shopC.close()])
})

/** Requests sent to a sandbox's API so far. */
function sentTo(sandbox: Sandbox): number {
  return requests.filter((url) => url.startsWith(sandbox.baseUrl)).length
}

/** Every schedule has nothing running. */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) {
    await core.live.idle()
    await core.background.idle()
    await core.sync.idle()
  }
}

/** Moves the fake clock on, timer by timer, waiting for each run it starts. */
function pass(ms: number): Promise<void> {
  return passTime(clock, ms, settle)
}

async function turnOn(on: boolean): Promise<void> {
  const view = await call(core, 'settings.set', { live: { allAccounts: on } })
  expect(view.live.allAccounts).toBe(on)
  // The scopes open and close in the profiles' lifecycle queue.
  await core.profiles.exclusive(() => Promise.resolve())
}

function scopeOf(id: string): BackgroundAccountScope {
  const scope = core.background.scopeOf(id) as BackgroundAccountScope | null
  if (!scope) throw new Error(`no background scope for ${id}`)
  return scope
}

/** Whether a background account's store holds inspection `idx`. */
async function stored(id: string, idx: number): Promise<boolean> {
  const store = scopeOf(id).store
  if (!store) return false
  const timeline = await store
    .call('recordTimeline', { resource: 'inspections', idx })
    .catch(() => null)
  return timeline !== null && timeline.currentSince !== null
}

/** Adds an inspection at the service, newest of all; answers its idx. */
function arrive(sandbox: Sandbox): number {
  const count = sandbox.live.count('inspection')
  const second = sandbox.live.registeredSecond('inspection', count - 1) + 60
  return sandbox.live.add('inspection', second, { inspectionStatus: '감정접수' }) + 1
}

/** Gives one of the newest inspections without a result the result `가품`; answers its idx. */
function flag(sandbox: Sandbox): number {
  for (let i = sandbox.live.count('inspection') - 1; i >= 0; i -= 1) {
    const record = sandbox.live.inspection(i)
    if (record.inspectionResult === undefined || record.inspectionResult === null) {
      sandbox.live.patch('inspection', i, {
        inspectionStatus: '배송완료',
        inspectionResult: '가품',
      })
      return i + 1
    }
  }
  throw new Error('no inspection without a result')
}

describe('every-account mode', () => {
  it('is off by default: nothing is requested of the other accounts', async () => {
    expect((await call(core, 'settings.get', {})).live.allAccounts).toBe(false)
    const before = sentTo(shopB) + sentTo(shopC)
    await pass(3 * INTERVAL_MS)
    expect(sentTo(shopB) + sentTo(shopC)).toBe(before)
    expect(core.background.ids).toEqual([])
    expect(await call(core, 'live.accounts', {})).toEqual({
      enabled: false,
      accounts: 0,
      held: false,
      lastFailure: null,
    })
  })

  it('keeps another account current: a new record within the interval, a notification naming it', async () => {
    await turnOn(true)
    expect([...core.background.ids].sort()).toEqual([idB, idC].sort())
    expect((await call(core, 'live.accounts', {})).accounts).toBe(2)
    // The first runs read each account whole (its baseline: nothing to notify).
    await pass(INTERVAL_MS)
    expect(sentTo(shopB)).toBeGreaterThan(0)
    expect(scopeOf(idB).store).not.toBeNull()
    expect(posted).toEqual([])
    const added = arrive(shopB)
    const flagged = flag(shopB)
    expect(await stored(idB, added)).toBe(false)
    await pass(INTERVAL_MS)
    expect(await stored(idB, added)).toBe(true)
    const notice = posted.find((n) => n.kind === 'resultFlagged')
    expect(notice?.title).toBe('[상점 B] 가품 1건')
    expect(notice?.account).toEqual({ id: idB, name: '상점 B' })
    expect(notice?.records).toEqual([{ resource: 'inspections', idx: flagged }])
    // The active account's status stays its own.
    expect((await call(core, 'live.status', {})).state).toBe('running')
  })

  it('a 401 stops only that account, and closes its threads', async () => {
    await turnOn(true)
    await pass(INTERVAL_MS)
    // Account C's key is replaced by a wrong one: its scope opens again with it and fails.
    await call(core, 'profiles.setSecret', { id: idC, apiSecret: 'wrong-secret-0000' })
    await core.profiles.exclusive(() => Promise.resolve())
    await pass(INTERVAL_MS)
    const status = await call(core, 'live.accounts', {})
    expect(status.lastFailure).toMatchObject({ profileId: idC, name: '상점 C', stopped: true })
    expect(status.lastFailure?.error.code).toBe('auth')
    expect(status.accounts).toBe(1)
    const storeC = scopeOf(idC).store
    await expect.poll(() => storeC?.exited).toBe(true)
    const b = sentTo(shopB)
    const c = sentTo(shopC)
    await pass(2 * INTERVAL_MS)
    expect(sentTo(shopB)).toBeGreaterThan(b)
    expect(sentTo(shopC)).toBe(c)
    expect((await call(core, 'live.status', {})).state).toBe('running')
  })

  it('turning the setting off closes the owner threads; nothing more is requested', async () => {
    await turnOn(true)
    await pass(INTERVAL_MS)
    const stores = [idB, idC].map((id) => scopeOf(id).store)
    expect(stores.every((store) => store !== null && !store.exited)).toBe(true)
    await turnOn(false)
    expect(core.background.ids).toEqual([])
    expect(stores.every((store) => store?.exited === true)).toBe(true)
    // Closed in order: the log is copied into the file and removed.
    expect(existsSync(`${storeFileFor(dataDir, idB)}-wal`)).toBe(false)
    const before = sentTo(shopB) + sentTo(shopC)
    await pass(3 * INTERVAL_MS)
    expect(sentTo(shopB) + sentTo(shopC)).toBe(before)
    expect((await call(core, 'live.accounts', {})).enabled).toBe(false)
  })

  it('locking pauses both background accounts; unlocking polls at once', async () => {
    await turnOn(true)
    await pass(INTERVAL_MS)
    await call(core, 'lock.setPin', { pin: '482916' })
    await call(core, 'lock.now', {})
    await settle()
    // live.accounts answers only unlocked, like live.status.
    expect(core.background.status().held).toBe(true)
    const before = [sentTo(shopB), sentTo(shopC)]
    await pass(3 * INTERVAL_MS)
    expect([sentTo(shopB), sentTo(shopC)]).toEqual(before)
    await call(core, 'lock.unlock', { pin: '482916' })
    await pass(0)
    expect(sentTo(shopB)).toBeGreaterThan(before[0] ?? 0)
    expect(sentTo(shopC)).toBeGreaterThan(before[1] ?? 0)
    expect((await call(core, 'live.accounts', {})).held).toBe(false)
  })

  it('a background account, like the active one, names no record while the app is locked', async () => {
    // The aging digest on, due half an hour from now in the accounts' zone, every waiting record counted.
    const { profiles } = await call(core, 'profiles.list', {})
    const zone = profiles.find((view) => view.id === idB)?.timeZone ?? 'UTC'
    const due = clock.now() + 30 * 60_000
    const days = { guaranteeReady: 1, inspectionShipping: 1 }
    const view = await call(core, 'settings.set', {
      notifications: {
        digestAt: localTimestamp(new Date(due), zone).slice(11, 16),
        kinds: { agingDigest: true },
      },
      agingDays: days,
    })
    expect(view.notifications.details).toBe(true)
    await turnOn(true)
    // B's first runs read it whole (a run gives way while the active account works).
    const waiting = async (): Promise<number> => {
      const counts = await scopeOf(idB).store?.call('agingCounts', {
        now: new Date(clock.now()).toISOString(),
        days,
      })
      return (counts?.rules ?? []).reduce((sum, rule) => sum + rule.count, 0)
    }
    for (let run = 0; run < 10 && (await waiting()) === 0; run += 1) await pass(INTERVAL_MS)
    expect(await waiting()).toBeGreaterThan(0)
    expect(clock.now()).toBeLessThan(due - 60_000)
    await call(core, 'lock.setPin', { pin: '482916' })
    await call(core, 'lock.now', {})
    await settle()
    await pass(due - clock.now())
    const digest = posted.find((n) => n.kind === 'agingDigest' && n.account?.id === idB)
    expect(digest?.title).toMatch(/^\[상점 B\] /)
    // Counts only: the setting says details, the lock says not now.
    expect(digest?.details).toBe(false)
  })

  it('switching to an account kept in the background closes its scope first; the old active one is kept', async () => {
    await turnOn(true)
    await pass(INTERVAL_MS)
    const storeB = scopeOf(idB).store
    await call(core, 'profiles.select', { id: idB })
    expect(storeB?.exited).toBe(true)
    await core.profiles.exclusive(() => Promise.resolve())
    expect([...core.background.ids].sort()).toEqual([idC, 'sandbox'].sort())
    await core.sync.idle()
    // The active account is B now: its own scope reads B's service.
    const b = sentTo(shopB)
    await pass(INTERVAL_MS)
    expect(sentTo(shopB)).toBeGreaterThan(b)
  })

  it('removing an account closes its background scope before its cache is deleted', async () => {
    await turnOn(true)
    await pass(INTERVAL_MS)
    const storeC = scopeOf(idC).store
    await call(core, 'profiles.remove', { id: idC, deleteCache: true })
    expect(storeC?.exited).toBe(true)
    expect(core.background.ids).toEqual([idB])
    expect(existsSync(storeFileFor(dataDir, idC))).toBe(false)
  })
})

describe('background turns', () => {
  /** A step that runs until the test ends it; records when it started and how it ended. */
  function gatedSteps(turns: BackgroundTurns, log: string[], name: string) {
    let finish: () => void = () => undefined
    const steps = turns.steps(() => ({
      run: (_step, signal) =>
        new Promise<StepResult>((resolve) => {
          log.push(`${name} start`)
          finish = () => {
            log.push(`${name} end`)
            resolve({ requests: 1, changed: 0 })
          }
          signal.addEventListener('abort', () => {
            log.push(`${name} gave way`)
            resolve({ requests: 0, changed: 0, error: new AppError('cancelled', 'gave way') })
          })
        }),
    }))
    return { run: () => steps.run('poll', new AbortController().signal), end: () => finish() }
  }

  it('runs one background account at a time, none while the active account works, and gives way to it', async () => {
    let activeBusy = true
    const turns = new BackgroundTurns(() => activeBusy)
    const log: string[] = []
    const b = gatedSteps(turns, log, 'B')
    const c = gatedSteps(turns, log, 'C')
    const runB = b.run()
    const runC = c.run()
    await Promise.resolve()
    // The active account works: neither starts.
    expect(log).toEqual([])
    activeBusy = false
    turns.activeChanged()
    await expect.poll(() => log).toEqual(['B start'])
    // The active account starts again: B gives way (cancelled, its step stays due).
    activeBusy = true
    turns.activeChanged()
    expect((await runB).error?.code).toBe('cancelled')
    expect(log).toEqual(['B start', 'B gave way'])
    activeBusy = false
    turns.activeChanged()
    await expect.poll(() => log).toEqual(['B start', 'B gave way', 'C start'])
    // B again waits for C: never two at once.
    const again = b.run()
    await Promise.resolve()
    expect(log.at(-1)).toBe('C start')
    c.end()
    expect((await runC).error).toBeUndefined()
    await expect.poll(() => log.at(-1)).toBe('B start')
    b.end()
    expect(await again).toEqual({ requests: 1, changed: 0 })
    expect(turns.running).toBe(false)
  })
})
