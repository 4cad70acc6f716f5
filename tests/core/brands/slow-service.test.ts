import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { bootForTest, call, selectService, type TestCore } from '../helpers/core'

/**
 * A service that trickles its body (headers at once, then 16 bytes every
 * 200 ms: a brand list takes minutes; docs/faults.md F13). Searches never wait for
 * it, and a sync gives up at the profile's deadline saying how long it took.
 */
describe('a service that trickles its answers', () => {
  let service: Sandbox
  let core: TestCore
  beforeAll(async () => {
    service = await startSandbox({
      seed: 5,
      size: 30,
      faults: [{ kind: 'slow_body', bytes: 16, ms: 200 }],
    })
    core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'slow-test' })
    const id = await selectService(core, service)
    // A 2 s deadline per request keeps the test short; the default is 30 s.
    await call(core, 'profiles.save', {
      id,
      name: 'Slow service',
      baseUrl: service.baseUrl,
      staticUrl: service.staticUrl,
      partnerId: service.partnerId,
      redirectUri: 'https://shop.example.com/done',
      timeoutSeconds: 2,
    })
  })
  afterAll(async () => {
    await core.close()
    await service.close()
  })

  it('brands.search answers from the store at once, says "not loaded yet", and fetches in the background', async () => {
    // The brand list cannot arrive before the 2 s deadline ends its fetch: each answer coming
    // while that fetch still runs (and without its error) is an answer that did not wait for it.
    for (const query of ['', '샤넬', 'ㅅㄴ', 'chanel']) {
      const answer = await call(core, 'brands.search', { query })
      expect(answer).toMatchObject({ items: [], total: 0, notLoaded: true })
      expect(answer.freshness.staleBecause).toBeUndefined()
      const brands = (await core.sync.status()).resources.find((r) => r.resource === 'brands')
      expect(brands?.status).toBe('syncing')
    }
  })

  it('a sync ends with timeout and a message with the real elapsed time', async () => {
    await core.sync.idle()
    const started = performance.now()
    await call(core, 'sync.start', { resources: ['guarantees'], mode: 'full' })
    await core.sync.idle()
    const elapsedS = (performance.now() - started) / 1000
    const status = await call(core, 'sync.status', {})
    const error = status.resources.find((r) => r.resource === 'guarantees')?.error
    expect(error?.code).toBe('timeout')
    // "… N attempts over X s, each allowed at most 2.0 s." with X the time the call really took.
    const match = /(\d+) attempts over ([\d.]+) s, each allowed at most 2\.0 s\./.exec(
      error?.message ?? '',
    )
    expect(match, error?.message).not.toBeNull()
    // Bracketed by real events, not a tolerance: each attempt ran until its 2 s deadline fired
    // (a timer never fires early), and all of them ran inside the interval timed here (the
    // 0.5 is the message's rounding: whole seconds from 10 s on).
    const reported = Number(match?.[2])
    expect(reported).toBeGreaterThanOrEqual(2 * Number(match?.[1]))
    expect(reported).toBeLessThanOrEqual(elapsedS + 0.5)
    // The brand fetch started by the search ended the same way, and a search still answers at once.
    const brands = status.resources.find((r) => r.resource === 'brands')
    expect(brands?.error?.code).toBe('timeout')
    const answer = await call(core, 'brands.search', { query: '' })
    expect(answer.notLoaded).toBe(true)
    expect(answer.freshness.staleBecause?.code).toBe('timeout')
  }, 60_000)

  it('after a failed brand fetch, searches do not queue another one behind the lists', async () => {
    await core.sync.idle()
    for (const query of ['', '샤넬']) {
      const answer = await call(core, 'brands.search', { query })
      expect(answer.notLoaded).toBe(true)
    }
    const brands = (await call(core, 'sync.status', {})).resources.find(
      (r) => r.resource === 'brands',
    )
    expect(brands?.status).not.toBe('syncing')
    expect(brands?.queued).toBe(false)
    expect(core.sync.busy).toBe(false)
  })
})
