import { afterEach, describe, expect, it } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { storeFileFor } from '../../../src/core/store/paths'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import {
  clientSyncSource,
  type RunOutcome,
  type SyncSource,
} from '../../../src/core/sync/paged-pass'
import {
  RUN_WIND_DOWN_MS,
  SyncEngine,
  type DeadlineTimer,
} from '../../../src/core/sync/sync-engine'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import type { SyncResourceName } from '../../../src/shared/resources'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { tempDir } from '../store/fixtures'

const DEADLINE_MS = 40_000

/**
 * The engine's deadline timer, driven by the test: every timer asked for is
 * kept until the test fires it, so a run's deadline passes exactly when the
 * test says and never before.
 */
function manualTimers(): {
  timer: DeadlineTimer
  next(ms: number): Promise<() => void>
} {
  const pending: { ms: number; fire: () => void; cancelled: boolean }[] = []
  const waiters: (() => void)[] = []
  return {
    timer(ms, fire) {
      const entry = { ms, fire, cancelled: false }
      pending.push(entry)
      for (const wake of waiters.splice(0)) wake()
      return () => {
        entry.cancelled = true
      }
    },
    /** The next live timer of `ms` asked for (waiting until one is). */
    async next(ms) {
      for (;;) {
        const found = pending.find((entry) => entry.ms === ms && !entry.cancelled)
        if (found) {
          pending.splice(pending.indexOf(found), 1)
          return found.fire
        }
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
  }
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openEngine(
  source: (pages: PageThread, store: StoreOwner) => SyncSource,
  timers: DeadlineTimer,
) {
  const temp = tempDir()
  cleanups.push(() => temp.remove())
  const store = await StoreOwner.open({
    file: storeFileFor(temp.dir, 'deadline'),
    threads: SOURCE_STORE_WORKER,
  })
  cleanups.push(() => store.close())
  const pages = new PageThread(SOURCE_PAGE_WORKER)
  cleanups.push(() => pages.close())
  const engine = new SyncEngine({
    store,
    source: source(pages, store),
    events: new EventBus(),
    runDeadlineMs: DEADLINE_MS,
    deadlineTimer: timers,
  })
  cleanups.push(async () => {
    engine.stop()
    await engine.idle()
  })
  return engine
}

describe('the run queue\u2019s overall deadline', () => {
  it('ends every resource\u2019s run with timeout against a service that trickles its answers', async () => {
    // One byte every 50 ms: a page would take hours, and each request's own deadline (60 s) is
    // far off, so only the run's deadline can end these runs.
    const sandbox: Sandbox = await startSandbox({
      seed: 3,
      size: 200,
      faults: [{ kind: 'trickle', bytes: 1, ms: 50 }],
    })
    cleanups.push(() => sandbox.close())
    const requested: string[] = []
    const client = new PartnerClient({
      fetch: (input, init) => {
        requested.push(new URL(String(input)).pathname)
        return globalThis.fetch(input, init)
      },
      target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
      credentials: async () => ({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
      timeoutMs: 60_000,
    })
    const timers = manualTimers()
    const engine = await openEngine(
      (pages, store) => clientSyncSource(client, pages.towards(store)),
      timers.timer,
    )
    const ended = new Map<SyncResourceName, RunOutcome>()
    const order: SyncResourceName[] = ['brands', 'inspections', 'guarantees']
    const all = engine.run(order).then((outcomes) => {
      for (const outcome of outcomes) ended.set(outcome.resource, outcome)
      return outcomes
    })
    const paths = { brands: /\/brand$/, inspections: /\/inspection$/, guarantees: /\/guarantee$/ }
    for (const resource of order) {
      const fire = await timers.next(DEADLINE_MS)
      // The run has asked the service and is still waiting for its answer.
      while (!requested.some((path) => paths[resource].test(path))) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      expect(ended.has(resource)).toBe(false)
      expect((await engine.status()).resources.find((r) => r.resource === resource)?.status).toBe(
        'syncing',
      )
      fire()
    }
    const outcomes = await all
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ phase: 'error', error: { code: 'timeout' } })
      expect(outcome.error?.message).toContain('deadline')
    }
    const status = await engine.status()
    for (const resource of status.resources) {
      expect(resource.status).toBe('offline')
      expect(resource.error?.code).toBe('timeout')
    }
  }, 30_000)

  it('reports the timeout and moves on when a run ignores its abort', async () => {
    const never = new Promise<never>(() => undefined)
    const stuck: SyncSource = {
      brands: () => never,
      inspections: () => never,
      guarantees: () => never,
    }
    const timers = manualTimers()
    const engine = await openEngine(() => stuck, timers.timer)
    const outcome = engine.run(['brands'])
    ;(await timers.next(DEADLINE_MS))()
    ;(await timers.next(RUN_WIND_DOWN_MS))()
    const [brands] = await outcome
    expect(brands).toMatchObject({ resource: 'brands', phase: 'error', error: { code: 'timeout' } })
    const status = (await engine.status()).resources.find((r) => r.resource === 'brands')
    expect(status?.status).not.toBe('syncing')
    // The queue is free: the next run starts (and ends at its own deadline).
    const next = engine.run(['inspections'])
    ;(await timers.next(DEADLINE_MS))()
    ;(await timers.next(RUN_WIND_DOWN_MS))()
    expect((await next)[0]?.error?.code).toBe('timeout')
  })
})
