import { describe, expect, it, vi } from 'vitest'
import { AppError, isAppError } from '../../../src/core/app-error'
import { PartnerClient } from '../../../src/core/api/client'
import {
  IN_FLIGHT_INITIAL,
  IN_FLIGHT_MAX,
  IN_FLIGHT_MIN,
  InFlightLimit,
  outcomeOfError,
  waitForPause,
} from '../../../src/core/api/in-flight'
import { PageWalker, type PageFetcher } from '../../../src/core/sync/paged-pass'
import { RecordedLimit } from '../helpers/recorded-limit'
import { virtualTiming } from '../helpers/virtual-timing'
import { guaranteePages } from '../../support/page-walks'

/** Answers `n` attempts, each sent at `at` and answered `latencyMs` later; returns the new time. */
function answer(limit: InFlightLimit, n: number, at: number, latencyMs: number): number {
  for (let i = 0; i < n; i += 1) limit.record({ kind: 'answer', latencyMs }, at, at + latencyMs)
  return at + latencyMs
}

describe('the in-flight limit (pure)', () => {
  it('starts small and grows to 8 on a fast, clean service, never past it', () => {
    const limit = new InFlightLimit()
    expect(limit.limit).toBe(IN_FLIGHT_INITIAL)
    const seen: number[] = []
    let now = 0
    for (let round = 0; round < 20; round += 1) {
      // One window: as many answers as requests allowed, all sent after the last change.
      now = answer(limit, limit.limit, now + 1, 50)
      seen.push(limit.limit)
    }
    expect(seen[0]).toBe(6)
    expect(Math.max(...seen)).toBe(IN_FLIGHT_MAX)
    expect(seen.at(-1)).toBe(8)
  })

  it('halves on 429, 5xx or a timeout, and never goes below 1', () => {
    const limit = new InFlightLimit({ initial: 8 })
    let now = 1000
    const cuts: number[] = []
    for (let i = 0; i < 6; i += 1) {
      now += 10
      limit.record({ kind: 'pushback' }, now, now + 5)
      cuts.push(limit.limit)
    }
    expect(cuts).toEqual([4, 2, 1, 1, 1, 1])
    expect(IN_FLIGHT_MIN).toBe(1)
  })

  it('cuts once per window: requests already out when it halved do not halve it again', () => {
    const limit = new InFlightLimit({ initial: 8 })
    // Eight requests sent at t=100; all eight fail at t=200 (a 503 burst).
    for (let i = 0; i < 8; i += 1) limit.record({ kind: 'pushback' }, 100, 200 + i)
    expect(limit.limit).toBe(4)
    // A request sent after the cut fails too: that is news, it halves again.
    limit.record({ kind: 'pushback' }, 250, 300)
    expect(limit.limit).toBe(2)
  })

  it('after a pushback it grows by one per clean window, not by doubling', () => {
    const limit = new InFlightLimit({ initial: 8 })
    limit.record({ kind: 'pushback' }, 10, 20)
    expect(limit.limit).toBe(4)
    const now = answer(limit, 4, 30, 50)
    expect(limit.limit).toBe(5)
    answer(limit, 5, now + 1, 50)
    expect(limit.limit).toBe(6)
  })

  it('holds while latency rose markedly (the service is queueing), then grows gently', () => {
    const limit = new InFlightLimit({ initial: 2 })
    let now = answer(limit, 2, 1, 100)
    // Slow start: one more per clean answer.
    expect(limit.limit).toBe(4)
    // Two and a half times as slow with four in flight: slow start ends, no growth.
    now = answer(limit, 1, now + 1, 250)
    expect(limit.limit).toBe(4)
    now = answer(limit, 4, now + 1, 250)
    expect(limit.limit).toBe(4)
    // Back to the service's usual latency: one more per window of four, not one per answer.
    now = answer(limit, 4, now + 1, 105)
    expect(limit.limit).toBe(5)
    answer(limit, 4, now + 1, 105)
    expect(limit.limit).toBe(5)
  })

  it('a latency that stays high is the new normal: after three windows it grows again', () => {
    // Cut to 1 on a fast network, then the network got slower (a VPN): 200 ms is now normal.
    const limit = new InFlightLimit({ initial: 2 })
    let now = answer(limit, 1, 1, 20)
    limit.record({ kind: 'pushback' }, now, now + 1)
    limit.record({ kind: 'pushback' }, now + 2, now + 3)
    expect(limit.limit).toBe(1)
    now += 10
    const seen: number[] = []
    for (let window = 0; window < 5; window += 1) {
      now = answer(limit, limit.limit, now + 1, 200)
      seen.push(limit.limit)
    }
    // Held for three windows, then 200 ms is the baseline and clean windows grow it.
    expect(seen).toEqual([1, 1, 1, 2, 3])
  })

  it('in slow start every clean answer lets one more request out', () => {
    const limit = new InFlightLimit({ initial: 3 })
    const seen: number[] = []
    for (let i = 0; i < 6; i += 1) {
      limit.record({ kind: 'answer', latencyMs: 50 }, 10, 60 + i)
      seen.push(limit.limit)
    }
    expect(seen).toEqual([4, 5, 6, 7, 8, 8])
  })

  it('after a cut, answers to requests sent under an older limit do not count towards a window', () => {
    const limit = new InFlightLimit({ initial: 8 })
    limit.record({ kind: 'pushback' }, 10, 20)
    expect(limit.limit).toBe(4)
    const now = answer(limit, 4, 30, 50)
    expect(limit.limit).toBe(5)
    // Five more answers, but of requests sent before the change at t=80.
    answer(limit, 5, 40, 50)
    expect(limit.limit).toBe(5)
    answer(limit, 5, now + 1, 50)
    expect(limit.limit).toBe(6)
  })

  it('4xx, bad bodies, offline and cancels say nothing about load', () => {
    const limit = new InFlightLimit({ initial: 4 })
    for (const error of [
      new AppError('bad_request', 'x', { status: 400 }),
      new AppError('bad_response', 'x'),
      new AppError('network', 'x'),
      new AppError('cancelled', 'x'),
      new Error('not ours'),
    ]) {
      limit.record(outcomeOfError(error, 0), 0, 1)
    }
    expect(limit.limit).toBe(4)
  })

  it('reads a pushback and its Retry-After from the typed error', () => {
    const now = Date.UTC(2026, 0, 1)
    const retryAt = new Date(now + 7000).toISOString()
    expect(
      outcomeOfError(new AppError('rate_limited', 'x', { status: 429, retryAt }), now),
    ).toEqual({ kind: 'pushback', retryAfterMs: 7000 })
    expect(outcomeOfError(new AppError('server', 'x', { status: 503 }), now)).toEqual({
      kind: 'pushback',
    })
    expect(outcomeOfError(new AppError('timeout', 'x'), now)).toEqual({ kind: 'pushback' })
  })

  it('a Retry-After pauses every new attempt until then; a later, shorter one never shortens it', () => {
    const limit = new InFlightLimit()
    limit.record({ kind: 'pushback', retryAfterMs: 7000 }, 0, 1000)
    expect(limit.pausedUntil).toBe(8000)
    limit.record({ kind: 'pushback', retryAfterMs: 1000 }, 0, 2000)
    expect(limit.pausedUntil).toBe(8000)
  })
})

