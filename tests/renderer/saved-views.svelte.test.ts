import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChannelName } from '../../src/shared/channels'
import type { AppApi } from '../../src/shared/contract'
import type { Result } from '../../src/shared/errors'
import { sameFilter } from '../../src/shared/list-filter'
import type { SavedViewList } from '../../src/shared/saved-views'
import { createClient } from '../../src/renderer/src/lib/client'
import { emptyFilters, type ListFilters } from '../../src/renderer/src/lib/list-query.svelte'
import {
  SavedViews,
  fromSavedFilter,
  toSavedFilter,
} from '../../src/renderer/src/lib/saved-views.svelte'

/** A `window.api` answering `views.list` with `list` (when the test lets it) and recording every call. */
function fakeApi(list: SavedViewList) {
  const calls: Array<{ channel: ChannelName; args: unknown }> = []
  let release!: () => void
  const listed = new Promise<void>((resolve) => (release = resolve))
  const api: AppApi = {
    invoke: (async (channel: ChannelName, args: unknown) => {
      calls.push({ channel, args })
      if (channel === 'views.list') await listed
      return { ok: true, value: list } as Result<SavedViewList>
    }) as AppApi['invoke'],
    on: (() => () => undefined) as AppApi['on'],
  }
  return { client: createClient(api), calls, release }
}

afterEach(() => {
  vi.useRealTimers()
})

const shipping: ListFilters = {
  q: ' 샤넬 ',
  status: null,
  from: '2026-11-01',
  review: 'follow_up',
  markedBy: { role: 'jisoo' },
  sort: 'aged',
  agedDays: 7,
}

describe('saved filters', () => {
  it('keep every part of a list filter exactly (spaces, "no status", aging, who marked) and nothing empty', () => {
    const saved = toSavedFilter(shipping)
    expect(saved).toEqual({
      q: ' 샤넬 ',
      status: null,
      from: '2026-11-01',
      review: 'follow_up',
      markedBy: { role: 'jisoo' },
      sort: 'aged',
      agedDays: 7,
    })
    expect(fromSavedFilter(saved)).toEqual(shipping)
    expect(toSavedFilter(emptyFilters())).toEqual({ q: '', sort: 'latest' })
    expect(fromSavedFilter({ q: '', sort: 'latest' })).toEqual(emptyFilters())
  })

  it('compare by content, not by key order', () => {
    expect(sameFilter({ sort: 'latest', q: 'a' }, { q: 'a', sort: 'latest' })).toBe(true)
    expect(sameFilter({ q: 'a', sort: 'latest' }, { q: 'a', sort: 'latest', status: null })).toBe(
      false,
    )
    expect(
      sameFilter({ q: 'a', sort: 'latest' }, { q: 'a', sort: 'latest', status: undefined }),
    ).toBe(true)
  })
})

describe('SavedViews', () => {
  const last = { inspections: { q: '루이비통', sort: 'oldest' as const, status: '배송완료' } }

  it('a list shown before the views arrived opens on its last filter once they do', async () => {
    const { client, release } = fakeApi({ views: [], last })
    const views = new SavedViews(client)
    const loading = views.load()
    const list = { filters: emptyFilters() }
    views.bind('inspections', list)
    views.remember('inspections', list.filters)
    expect(list.filters).toEqual(emptyFilters())
    release()
    await loading
    expect(list.filters).toEqual(fromSavedFilter(last.inspections))
  })

  it('a list opened with a filter of its own does not take its last one, now or when the views arrive', async () => {
    const { client, release } = fakeApi({ views: [], last })
    const views = new SavedViews(client)
    const loading = views.load()
    const wanted = { ...emptyFilters(), status: '감정접수', from: '2026-11-20', to: '2026-11-26' }
    const list = { filters: wanted }
    views.bind('inspections', list, true)
    views.remember('inspections', list.filters, true)
    release()
    await loading
    expect(list.filters).toEqual(wanted)
    // The next time the list is shown on its own, it opens on its last filter.
    const again = { filters: emptyFilters() }
    views.bind('inspections', again)
    expect(again.filters).toEqual(fromSavedFilter(last.inspections))
    expect(views.lastOf('inspections')).toEqual(fromSavedFilter(last.inspections))
    expect(views.lastOf('guarantees')).toEqual(emptyFilters())
  })

  it("never keeps a jump's filter as the last one, while the user's own changes still are", async () => {
    vi.useFakeTimers()
    const { client, calls, release } = fakeApi({ views: [], last: {} })
    release()
    const views = new SavedViews(client)
    await views.load()
    const setLast = () => calls.filter((call) => call.channel === 'views.setLast')
    // The user's own search, still within its pause when a jump arrives: it is kept all the same.
    views.remember('guarantees', { ...emptyFilters(), q: '샤넬' })
    const jump = { ...emptyFilters(), q: '3023', from: '2026-11-20', to: '2026-11-20' }
    views.remember('guarantees', jump, true)
    expect(views.current.guarantees).toEqual(jump)
    views.remember('guarantees', { ...jump, review: 'reviewed' }, true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(setLast().map((call) => call.args)).toEqual([
      { resource: 'guarantees', filter: { q: '샤넬', sort: 'latest' } },
    ])
    // Nor when the page goes away.
    const stop = views.connect()
    window.dispatchEvent(new Event('pagehide'))
    stop()
    expect(setLast()).toHaveLength(1)
    expect(views.lastOf('guarantees')).toEqual({ q: '샤넬', sort: 'latest' })
  })

  it('keeps the last filter after a pause in typing, or when the page goes away, once', async () => {
    vi.useFakeTimers()
    const { client, calls, release } = fakeApi({ views: [], last: {} })
    release()
    const views = new SavedViews(client)
    await views.load()
    for (const q of ['샤', '샤넬']) views.remember('guarantees', { ...emptyFilters(), q })
    await vi.advanceTimersByTimeAsync(399)
    expect(calls.filter((call) => call.channel === 'views.setLast')).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.filter((call) => call.channel === 'views.setLast')).toEqual([
      {
        channel: 'views.setLast',
        args: { resource: 'guarantees', filter: { q: '샤넬', sort: 'latest' } },
      },
    ])
    // A change undone within the pause is not written.
    views.remember('guarantees', { ...emptyFilters(), q: '샤넬 클래식' })
    views.remember('guarantees', { ...emptyFilters(), q: '샤넬' })
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls.filter((call) => call.channel === 'views.setLast')).toHaveLength(1)
    // A change still in its pause is written when the page goes away.
    views.remember('guarantees', { ...emptyFilters(), q: '샤넬 백' })
    const stop = views.connect()
    window.dispatchEvent(new Event('pagehide'))
    stop()
    expect(calls.filter((call) => call.channel === 'views.setLast').at(-1)).toEqual({
      channel: 'views.setLast',
      args: { resource: 'guarantees', filter: { q: '샤넬 백', sort: 'latest' } },
    })
    // The same filter again is not written again.
    views.remember('guarantees', { ...emptyFilters(), q: '샤넬 백' })
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls.filter((call) => call.channel === 'views.setLast')).toHaveLength(2)
  })
})
