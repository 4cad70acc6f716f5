import { describe, expect, it } from 'vitest'
import { ListController, type ListFilters } from '../../src/renderer/src/lib/list-controller.svelte'
import type { QueryPage } from '../../src/shared/cache'
import type { Result } from '../../src/shared/errors'

function page(rows: string[]): Result<QueryPage<{ idx: number; name: string }>> {
  return {
    ok: true,
    value: {
      rows: rows.map((name, idx) => ({ idx, name })),
      total: rows.length,
      counts: [],
      reviewCounts: { reviewed: 0, follow_up: 0, none: rows.length },
      nextCursor: null,
      freshness: { lastSyncAt: null, lastFullSyncAt: null, syncing: false },
    },
  }
}

describe('list controller', () => {
  it('drops an answer asked with filters that changed while it was in flight', async () => {
    const pending: Array<{ filters: ListFilters; resolve: (r: ReturnType<typeof page>) => void }> =
      []
    const list = new ListController<{ idx: number; name: string }>(
      (filters) =>
        new Promise((resolve) => {
          pending.push({ filters: { ...filters }, resolve })
        }),
    )
    const old = list.reload()
    list.filters.status = '발급완료'
    list.markPending()
    pending[0]!.resolve(page(['old filter row']))
    await old
    expect(list.rows).toEqual([])
    expect(list.loading).toBe(true)

    const fresh = list.reload()
    expect(pending[1]!.filters.status).toBe('발급완료')
    pending[1]!.resolve(page(['new filter row']))
    await fresh
    expect(list.rows.map((row) => row.name)).toEqual(['new filter row'])
    expect(list.loading).toBe(false)
  })
})