describe('waiting out a Retry-After pause', () => {
  it('sleeps until the pause ends, then lets the attempt go', async () => {
    const timing = virtualTiming()
    const limit = new InFlightLimit()
    limit.record({ kind: 'pushback', retryAfterMs: 7000 }, timing.now(), timing.now())
    timing.advance(2000)
    await waitForPause(limit, timing, 120_000)
    expect(timing.sleeps).toEqual([5000])
    await waitForPause(limit, timing, 120_000)
    expect(timing.sleeps).toEqual([5000])
  })

  it('a pause longer than the caller may wait fails at once, saying until when', async () => {
    const timing = virtualTiming()
    const limit = new InFlightLimit()
    limit.record({ kind: 'pushback', retryAfterMs: 600_000 }, timing.now(), timing.now())
    const error = await waitForPause(limit, timing, 120_000).catch((e: unknown) => e)
    expect(isAppError(error, 'rate_limited')).toBe(true)
    expect((error as AppError).retryAt).toBe(new Date(timing.now() + 600_000).toISOString())
    expect((error as AppError).message).toMatch(/until \d\d:\d\d/)
    expect(timing.sleeps).toEqual([])
  })
})

describe('the client and the walker with the adaptive limit', () => {
  /** A fake service answering list pages of 10 after `latencyMs` of real time; counts requests in flight. */
  function fakeService(
    total: number,
    latencyMs: number,
    fail?: (n: number, url: URL) => Response | null,
  ) {
    const state = { inflight: 0, maxInflight: 0, requests: 0 }
    const fetch = async (input: string): Promise<Response> => {
      state.requests += 1
      const failed = fail?.(state.requests, new URL(input))
      if (failed) return failed
      state.inflight += 1
      state.maxInflight = Math.max(state.maxInflight, state.inflight)
      await new Promise((resolve) => setTimeout(resolve, latencyMs))
      state.inflight -= 1
      const url = new URL(input)
      const page = Number(url.searchParams.get('page'))
      const size = Math.min(10, Number(url.searchParams.get('pageSize')))
      const data = Array.from({ length: size }, (_, i) => (page - 1) * size + i + 1)
        .filter((idx) => idx <= total)
        .map((idx) => ({
          idx,
          status: '발급완료',
          productName: `상품 ${idx}`,
          nftCardImg: 'https://static.example/x.png',
          registeredAt: '2026-01-01 10:00:00',
          modifiedAt: null,
        }))
      return Response.json({ total, page, data })
    }
    return { fetch, state }
  }

  const clientFor = (fetch: (input: string) => Promise<Response>, inFlight?: InFlightLimit) =>
    new PartnerClient({
      fetch,
      target: { baseUrl: 'https://partner.example', partnerId: 'p1' },
      credentials: async () => ({ apiKey: 'key-0123456789', apiSecret: 'secret-0123456789' }),
      ...(inFlight ? { inFlight } : {}),
    })

  it('a walk over a fast, clean service reaches 8 in flight and never more', async () => {
    const service = fakeService(600, 30)
    const client = clientFor(service.fetch)
    const walker = guaranteePages(client, {}, { pageSize: 100 })
    let pages = 0
    for await (const page of walker) pages += page.items.length > 0 ? 1 : 0
    expect(pages).toBe(60)
    expect(client.inFlight.limit).toBe(8)
    expect(service.state.maxInflight).toBe(8)
  })

  it('a 503 burst halves what the walk sends at once; the walk still completes', async () => {
    let failures = 0
    const failed = new Set<string>()
    const service = fakeService(600, 30, (_n, url) => {
      // The first asks for pages 20 to 27 meet a service in trouble; their retries get through.
      const page = Number(url.searchParams.get('page'))
      if (page < 20 || page > 27 || failed.has(String(page))) return null
      failed.add(String(page))
      failures += 1
      return Response.json({ message: 'busy' }, { status: 503 })
    })
    const limit = new RecordedLimit()
    const client = clientFor(service.fetch, limit)
    const seen: number[] = []
    for await (const page of guaranteePages(client, {}, { pageSize: 100 })) {
      seen.push(page.pageNumber)
    }
    expect(failures).toBe(8)
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
    const before = limit.history.indexOf(8)
    expect(before).toBeGreaterThanOrEqual(0)
    // After the burst it was at most half of 8, and it stayed within 1..8 all along.
    expect(Math.min(...limit.history.slice(before))).toBeLessThanOrEqual(4)
    expect(Math.min(...limit.history)).toBeGreaterThanOrEqual(1)
    expect(Math.max(...limit.history)).toBeLessThanOrEqual(8)
  })

  it('a 429 with Retry-After holds every other request of the walk for that long', async () => {
    const sent: number[] = []
    const service = fakeService(300, 5, (n) =>
      n === 8
        ? new Response(JSON.stringify({ message: 'slow down' }), {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
          })
        : null,
    )
    const fetch = (input: string): Promise<Response> => {
      sent.push(Date.now())
      return service.fetch(input)
    }
    const client = clientFor(fetch)
    const walker = guaranteePages(client, {}, { pageSize: 100 })
    for await (const page of walker) expect(page.items.length).toBeGreaterThan(0)
    expect(walker.summary).toMatchObject({ end: 'complete', seen: 300 })
    // Every request sent after the 429 came back (the retried one included) waited for
    // the Retry-After second, whichever page it was for.
    const pause = client.inFlight.pausedUntil
    const receivedAt = pause - 1000
    const after = sent.filter((at) => at > receivedAt)
    expect(after.length).toBeGreaterThan(0)
    expect(Math.min(...after)).toBeGreaterThanOrEqual(pause)
    expect(sent.length).toBe(31)
  })

  it('the walker tops up as soon as the limit grows, not only when the caller takes a page', async () => {
    const limit = { limit: 1 }
    const asked: number[] = []
    let answered = 0
    const fetch: PageFetcher<number> = async (page) => {
      asked.push(page)
      await new Promise((resolve) => setTimeout(resolve, 5))
      answered += 1
      // The answer to page 2 raises the limit while the caller still holds page 1.
      if (page === 2) limit.limit = 4
      const items = Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i)
      return {
        total: 100,
        page,
        received: 10,
        items,
        rejected: 0,
        rejects: [],
        fingerprint: items.join(','),
      }
    }
    const walker = new PageWalker(fetch, { pageSize: 10, concurrency: limit })
    for await (const page of walker) {
      if (page.pageNumber === 1) {
        expect(asked).toEqual([1, 2])
        // Page 2's answer raised the limit to 4: four more went out at once (3 to 6),
        // and more as those answered, never beyond twice the limit ahead of page 1.
        await vi.waitFor(() => expect(asked.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]))
        // Once the pages up to 9 have all answered, nothing more goes out while page 1 is held.
        await vi.waitFor(() => expect(answered).toBeGreaterThanOrEqual(1 + 2 * 4))
        expect(Math.max(...asked)).toBeLessThanOrEqual(1 + 2 * 4)
      }
    }
    expect(walker.summary?.end).toBe('complete')
  })
})
