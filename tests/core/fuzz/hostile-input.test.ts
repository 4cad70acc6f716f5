import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sourceThreads } from '../../../src/core/threads/source-entries'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { FetchLike } from '../../../src/core/api/http'
import { CHANNEL_NAMES, type ChannelName } from '../../../src/shared/channels'
import { argSchemas } from '../../../src/shared/contract'
import { ERROR_CODES, type Result } from '../../../src/shared/errors'
import { PROFILE_ID_PATTERN, type ProfileList } from '../../../src/shared/profiles'
import type { SavedViewList } from '../../../src/shared/saved-views'
import type { WalletHistoryPage } from '../../../src/shared/wallet'
import type { LockStatus } from '../../../src/shared/lock'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { joinTeam } from '../../support/team-core'
import { adminClient, makeTeam, teamCluster } from '../../support/team-fixtures'
import { arbitraryFor, type Hint } from '../../support/fuzz/zod-arbitrary'
import { applyMutations, mutations } from '../../support/fuzz/mutate'
import { StoreDigest, changedParts } from '../../support/fuzz/store-digest'
import { fuzzPageAnswers } from '../../support/fuzz/page-answers'
import { FUZZ_BUDGET_MS, FUZZ_SEED } from '../../support/fuzz/budget'

/**
 * Hostile input, tried by the thousand (docs/security.md "Fuzzing"): every
 * channel of the contract through the real router of a real core (its
 * database owner, page and team threads, the embedded sandbox, a team
 * server on the test cluster), with arguments generated from the channel's
 * own schema and then mutated; and the page reader fed mutated partner
 * answers. Seed and time budget: FUZZ_SEED and FUZZ_BUDGET_MS (`npm run fuzz`
 * runs a long budget; the unit suite a short one).
 *
 * Host parts faked instead of skipping a channel:
 * - the network: `fetch` reaches only this computer (the sandbox); any other
 *   host fails as a name that does not resolve, so `profiles.test` and card
 *   images never leave the machine;
 * - file saves (`changes.export`, `lists.export`, `wallet.export`,
 *   `reconcile.export`): a save dialog that keeps the bytes in memory and
 *   answers a path or "cancelled" in turn;
 * - wallet windows (`wallet.start`): core runs as the web host, which opens
 *   no window (the page opens the popup);
 * - the keychain: the session-only memory store, so keys set here never
 *   reach the desktop's keychain;
 * - team servers: the test cluster's address, or a closed port on this
 *   computer.
 *
 * The app lock starts in a known state: {@link KNOWN_PIN} set, unlocked, no
 * idle lock. Generated PINs are that PIN or a wrong one, so a fuzzed call can
 * lock the app, unlock it, count a wrong entry or remove the PIN, but never
 * set a PIN nobody knows. While locked, every data channel answers `locked`
 * (a code of the closed list); after each channel's turn the known state is
 * restored (a wrong-entry wait is passed by moving the core's clock on). A
 * refused call changes nothing stored and nothing of the lock's state; the
 * one exception is the one a wrong PIN or secret must cause: a refused
 * `lock.*` call may count one more wrong entry (docs/security.md "The app lock").
 */

/** The PIN the fuzz run sets; generated PINs are this one or a wrong one. */
const KNOWN_PIN = 'fuzz-pin-4821'
/** The keychain account of the lock's entry (its hash and its wrong-entry count). */
const LOCK_ACCOUNT = 'app-lock'

/** Share of the budget for IPC calls; the rest feeds the page reader. */
const IPC_SHARE = 0.6
/** Calls between two checks that every thread still answers. */
const ALIVE_EVERY = 300
/** Calls of one channel in a row, each round. */
const CALLS_PER_TURN = 6
/** Calls of a `lock.*` channel in a row: enough valid ones to pass five wrong entries. */
const LOCK_CALLS_PER_TURN = 16
/** The lock's channels whose turn starts with the app locked (the others start unlocked). */
const LOCKED_TURNS: ReadonlySet<ChannelName> = new Set([
  'lock.status',
  'lock.activity',
  'lock.unlock',
  'lock.resetWithSecret',
  'lock.resetByErasing',
])

