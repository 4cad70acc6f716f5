import { flushSync } from 'svelte'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChannelName, EventName } from '../../src/shared/channels'
import type { AppApi, EventPayloads } from '../../src/shared/contract'
import type { InspectionRow, QueryPage } from '../../src/shared/lists'
import type { Result } from '../../src/shared/errors'
import { createClient } from '../../src/renderer/src/lib/client'
import {
  ListQueryState,
  connectListRefresh,
  listArgs,
  emptyFilters,
} from '../../src/renderer/src/lib/list-query.svelte'
import {
  connectInvalidation,
  createQueryClient,
  profilesKey,
  rejectedKey,
} from '../../src/renderer/src/lib/query-client'

function row(idx: number, productName: string): InspectionRow {
  return {
    idx,
    inspectionNum: String(202400000000 + idx),
    status: null,
    result: null,
    productName,
    refUserId: 'm',
    refOrderId: 'o',
    refOrderDetailId: 'od',
    refProductCode: 'p',
    registeredAt: null,
    modifiedAt: null,
    gone: false,
    review: null,
    statusSince: null,
  }
}

function page(rows: InspectionRow[], nextCursor: string | null = null, total = rows.length) {
  const value: QueryPage<InspectionRow> = {
    rows,
    total,
    counts: [],
    reviewCounts: { reviewed: 0, follow_up: 0, none: total },
    nextCursor,
    freshness: { lastSyncAt: null, lastFullSyncAt: null, syncing: false },
  }
  return { ok: true, value } as Result<QueryPage<InspectionRow>>
}

/** A scripted `window.api`: each call waits until the test answers it; events are emitted by hand. */
function scriptedApi() {
  const calls: Array<{
    channel: ChannelName
    args: unknown
    answer: (r: Result<unknown>) => void
  }> = []
  const listeners = new Map<EventName, Set<(payload: never) => void>>()
  const api: AppApi = {
    invoke: ((channel: ChannelName, args: unknown) =>
      new Promise<Result<unknown>>((resolve) =>
        calls.push({ channel, args, answer: resolve }),
      )) as AppApi['invoke'],
    on: ((event: EventName, listener: (payload: never) => void) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => set.delete(listener)
    }) as AppApi['on'],
  }
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]): void => {
    for (const listener of listeners.get(event) ?? []) listener(payload as never)
  }
  return { api, calls, emit }
}

const settle = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 0))
  flushSync()
}

let cleanup: (() => void) | undefined
afterEach(() => cleanup?.())

function setup() {
  const { api, calls, emit } = scriptedApi()
  const client = createClient(api)
  const queryClient = createQueryClient()
  let list!: ListQueryState<'inspections'>
  const stopRoot = $effect.root(() => {
    list = new ListQueryState(client, 'inspections', queryClient)
  })
  const stopEvents = [
    connectListRefresh(client, queryClient),
    connectInvalidation(client, queryClient),
  ]
  cleanup = () => {
    stopEvents.forEach((stop) => stop())
    stopRoot()
    queryClient.clear()
  }
  return { list, calls, emit }
}

/** A sync's progress event, less its resource and phase. */
const PROGRESS = {
  mode: 'full' as const,
  fetched: 10,
  total: 100,
  pages: 1,
  rate: 1,
  etaSeconds: 1,
  rejected: 0,
}

/** A query cache wired to scripted events, with no list on it. */
function eventsOnly() {
  const { api, emit } = scriptedApi()
  const queryClient = createQueryClient()
  const stop = connectInvalidation(createClient(api), queryClient)
  cleanup = () => {
    stop()
    queryClient.clear()
  }
  return { queryClient, emit }
}

