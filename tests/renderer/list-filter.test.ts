import { describe, expect, it } from 'vitest'
import { argSchemas } from '../../src/shared/contract'
import {
  LIST_FILTER_FIELDS,
  compactFilter,
  emptyListFilter,
  narrowsList,
  partnerFilter,
  sameFilter,
  type ListFilter,
} from '../../src/shared/list-filter'
import { filterArgs, listArgs } from '../../src/renderer/src/lib/list-query.svelte'
import { fromSavedFilter, toSavedFilter } from '../../src/renderer/src/lib/saved-views.svelte'

/**
 * One set value per filter field. A field added to the list filter
 * (`src/shared/list-filter.ts`) needs its line here, and then is checked to
 * reach a saved view, the last filter, a list query and an export unchanged.
 */
const SAMPLES: { readonly [F in keyof ListFilter]-?: NonNullable<ListFilter[F]> } = {
  q: '샤넬',
  status: '배송완료',
  member: 'shop-17',
  from: '2026-11-01',
  to: '2026-11-20',
  review: 'follow_up',
  markedBy: { role: 'jisoo' },
  assignee: { role: 'minji' },
  agedDays: 7,
  sort: 'oldest',
}

describe('the list filter, declared once', () => {
  it('has a sample for every field it declares', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...LIST_FILTER_FIELDS].sort())
  })

  for (const field of LIST_FILTER_FIELDS) {
    it(`carries "${field}" from the list's state to a saved view, the last filter, a query and an export`, () => {
      const value = SAMPLES[field]
      const filters = { ...emptyListFilter(), [field]: value } as ListFilter
      // The renderer's state: it narrows the list (the sort only orders it).
      expect(narrowsList(filters)).toBe(field !== 'sort')
      // A saved view and the last filter keep it, as the channels parse them.
      const saved = toSavedFilter(filters)
      expect(saved[field]).toEqual(value)
      const view = argSchemas['views.save'].parse({
        resource: 'inspections',
        name: 'v',
        filter: saved,
      })
      expect(view.filter?.[field]).toEqual(value)
      const last = argSchemas['views.setLast'].parse({ resource: 'guarantees', filter: saved })
      expect(last.filter[field]).toEqual(value)
      expect(sameFilter(fromSavedFilter(last.filter), filters)).toBe(true)
      // The list query and the export send it, and the core receives it.
      const query = argSchemas['inspections.query'].parse(listArgs(filters, null))
      expect(query[field]).toEqual(value)
      const guarantees = argSchemas['guarantees.query'].parse(listArgs(filters, null))
      expect(guarantees[field]).toEqual(value)
      const exported = argSchemas['lists.export'].parse({
        resource: 'guarantees',
        ...filterArgs(filters),
      })
      expect(exported[field]).toEqual(value)
    })
  }

  it('leaves unset fields out of what it keeps and sends', () => {
    expect(compactFilter({ q: '  ', from: '', sort: 'latest' })).toEqual({ q: '', sort: 'latest' })
    expect(narrowsList({ q: '  ', sort: 'aged' })).toBe(false)
    expect(filterArgs(emptyListFilter())).toEqual({ sort: 'latest' })
  })

  it("turns a list filter into the service's own filters of the slice to fetch first", () => {
    const filter = { ...emptyListFilter(), member: 'm1', from: '2026-11-01', status: '발급완료' }
    expect(partnerFilter('guarantees', filter)).toEqual({
      refUserId: 'm1',
      from: '2026-11-01',
      nftStatus: 'complete',
    })
    expect(partnerFilter('inspections', { ...filter, status: '배송완료' })).toEqual({
      refUserId: 'm1',
      from: '2026-11-01',
      status: '배송완료',
    })
    // A label the service has no state for, or "no status", narrows nothing there.
    expect(partnerFilter('guarantees', { status: '기타' })).toEqual({})
    expect(partnerFilter('inspections', { status: null, q: '샤넬' })).toEqual({})
  })
})