describe('hostile input, tried by the thousand', () => {
  let core: BootedCore
  let admin: pg.Client
  let member: TeamServerConfig
  let baseId: string
  let digest: StoreDigest
  const keychain = new MemoryStore()
  const keychainService = 'Appraisal Desk fuzz'
  const logged: string[] = []
  const saved: { name: string; bytes: number }[] = []
  const known = {
    profileIds: [] as string[],
    viewIds: [] as string[],
    flowIds: [] as string[],
    idx: [] as number[],
    members: [] as string[],
    cardUrls: [] as string[],
  }
  /** How far the core's clock runs ahead of the real one (moved on past a wrong-entry wait). */
  let clockOffsetMs = 0

  /** Only this computer: everything else fails like a host name that does not resolve. */
  const localFetch: FetchLike = (input, init) => {
    const host = new URL(input).hostname
    if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') {
      return globalThis.fetch(input, init)
    }
    return Promise.reject(
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('no network'), { code: 'ENOTFOUND' }),
      }),
    )
  }

  beforeAll(async () => {
    const cluster = teamCluster()
    admin = await adminClient()
    const partner = 'demo-shop-0001'
    member = (await makeTeam(admin, { partner, members: ['fuzz'] })).configs[0]!
    core = await bootWithEmbeddedSandbox({
      fetch: localFetch,
      dataDir: mkdtempSync(join(tmpdir(), 'fuzz-')),
      host: 'web',
      version: '0.0.0-fuzz',
      keychain,
      keychainService,
      openSettings: openConfFile,
      ...sourceThreads(),
      teamBackoffMs: { base: 10, max: 200 },
      log: (line) => logged.push(line),
      now: () => new Date(Date.now() + clockOffsetMs),
      sandbox: { size: 40 },
      saveFile: async (name, bytes) => {
        saved.push({ name, bytes: bytes.byteLength })
        return saved.length % 2 === 0 ? null : join(tmpdir(), 'never-written', name)
      },
    })
    expect(core.sandbox.partnerId).toBe(partner)
    baseId = await joinTeam(core, core.sandbox, member)
    void cluster
    const settings = await dispatchOk('settings.get', {})
    digest = new StoreDigest({
      dataDir: (settings as { dataDir: string }).dataDir,
      settingsFile: () => (settings as { path: string | null }).path,
      keychain: async () => withoutLockCounters(await keychain.find(keychainService)),
    })
    await restoreLock()
    expect(await lockStatus()).toMatchObject({ pinSet: true, locked: false, failures: 0 })
    await refreshKnown()
  }, 60_000)

  afterAll(async () => {
    digest?.close()
    await core?.close()
    await admin?.end()
  })

  async function dispatchOk(channel: ChannelName, args: unknown): Promise<unknown> {
    const answer = await core.router.dispatch(channel, args)
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.code} ${answer.error.message}`)
    return answer.value
  }

  /**
   * Ids and values that exist now, so generated calls find real profiles,
   * views, flows and records; `area` refreshes only what a channel of that
   * prefix may have changed.
   */
  async function refreshKnown(area?: string): Promise<void> {
    if (!area || area === 'profiles') {
      const profiles = (await dispatchOk('profiles.list', {})) as ProfileList
      known.profileIds = profiles.profiles.map((p) => p.id)
    }
    if (!area || area === 'views') {
      const views = (await dispatchOk('views.list', {})) as SavedViewList
      known.viewIds = views.views.map((v) => v.id)
    }
    if (!area || area === 'wallet') {
      const wallet = (await dispatchOk('wallet.history', { limit: 1 })) as WalletHistoryPage
      known.flowIds = wallet.running ? [wallet.running.flowId] : []
    }
    if (area) return
    const page = (await dispatchOk('guarantees.query', { limit: 20 })) as {
      rows: { idx: number; refUserId?: string | null; nftCardImg?: string | null }[]
    }
    if (page.rows.length > 0) {
      known.idx = page.rows.map((row) => row.idx)
      known.members = page.rows.flatMap((row) => (row.refUserId ? [row.refUserId] : []))
      known.cardUrls = page.rows.flatMap((row) => (row.nftCardImg ? [row.nftCardImg] : []))
    }
  }

  /**
   * The keychain's entries with the lock entry's wrong-entry count and wait
   * left out: the one thing a refused `lock.*` call may change, checked on
   * its own ({@link lockStatus}).
   */
  function withoutLockCounters(entries: { account: string; password: string }[]) {
    return entries.map((entry) => {
      if (entry.account !== LOCK_ACCOUNT) return entry
      try {
        const {
          failures: _failures,
          retryAt: _retryAt,
          ...rest
        } = JSON.parse(entry.password) as Record<string, unknown>
        return { account: entry.account, password: JSON.stringify(rest) }
      } catch {
        return entry
      }
    })
  }

  async function lockStatus(): Promise<LockStatus> {
    return (await dispatchOk('lock.status', {})) as LockStatus
  }

  /**
   * The known lock state again: {@link KNOWN_PIN} set, unlocked, no wrong
   * entries and no idle lock. A wait after wrong entries is passed by moving
   * the core's clock past it, as staff would wait it out.
   */
  async function restoreLock(): Promise<void> {
    let status = await lockStatus()
    if (status.retryAt !== null) {
      clockOffsetMs += Date.parse(status.retryAt) - (Date.now() + clockOffsetMs) + 1000
      status = await lockStatus()
      expect(status.retryAt).toBeNull()
    }
    if (status.locked) {
      const attempt = (await dispatchOk('lock.unlock', { pin: KNOWN_PIN })) as {
        unlocked: boolean
      }
      expect(attempt.unlocked).toBe(true)
      status = await lockStatus()
    }
    if (status.idleSeconds !== 0) await dispatchOk('settings.set', { lockIdleSeconds: 0 })
    if (!status.pinSet || status.failures > 0) {
      await dispatchOk('lock.setPin', { pin: KNOWN_PIN, current: KNOWN_PIN })
    }
  }

  /** An entered PIN: mostly a wrong one, so turns run past five wrong entries into the wait. */
  const enteredPin = fc.oneof(
    { weight: 1, arbitrary: fc.constant(KNOWN_PIN) },
    { weight: 3, arbitrary: fc.constantFrom('not-the-pin', '0000', KNOWN_PIN.toUpperCase()) },
  )

  /** Mostly a value that exists now, else the generator's own. */
  const existing = <T>(list: () => readonly T[], otherwise: fc.Arbitrary<unknown>) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(fc.nat(), otherwise).map(([i, other]) => {
          const values = list()
          return values.length > 0 ? values[i % values.length] : other
        }),
      },
      { weight: 1, arbitrary: otherwise },
    )

  const hint: Hint = (key, path) => {
    const channel = path[0] ?? ''
    const cluster = teamCluster()
    switch (key) {
      case 'baseUrl':
      case 'staticUrl':
        return fc.constantFrom(
          core.sandbox.baseUrl,
          core.sandbox.staticUrl,
          'http://127.0.0.1:9',
          'https://localhost:1/api',
        )
      case 'redirectUri':
        return fc.constantFrom(
          'https://shop.example.com/done',
          new URL('/wallet/done', core.sandbox.baseUrl).toString(),
        )
      case 'timeZone':
        return fc.constantFrom('Asia/Seoul', 'UTC', 'America/New_York')
      case 'id':
        if (channel.startsWith('views.')) return existing(() => known.viewIds, fc.uuid())
        return existing(() => known.profileIds, fc.stringMatching(PROFILE_ID_PATTERN))
      case 'flowId':
        return existing(() => known.flowIds, fc.uuid())
      case 'idx':
      case 'guaranteeIdx':
        return existing(() => known.idx, fc.integer({ min: 1, max: 500 }))
      case 'member':
      case 'refUserId':
        return existing(() => known.members, fc.string({ minLength: 1, maxLength: 12 }))
      case 'url':
        return existing(() => known.cardUrls, fc.webUrl())
      case 'host':
        return fc.constantFrom(cluster.host, '127.0.0.1')
      case 'port':
        return path.includes('team') ? fc.constantFrom(cluster.port, 1) : undefined
      case 'database':
        return fc.constantFrom(cluster.database, 'nowhere')
      case 'role':
        return path.includes('team') ? fc.constantFrom(member.user, 'someone_else') : undefined
      case 'caFile':
        return fc.constantFrom(cluster.caFile, '/nonexistent/ca.pem')
      case 'password':
        return fc.constantFrom(member.password, 'not-the-password')
      case 'pin':
        // A new PIN is always the known one; an entered one is mostly wrong.
        return channel === 'lock.setPin' ? fc.constant(KNOWN_PIN) : enteredPin
      case 'current':
        return enteredPin
      case 'apiSecret':
        return channel === 'lock.resetWithSecret'
          ? fc.constantFrom(core.sandbox.apiSecret, 'not-the-secret')
          : undefined
      default:
        return undefined
    }
  }

  /** A call of `channel`: arguments valid by its schema, mostly mutated. */
  const argsFor = (channel: ChannelName) =>
    fc
      .tuple(arbitraryFor(argSchemas[channel], hint, [channel]), fc.option(mutations, { freq: 3 }))
      .map(([valid, mutation]) => ({
        mutated: mutation !== null,
        args: mutation === null ? valid : applyMutations(valid, mutation),
      }))

  /** Waits for what a call started in the background (syncs, slices) to finish. */
  async function settle(): Promise<void> {
    await core.sync.idle()
  }

  /** The answer is a result with a code from the closed list, and crosses IPC (structured clone). */
  function checkAnswer(answer: Result<unknown>): void {
    expect(typeof answer).toBe('object')
    if (answer.ok) {
      expect(answer).toHaveProperty('value')
    } else {
      expect(ERROR_CODES).toContain(answer.error.code)
      expect(typeof answer.error.message).toBe('string')
    }
    expect(() => structuredClone(answer)).not.toThrow()
  }

  /**
   * Every thread still answers: the lock and the base profile are in their
   * known state again (the fuzzer may have locked the app, switched, removed
   * or re-keyed the profile, or erased every cache file), a full sync through
   * the page thread finishes without an error, the owner answers a query,
   * and the team thread is connected.
   */
  async function checkAlive(): Promise<void> {
    await settle()
    await restoreLock()
    await restoreBase()
    // The page thread: a full pass parses every page there (again once the key is restored,
    // when the fuzzer replaced the secret).
    const syncErrors = async () => {
      await dispatchOk('sync.start', { resources: ['inspections', 'guarantees'], mode: 'full' })
      await settle()
      const status = (await dispatchOk('sync.status', {})) as {
        resources: { resource: string; error?: { code: string } }[]
      }
      return status.resources.flatMap((r) =>
        r.resource !== 'brands' && r.error ? [`${r.resource}: ${r.error.code}`] : [],
      )
    }
    let errors = await syncErrors()
    if (errors.some((error) => error.endsWith(': auth'))) {
      await restoreKey()
      errors = await syncErrors()
    }
    expect(errors).toEqual([])
    // The owner (after the sync: `lock.resetByErasing` may have emptied every cache file).
    const page = (await dispatchOk('inspections.query', { limit: 5 })) as { total: number }
    expect(page.total).toBeGreaterThan(0)
    // The team thread (a password the fuzzer stored is replaced again).
    await waitFor(async () => {
      const team = (await dispatchOk('team.status', {})) as {
        state: string
        error?: { code: string }
      }
      if (team.state === 'offline' && team.error?.code === 'team_auth') {
        await dispatchOk('team.setPassword', { id: baseId, password: member.password })
      }
      return team.state === 'connected'
    }, 'the team thread to connect')
    expect(logged.filter((line) => /thread (stopped|exited|crashed)/i.test(line))).toEqual([])
    await refreshKnown()
  }

  /**
   * The base profile active again with its address, key and team server (the
   * fuzzer may have switched, edited, re-keyed or removed it): changed only
   * where it differs, so a healthy team thread is not restarted.
   */
  async function restoreBase(): Promise<void> {
    const profiles = (await dispatchOk('profiles.list', {})) as ProfileList
    const base = profiles.profiles.find((p) => p.id === baseId)
    if (!base) {
      baseId = await joinTeam(core, core.sandbox, member)
      return
    }
    const team = {
      host: member.host,
      port: member.port,
      database: member.database,
      role: member.user,
      tls: member.tls,
      ...(member.caFile ? { caFile: member.caFile } : {}),
    }
    const profile = {
      name: 'Shop',
      baseUrl: core.sandbox.baseUrl,
      staticUrl: core.sandbox.staticUrl,
      partnerId: core.sandbox.partnerId,
      redirectUri: 'https://shop.example.com/done',
      kind: 'test',
    } as const
    const edited =
      Object.entries(profile).some(([key, value]) => base[key as keyof typeof base] !== value) ||
      base.timeoutSeconds !== 30 ||
      JSON.stringify(base.team ?? null) !== JSON.stringify(team)
    if (profiles.activeId !== baseId) await dispatchOk('profiles.select', { id: baseId })
    if (edited)
      await dispatchOk('profiles.save', { id: baseId, ...profile, timeoutSeconds: 30, team })
    if (base.credentials.keyLast4 !== core.sandbox.apiKey.slice(-4)) await restoreKey()
  }

  /** The base profile's key and secret stored again (the fuzzer may have replaced either). */
  async function restoreKey(): Promise<void> {
    await dispatchOk('profiles.setSecret', {
      id: baseId,
      apiKey: core.sandbox.apiKey,
      apiSecret: core.sandbox.apiSecret,
      sessionOnly: true,
    })
  }

  /** Resolves once `check` holds, checked now and after each of core's events (fails after 60 s: a loaded machine connects slowly). */
  async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 60_000
    for (;;) {
      let stop = (): void => undefined
      let timer: ReturnType<typeof setTimeout> | undefined
      const next = new Promise<void>((resolve) => {
        stop = core.events.subscribe(() => resolve())
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
      })
      try {
        if (await check()) return
        if (Date.now() >= deadline) throw new Error(`timed out waiting for ${what}`)
        await next
      } finally {
        stop()
        clearTimeout(timer)
      }
    }
  }

  it(
    'answers every call with ok or a closed error code, keeps every thread alive, and changes nothing on a refusal',
    async () => {
      const counts = { calls: 0, valid: 0, refused: 0, locked: 0, pages: 0 }
      let rounds = 0
      const started = Date.now()
      const ipcBudget = FUZZ_BUDGET_MS * IPC_SHARE

      /** One call: its answer checked, and on a refusal what is stored compared with before. */
      const tryCall = async (channel: ChannelName, args: unknown, mutated: boolean) => {
        await settle()
        const before = await digest.take()
        const lockBefore = await lockStatus()
        const answer = await core.router.dispatch(channel, args)
        counts.calls += 1
        if (!mutated) counts.valid += 1
        checkAnswer(answer)
        if (!answer.ok) {
          counts.refused += 1
          if (answer.error.code === 'locked') counts.locked += 1
          await settle()
          const after = await digest.take()
          if (after !== before) {
            throw new Error(
              `${channel} was refused (${answer.error.code}: ${answer.error.message}) but changed what is stored: ${changedParts(before, after).join(', ')}`,
            )
          }
          // Nor the lock's state: only a wrong PIN or secret (`lock.*`, refused `locked`) counts one more.
          const lockAfter = await lockStatus()
          const counted =
            channel.startsWith('lock.') &&
            answer.error.code === 'locked' &&
            lockAfter.failures === lockBefore.failures + 1
          const unchanged = (status: LockStatus) => ({
            pinSet: status.pinSet,
            locked: status.locked,
            idleSeconds: status.idleSeconds,
            failures: counted ? null : status.failures,
            retryAt: counted ? null : status.retryAt,
          })
          expect(unchanged(lockAfter), `${channel} was refused but changed the lock`).toEqual(
            unchanged(lockBefore),
          )
        } else if (/^(profiles|views|wallet)\./.test(channel)) {
          await refreshKnown(channel.split('.')[0])
        }
        expect(Object.keys(Object.prototype)).toEqual([])
        if (counts.calls % ALIVE_EVERY === 0) await checkAlive()
      }

      // Rounds over the channel table: every channel gets its turn each round, with a seed of its
      // own; the first round always ends, whatever the budget.
      const spent = () => Date.now() - started >= ipcBudget
      for (let round = 0; round === 0 || !spent(); round += 1) {
        for (const [index, channel] of CHANNEL_NAMES.entries()) {
          const seed = FUZZ_SEED + round * 1000 + index
          // The last turn may have locked the app, removed the PIN or run up a wait: the known
          // state again, locked for the lock's channels that answer while locked.
          await restoreLock()
          if (LOCKED_TURNS.has(channel)) await dispatchOk('lock.now', {})
          const numRuns = channel.startsWith('lock.') ? LOCK_CALLS_PER_TURN : CALLS_PER_TURN
          try {
            await fc.assert(
              fc.asyncProperty(argsFor(channel), ({ args, mutated }) =>
                tryCall(channel, args, mutated),
              ),
              {
                seed,
                numRuns,
                endOnFailure: true,
                // fast-check's own report prints the failing value, and a value nested 20,000 deep
                // overflows its printer, hiding the failure: report the error and the path instead.
                reporter: (details) => {
                  if (!details.failed) return
                  const path = details.counterexamplePath ?? ''
                  throw new Error(`failed at path ${path}: ${String(details.errorInstance)}`, {
                    cause: details.errorInstance,
                  })
                },
              },
            )
          } catch (error) {
            throw new Error(`${channel}, round ${round} (seed ${seed}): ${String(error)}`, {
              cause: error,
            })
          }
          if (round > 0 && spent()) break
        }
        rounds = round + 1
      }
      await checkAlive()

      counts.pages = await fuzzPageAnswers({
        sandbox: core.sandbox,
        seed: FUZZ_SEED,
        budgetMs: Math.max(
          FUZZ_BUDGET_MS * (1 - IPC_SHARE),
          FUZZ_BUDGET_MS - (Date.now() - started),
        ),
      })

      console.log(
        `fuzz: ${counts.calls.toLocaleString('en-US')} IPC calls in ${rounds} rounds over ${CHANNEL_NAMES.length} channels (${counts.valid.toLocaleString('en-US')} unmutated, ${counts.refused.toLocaleString('en-US')} refused, ${counts.locked.toLocaleString('en-US')} of them locked), ${counts.pages.toLocaleString('en-US')} page answers, seed ${FUZZ_SEED}`,
      )
      // Every channel of the contract had its turn at least once.
      expect(rounds).toBeGreaterThan(0)
      expect(counts.pages).toBeGreaterThan(0)
    },
    FUZZ_BUDGET_MS + 120_000,
  )
})
