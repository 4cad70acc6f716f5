import { afterEach, describe, expect, it } from 'vitest'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import { readSyncState } from '../../../src/core/store/sync-state'
import { createMatcher } from '../../support/matcher'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

const pageOf = (url: URL): number => Number(url.searchParams.get('page'))

describe('full sync against the sandbox', () => {
  it('stores every record, learns the page-size cap, reports progress and freshness', async () => {
    h = await startHarness({ size: 450 })
    const outcomes = await h.engine.run(['brands', 'inspections', 'guarantees'])
    expect(outcomes.map((o) => [o.resource, o.phase, o.complete])).toEqual([
      ['brands', 'done', true],
      ['inspections', 'done', true],
      ['guarantees', 'done', true],
    ])
    expect(h.count('inspections')).toBe(450)
    expect(h.count('guarantees')).toBe(450)
    // The first page asked for 500; the sandbox gave fewer, so later pages ask for its cap.
    const sizes = new Set(
      h.proxy.urls.filter((u) => pageOf(u) > 1).map((u) => u.searchParams.get('pageSize')),
    )
    expect(sizes.size).toBe(1)
    expect(Number([...sizes][0])).toBeLessThan(500)

    const running = h.progress.filter((p) => p.resource === 'inspections' && p.phase === 'running')
    expect(running.at(-1)).toMatchObject({ fetched: 450, total: 450, mode: 'full' })
    expect(running.at(-1)!.pages).toBeGreaterThan(1)
    expect(h.progress.filter((p) => p.phase === 'done').map((p) => p.resource)).toEqual([
      'brands',
      'inspections',
      'guarantees',
    ])
    expect(h.changed).toContain('inspections')

    const page = queryInspections(h.db, { limit: 10 })
    expect(page.total).toBe(450)
    expect(page.freshness.lastSyncAt).not.toBeNull()
    expect(page.freshness.lastFullSyncAt).not.toBeNull()
    expect(queryGuarantees(h.db, { state: 'complete' }).total).toBe(
      queryGuarantees(h.db, {}).counts.find((c) => c.status === '발급완료')?.count,
    )
    const status = await h.engine.status()
    expect(status.resources.every((r) => r.status === 'idle' && !r.resumable)).toBe(true)
  })

  it('search over synced sandbox data finds exactly what a plain substring/초성 match finds', async () => {
    h = await startHarness({ size: 600 })
    await h.engine.run(['inspections'])
    const names = (
      h.db.prepare('SELECT product_name FROM inspections').all() as { product_name: string }[]
    ).map((row) => row.product_name)
    for (const q of [
      '샤넬',
      '백',
      '루이비통',
      'ㄹㅇㅂㅌ',
      'ㅅㄴ',
      'ㅂ',
      '지갑',
      '클래식 플랩',
      '미니 캐',
    ]) {
      const matches = createMatcher(q)
      expect([q, queryInspections(h.db, { q }).total]).toEqual([
        q,
        names.filter((name) => matches(name)).length,
      ])
    }
  })

  it('a later run is incremental: it re-reads only the recent window', async () => {
    h = await startHarness({ size: 300 })
    await h.engine.run(['inspections'])
    const before = h.proxy.urls.length
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome?.phase).toBe('done')
    const incremental = h.proxy.urls.slice(before)
    expect(incremental.length).toBeGreaterThan(0)
    expect(
      incremental.every((u) => /^\d{4}-\d{2}-\d{2}$/.test(u.searchParams.get('from') ?? '')),
    ).toBe(true)
    expect(h.count('inspections')).toBe(300)
  })
})