describe('list query layer', () => {
  it('builds typed arguments, leaving empty filters out', () => {
    expect(listArgs(emptyFilters(), null)).toEqual({ sort: 'latest', limit: 500 })
    expect(
      listArgs(
        {
          q: ' 샤넬 ',
          status: null,
          from: '2026-01-01',
          to: '',
          review: 'follow_up',
          agedDays: 7,
          markedBy: { role: 'jisoo' },
          sort: 'oldest',
        },
        'c1',
        50,
      ),
    ).toEqual({
      q: '샤넬',
      status: null,
      from: '2026-01-01',
      review: 'follow_up',
      agedDays: 7,
      markedBy: { role: 'jisoo' },
      sort: 'oldest',
      limit: 50,
      cursor: 'c1',
    })
  })

  it('never shows a late answer for an old filter over the current one', async () => {
    const { list, calls } = setup()
    await settle()
    expect(calls).toHaveLength(1)
    list.filters.q = '구찌'
    flushSync()
    await settle()
    // One query of the list at a time: the new filter's is sent once the old one is answered.
    expect(calls).toHaveLength(1)
    calls[0]!.answer(page([row(1, '아무 상품')]))
    await settle()
    expect(list.rows.map((r) => r.productName)).toEqual([])
    expect(list.loading).toBe(true)
    expect(calls).toHaveLength(2)
    expect(calls[1]!.args).toMatchObject({ q: '구찌' })
    calls[1]!.answer(page([row(2, '구찌 마몬트')]))
    await settle()
    expect(list.rows.map((r) => r.productName)).toEqual(['구찌 마몬트'])
    expect(list.loading).toBe(false)
  })

  it("sends a key's query in the key's own task, and shows its answer in the answer's", async () => {
    const { list, calls } = setup()
    await settle()
    calls[0]!.answer(page([row(1, '아무 상품')]))
    await settle()
    list.filters.q = '구찌'
    flushSync()
    // No timer ran: the query left while the key's change was applied.
    expect(calls.map((call) => (call.args as { q?: string }).q)).toEqual([undefined, '구찌'])
    calls[1]!.answer(page([row(2, '구찌 마몬트')]))
    // Microtasks only (the answer's own task), no timer: the rows are there to paint.
    for (let i = 0; i < 20; i += 1) await Promise.resolve()
    flushSync()
    expect(list.rows.map((r) => r.productName)).toEqual(['구찌 마몬트'])
    expect(list.loading).toBe(false)
  })

  it('typing ahead of the store sends only the latest text, once the store has answered', async () => {
    const { list, calls } = setup()
    await settle()
    calls[0]!.answer(page([row(1, '아무 상품')]))
    await settle()
    // A slow answer for the first key; four more keys typed meanwhile.
    for (const q of ['ㄱ', '구', '굦', '구찌', '구찌 ']) {
      list.filters.q = q
      flushSync()
      await settle()
    }
    expect(calls.map((call) => (call.args as { q?: string }).q)).toEqual([undefined, 'ㄱ'])
    calls[1]!.answer(page([row(3, '기타')]))
    await settle()
    // The keys in between were dropped: the store gets the text as it stands now.
    expect(calls.map((call) => (call.args as { q?: string }).q)).toEqual([undefined, 'ㄱ', '구찌'])
    calls[2]!.answer(page([row(2, '구찌 마몬트')]))
    await settle()
    expect(list.rows.map((r) => r.productName)).toEqual(['구찌 마몬트'])
    expect(list.loading).toBe(false)
  })

  it('appends keyset pages and stops at the last', async () => {
    const { list, calls } = setup()
    await settle()
    calls[0]!.answer(page([row(3, 'a'), row(2, 'b')], 'cursor-2', 3))
    await settle()
    expect(list.hasMore).toBe(true)
    list.loadMore()
    list.loadMore() // a second ask while one is on its way is not sent
    await settle()
    expect(calls).toHaveLength(2)
    expect(calls[1]!.args).toMatchObject({ cursor: 'cursor-2' })
    calls[1]!.answer(page([row(1, 'c')], null, 3))
    await settle()
    expect(list.rows.map((r) => r.idx)).toEqual([3, 2, 1])
    expect(list.total).toBe(3)
    expect(list.hasMore).toBe(false)
  })

  it('a change while a refetch is on its way: loading on never keeps the rows read before it', async () => {
    const { list, calls, emit } = setup()
    await settle()
    const marked = (mark: 'reviewed' | null, idx: number): InspectionRow => ({
      ...row(idx, 'a'),
      review: mark ? { mark, note: '', by: null, at: '2026-01-01 09:00:00' } : null,
    })
    calls[0]!.answer(page([marked(null, 2), marked(null, 1)], 'cursor-2', 3))
    await settle()
    // A mark: the store's `data.changed` refetches the first page; its answer is on its way.
    emit('data.changed', { resource: 'inspections' })
    await settle()
    expect(calls).toHaveLength(2)
    expect(calls[1]!.args).not.toHaveProperty('cursor')
    // The grid's load-on timer fires meanwhile.
    list.loadMore()
    await settle()
    calls[1]!.answer(page([marked(null, 2), marked('reviewed', 1)], 'cursor-2', 3))
    await settle()
    for (const call of calls.slice(2)) call.answer(page([marked(null, 0)], null, 3))
    await settle()
    expect(list.rows.find((r) => r.idx === 1)?.review?.mark).toBe('reviewed')
    // Once the refetch has landed, the next page loads on after the fresh first page.
    list.loadMore()
    await settle()
    const next = calls.at(-1)!
    expect(next.args).toMatchObject({ cursor: 'cursor-2' })
    next.answer(page([marked(null, 0)], null, 3))
    await settle()
    expect(list.rows.map((r) => [r.idx, r.review?.mark ?? null])).toEqual([
      [2, null],
      [1, 'reviewed'],
      [0, null],
    ])
  })

  it('a mark that lands between the pages of a refetch: the counts shown are those of the rows shown', async () => {
    const { list, calls, emit } = setup()
    await settle()
    const marked = (mark: 'reviewed' | 'follow_up' | null, idx: number): InspectionRow => ({
      ...row(idx, 'a'),
      review: mark ? { mark, note: '', by: null, at: '2026-01-01 09:00:00' } : null,
    })
    /** A page of the three-record list whose store counted these marks. */
    const counted = (
      rows: InspectionRow[],
      next: string | null,
      reviewed: number,
      followUp: number,
    ) => {
      const answer = page(rows, next, 3)
      if (!answer.ok) throw new Error('unreachable')
      const reviewCounts = { reviewed, follow_up: followUp, none: 3 - reviewed - followUp }
      return { ok: true, value: { ...answer.value, reviewCounts } } as Result<
        QueryPage<InspectionRow>
      >
    }
    const shown = () => ({
      rows: {
        reviewed: list.rows.filter((r) => r.review?.mark === 'reviewed').length,
        follow_up: list.rows.filter((r) => r.review?.mark === 'follow_up').length,
      },
      counts: {
        reviewed: list.page?.reviewCounts.reviewed,
        follow_up: list.page?.reviewCounts.follow_up,
      },
    })
    calls[0]!.answer(counted([marked(null, 3), marked(null, 2)], 'cursor-2', 0, 0))
    await settle()
    list.loadMore()
    await settle()
    calls[1]!.answer(counted([marked(null, 1)], null, 0, 0))
    await settle()
    expect(list.rows).toHaveLength(3)
    // `f` on record 3: its data.changed refetches both pages, one after the other.
    emit('data.changed', { resource: 'inspections' })
    await settle()
    calls[2]!.answer(counted([marked('follow_up', 3), marked(null, 2)], 'cursor-2', 0, 1))
    await settle()
    // `r` on record 2 is written before the second page is read, so that page counts it.
    expect(calls[3]!.args).toMatchObject({ cursor: 'cursor-2' })
    calls[3]!.answer(counted([marked(null, 1)], null, 1, 1))
    await settle()
    const before = shown()
    expect(before.counts).toEqual(before.rows)
    // The mark's own data.changed then brings both.
    emit('data.changed', { resource: 'inspections' })
    await settle()
    calls[4]!.answer(counted([marked('follow_up', 3), marked('reviewed', 2)], 'cursor-2', 1, 1))
    await settle()
    calls[5]!.answer(counted([marked(null, 1)], null, 1, 1))
    await settle()
    const after = shown()
    expect(after.rows).toEqual({ reviewed: 1, follow_up: 1 })
    expect(after.counts).toEqual(after.rows)
  })

  it("a change while a new filter's first answer is on its way: the list asks again once it lands", async () => {
    const { list, calls, emit } = setup()
    await settle()
    calls[0]!.answer(page([row(1, '구찌 a')]))
    await settle()
    list.filters.q = '구찌'
    flushSync()
    await settle()
    expect(calls).toHaveLength(2)
    // A mark lands while the new filter's first answer (read before it) is on its way.
    emit('data.changed', { resource: 'inspections' })
    await settle()
    calls[1]!.answer(page([row(1, '구찌 a')]))
    await settle()
    expect(calls).toHaveLength(3)
    expect(calls[2]!.args).toMatchObject({ q: '구찌' })
    calls[2]!.answer(page([row(2, '구찌 b'), row(1, '구찌 a')]))
    await settle()
    expect(list.rows.map((r) => r.productName)).toEqual(['구찌 b', '구찌 a'])
    // Asked again once only: the next answer is the last.
    await settle()
    expect(calls).toHaveLength(3)
  })

  it('data.changed reloads that resource only; an error is reported, not thrown', async () => {
    const { list, calls, emit } = setup()
    await settle()
    calls[0]!.answer(page([row(1, 'a')]))
    await settle()
    emit('data.changed', { resource: 'guarantees' })
    await settle()
    expect(calls).toHaveLength(1)
    emit('data.changed', { resource: 'inspections' })
    await settle()
    expect(calls).toHaveLength(2)
    calls[1]!.answer({ ok: false, error: { code: 'store_busy', message: 'busy' } })
    await settle()
    expect(list.error?.code).toBe('store_busy')
    // The rows already shown stay.
    expect(list.rows.map((r) => r.idx)).toEqual([1])
  })

  it('a sync reaches an open list only through data.changed: its progress events ask nothing', async () => {
    // One refresh path: progress and data.changed arriving together used to start two
    // overlapping refetches of the same list, the second cancelling the first.
    const { calls, emit } = setup()
    await settle()
    calls[0]!.answer(page([row(1, 'a')]))
    await settle()
    const progress = { ...PROGRESS, resource: 'inspections' as const }
    for (const phase of ['running', 'running', 'done', 'error', 'cancelled'] as const) {
      emit('sync.progress', { ...progress, phase })
      await settle()
    }
    expect(calls).toHaveLength(1)
    emit('data.changed', { resource: 'inspections' })
    await settle()
    expect(calls).toHaveLength(2)
  })

  it('a finished sync of a paged resource reloads the rejected records; progress and brands do not', () => {
    const { queryClient, emit } = eventsOnly()
    const empty = { pages: [{ items: [], total: 0, nextBefore: null }], pageParams: [null] }
    const stale = (): boolean[] =>
      ['all', 'inspections'].map(
        (filter) => queryClient.getQueryState(rejectedKey(filter))!.isInvalidated,
      )
    const reset = (): void => {
      for (const filter of ['all', 'inspections'])
        queryClient.setQueryData(rejectedKey(filter), empty)
    }
    const progress = { ...PROGRESS, rejected: 2 }
    reset()
    emit('sync.progress', { ...progress, resource: 'inspections', phase: 'running' })
    emit('sync.progress', { ...progress, resource: 'brands', phase: 'done' })
    expect(stale()).toEqual([false, false])
    emit('sync.progress', { ...progress, resource: 'guarantees', phase: 'done' })
    expect(stale()).toEqual([true, true])
    reset()
    emit('sync.progress', { ...progress, resource: 'inspections', phase: 'error' })
    expect(stale()).toEqual([true, true])
  })

  it('another profile empties every list, but the profile list reloads in place', () => {
    const { queryClient, emit } = eventsOnly()
    const profiles = { activeId: 'a', profiles: [] }
    queryClient.setQueryData(profilesKey, profiles)
    queryClient.setQueryData(rejectedKey('all'), { pages: [], pageParams: [] })
    emit('profiles.changed', { activeId: 'b' })
    expect(queryClient.getQueryData(rejectedKey('all'))).toBeUndefined()
    expect(queryClient.getQueryData(profilesKey)).toBe(profiles)
    expect(queryClient.getQueryState(profilesKey)!.isInvalidated).toBe(true)
  })
})