describe('faults during sync (docs/faults.md F6–F11)', () => {
  it('items missing a required field are counted and reported; the others are stored (6)', async () => {
    h = await startHarness({ size: 150 })
    h.proxy.fault = (url, body) =>
      pageOf(url) === 1
        ? {
            ...body,
            data: body.data.map((item, i) => (i < 3 ? { ...item, productName: undefined } : item)),
          }
        : undefined
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done', rejected: 3 })
    expect(h.count('inspections')).toBe(147)
    expect(h.progress.at(-1)?.rejected).toBe(3)
    expect(
      (await h.engine.status()).resources.find((r) => r.resource === 'inspections')?.rejected,
    ).toBe(3)
  })

  it('unknown fields and __proto__ keys are kept as data, never polluting prototypes (7)', async () => {
    h = await startHarness({ size: 20 })
    h.proxy.fault = (_url, body) => ({
      ...body,
      data: body.data.map((item) =>
        JSON.parse(
          JSON.stringify({ ...item, extraNote: 'x' }).replace('{', '{"__proto__":{"polluted":1},'),
        ),
      ),
    })
    await h.engine.run(['inspections'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    const rows = h.db.prepare('SELECT raw FROM inspections').all() as { raw: string }[]
    expect(rows).toHaveLength(20)
    for (const row of rows) {
      // raw keeps what the typed columns do not: here the unknown fields.
      const stored = JSON.parse(row.raw) as { raw: Record<string, unknown> }
      expect(stored).not.toHaveProperty('productName')
      expect(stored.raw).toMatchObject({ extraNote: 'x' })
      expect(Object.hasOwn(stored.raw, '__proto__')).toBe(true)
      expect(Object.getOwnPropertyDescriptor(stored.raw, '__proto__')?.value).toEqual({
        polluted: 1,
      })
    }
  })

  it('a service repeating the same page stops with pagination_stuck; no duplicates (9)', async () => {
    h = await startHarness({ size: 450 })
    h.proxy.fault = () => undefined
    const first = await h.engine.run(['inspections'], 'full')
    expect(first[0]?.phase).toBe('done')
    // Now every page answers page 1's records.
    const pageOne = (await (
      await fetch(h.proxy.urls[0]!, {
        headers: { 'x-service-api-key': h.sandbox.apiKey, authorization: h.sandbox.apiSecret },
      })
    ).json()) as { total: number; page: number; data: unknown[] }
    h.proxy.fault = () => pageOne
    const [outcome] = await h.engine.run(['inspections'], 'full')
    expect(outcome?.error?.code).toBe('pagination_stuck')
    expect(h.count('inspections')).toBe(450)
    expect(
      (await h.engine.status()).resources.find((r) => r.resource === 'inspections')?.status,
    ).toBe('error')
  })

  it('total changing mid-sync: stored without duplicates, pass not complete, nothing marked gone (10)', async () => {
    h = await startHarness({ size: 450 })
    h.proxy.fault = (url, body) =>
      pageOf(url) >= 2 ? { ...body, total: body.total + 5 } : undefined
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done', complete: false })
    expect(h.count('inspections', 'gone_at IS NOT NULL')).toBe(0)
    expect(readSyncState(h.db, 'inspections').lastFullAt).toBeNull()
  })

  it('total shrinking mid-sync: progress never shows more fetched than the total, and says the total moved', async () => {
    h = await startHarness({ size: 450 })
    h.proxy.fault = (url, body) =>
      pageOf(url) >= 2 ? { ...body, total: body.total - 200 } : undefined
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done', complete: false })
    const mine = h.progress.filter((p) => p.resource === 'inspections')
    expect(mine.length).toBeGreaterThan(2)
    for (const p of mine) if (p.total !== null) expect(p.fetched).toBeLessThanOrEqual(p.total)
    expect(mine.at(-1)).toMatchObject({
      phase: 'done',
      total: 250,
      fetched: 250,
      totalChanged: true,
    })
    expect(mine[0]?.totalChanged).toBeUndefined()
  })

  it('every run goes through the queue: two callers of the same resource share one pass', async () => {
    h = await startHarness({ size: 200 })
    const [first, second] = await Promise.all([
      h.engine.run(['inspections']),
      h.engine.run(['inspections', 'guarantees']),
    ])
    expect(first[0]).toBe(second[0])
    expect(second[1]).toMatchObject({ resource: 'guarantees', phase: 'done' })
    const firstPages = h.proxy.urls.filter(
      (url) => url.pathname.endsWith('/inspection') && pageOf(url) === 1,
    )
    expect(firstPages).toHaveLength(1)
  })

  it('an empty page before total ends the loop as a partial pass (11)', async () => {
    h = await startHarness({ size: 450 })
    h.proxy.fault = (url, body) => (pageOf(url) >= 3 ? { ...body, data: [] } : undefined)
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done', complete: false })
    expect(h.count('inspections')).toBeLessThan(450)
  })

  it('an oversized page is stored whole, written in several transactions (12)', async () => {
    h = await startHarness({ size: 100, engine: { maxRowsPerTransaction: 500 } })
    h.proxy.fault = (_url, body) => {
      const template = body.data[0]!
      const data = Array.from({ length: 3000 }, (_, i) => ({ ...template, idx: 100_000 + i }))
      return { total: 3000, page: 1, data }
    }
    const [outcome] = await h.engine.run(['inspections'])
    expect(outcome).toMatchObject({ phase: 'done', complete: true, fetched: 3000 })
    expect(h.count('inspections')).toBe(3000)
  })

  it('a complete full pass marks records the service no longer returns as gone, not deleted', async () => {
    h = await startHarness({ size: 120 })
    await h.engine.run(['inspections'])
    const victim = (
      h.db.prepare('SELECT max(idx) AS idx FROM inspections').get() as { idx: number }
    ).idx
    h.proxy.fault = (_url, body) => ({
      ...body,
      total: body.total - 1,
      data: body.data.filter((item) => item['idx'] !== victim),
    })
    const [outcome] = await h.engine.run(['inspections'], 'full')
    expect(outcome).toMatchObject({ phase: 'done', complete: true })
    expect(h.count('inspections')).toBe(120)
    expect(h.count('inspections', `gone_at IS NOT NULL AND idx = ${victim}`)).toBe(1)
    expect(queryInspections(h.db, {}).total).toBe(119)
  })

  it('a server error mid-pass keeps the stored pages and the next run resumes at the failed page', async () => {
    h = await startHarness({ size: 450, engine: { concurrency: 1 } })
    h.proxy.fault = (url) => (pageOf(url) === 3 ? 500 : undefined)
    const [failed] = await h.engine.run(['inspections'])
    expect(failed?.error?.code).toBe('server')
    const stored = h.count('inspections')
    expect(stored).toBeGreaterThan(0)
    expect(readSyncState(h.db, 'inspections').checkpoint?.nextPage).toBe(3)
    expect(queryInspections(h.db, {}).freshness.staleBecause?.code).toBe('server')

    h.proxy.fault = null
    const before = h.proxy.urls.length
    const [resumed] = await h.engine.run(['inspections'])
    expect(resumed).toMatchObject({ phase: 'done', complete: true })
    expect(pageOf(h.proxy.urls[before]!)).toBe(3)
    expect(h.count('inspections')).toBe(450)
  })

  it('says data.changed when a pass starts and when it fails, each after the freshness it carries is stored', async () => {
    // The lists learn of a sync only through data.changed (docs/renderer.md): an open list
    // shows "syncing" from the first, and the failure's reason once it is kept.
    h = await startHarness({ size: 450, engine: { concurrency: 1 } })
    h.proxy.fault = (url) => (pageOf(url) === 3 ? 500 : undefined)
    const seen: string[] = []
    h.events.subscribe((event, payload) => {
      if (event !== 'data.changed' || (payload as { resource: string }).resource !== 'inspections')
        return
      const { freshness } = queryInspections(h.db, { limit: 1 })
      const state = freshness.syncing ? 'syncing' : (freshness.staleBecause?.code ?? 'fresh')
      seen.push(`${state} after ${h.proxy.urls.length} requests`)
    })
    await h.engine.run(['inspections'])
    expect(seen[0]).toBe('syncing after 0 requests')
    expect(seen.at(-1)).toMatch(/^server after/)
  })

  it('offline: status offline with the typed error, cache intact', async () => {
    h = await startHarness({ size: 100 })
    await h.engine.run(['inspections'])
    await h.sandbox.close()
    const [outcome] = await h.engine.run(['inspections'], 'full')
    expect(outcome?.phase).toBe('error')
    const status = (await h.engine.status()).resources.find((r) => r.resource === 'inspections')
    expect(status?.status).toBe('offline')
    expect(status?.error?.code).toBe('network')
    expect(h.count('inspections')).toBe(100)
  })

  it('a failed attempt is shown apart from the last good sync, which it never replaces', async () => {
    let clock = Date.parse('2026-11-23T01:00:00.000Z')
    h = await startHarness({ size: 100, engine: { now: () => new Date(clock) } })
    await h.engine.run(['inspections'])
    const good = (await h.engine.status()).resources.find((r) => r.resource === 'inspections')
    expect(good).toMatchObject({
      lastSyncAt: '2026-11-23T01:00:00.000Z',
      lastAttemptAt: '2026-11-23T01:00:00.000Z',
    })
    clock += 60_000
    await h.sandbox.close()
    await h.engine.run(['inspections'], 'incremental')
    const failed = (await h.engine.status()).resources.find((r) => r.resource === 'inspections')
    expect(failed).toMatchObject({
      status: 'offline',
      lastSyncAt: '2026-11-23T01:00:00.000Z',
      lastAttemptAt: '2026-11-23T01:01:00.000Z',
    })
  })

  it('cancel stops the run, keeps what was stored and leaves the pass resumable', async () => {
    h = await startHarness({ size: 450, engine: { concurrency: 1 } })
    let release: () => void = () => undefined
    h.proxy.fault = (url) =>
      pageOf(url) === 2
        ? new Promise<never>((resolve) => (release = () => resolve(undefined as never)))
        : undefined
    const running = h.engine.run(['inspections'])
    while (h.progress.filter((p) => p.phase === 'running').length < 2)
      await new Promise((r) => setTimeout(r, 5))
    h.engine.cancel()
    const [outcome] = await running
    release()
    expect(outcome?.phase).toBe('cancelled')
    expect(h.progress.at(-1)?.phase).toBe('cancelled')
    const status = (await h.engine.status()).resources.find((r) => r.resource === 'inspections')
    expect(status).toMatchObject({ status: 'idle', resumable: true })
    expect(h.count('inspections')).toBeGreaterThan(0)
  })

  it('a filter used before the full sync finished fetches that slice with server-side filters first', async () => {
    h = await startHarness({ size: 450 })
    const member = (
      (await (
        await fetch(
          `${h.sandbox.baseUrl}/v1/partner/${h.sandbox.partnerId}/inspection?pageSize=1`,
          {
            headers: { 'x-service-api-key': h.sandbox.apiKey, authorization: h.sandbox.apiSecret },
          },
        )
      ).json()) as { data: { refUserId: string }[] }
    ).data[0]!.refUserId
    h.engine.ensureSlice('inspections', { refUserId: member })
    while (!h.progress.some((p) => p.mode === 'targeted' && p.phase !== 'running')) {
      await new Promise((r) => setTimeout(r, 5))
    }
    expect(h.proxy.urls.every((u) => u.searchParams.get('refUserId') === member)).toBe(true)
    const page = queryInspections(h.db, { member })
    expect(page.total).toBeGreaterThan(0)
    expect(page.rows.every((row) => row.refUserId === member)).toBe(true)
    expect(readSyncState(h.db, 'inspections').lastFullAt).toBeNull()
  })
})
