import { fireEvent, screen } from '@testing-library/svelte'
import { flushSync, type Component } from 'svelte'
import { describe, expect, it } from 'vitest'
import type { ListFilters } from '../../src/renderer/src/lib/list-query.svelte'
import { renderInApp } from './harness'
import ToolbarHost from './ToolbarHost.svelte'

type Props = { expose: (filters: ListFilters) => void }

/** The toolbar bound to its filters, as the list page binds them; answers those filters. */
function renderToolbar(locale: 'ko' | 'en' = 'ko'): ListFilters {
  let filters: ListFilters | undefined
  renderInApp(
    ToolbarHost as unknown as Component<Props>,
    { expose: (bound: ListFilters) => (filters = bound) },
    locale,
  )
  return filters!
}

async function type(testid: string, text: string): Promise<HTMLInputElement> {
  const input = screen.getByTestId(testid) as HTMLInputElement
  await fireEvent.input(input, { target: { value: text } })
  await fireEvent.change(input)
  flushSync()
  return input
}

describe('date filters', () => {
  it('are written year-month-day in Korean and English alike, not in the browser locale order', () => {
    renderToolbar('en')
    const from = screen.getByTestId('filter-from') as HTMLInputElement
    expect(from.type).toBe('text')
    expect(from.placeholder).toBe('YYYY-MM-DD')
  })

  it('apply a typed date as ISO', async () => {
    const filters = renderToolbar()
    const input = await type('filter-from', '2026.11.3')
    expect(filters.from).toBe('2026-11-03')
    expect(input.value).toBe('2026-11-03')
    expect(screen.queryByTestId('field-error')).toBeNull()
  })

  it('keep a wrong date in the field with the reason beside it, and the filter unchanged', async () => {
    const filters = renderToolbar()
    await type('filter-from', '2026-11-01')
    const input = await type('filter-from', '11/23/2026')
    expect(filters.from).toBe('2026-11-01')
    expect(input.value).toBe('11/23/2026')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    const error = screen.getByTestId('field-error')
    expect(error.textContent).toBe('2026-11-23처럼 연-월-일로 적어 주세요.')
    expect(input.getAttribute('aria-describedby')).toBe(error.id)
    // Corrected, it applies and the reason goes.
    await type('filter-from', '2026-11-05')
    expect(filters.from).toBe('2026-11-05')
    expect(screen.queryByTestId('field-error')).toBeNull()
  })

  it('refuse an end before the start, in plain words', async () => {
    const filters = renderToolbar('en')
    await type('filter-from', '2026-11-10')
    await type('filter-to', '2026-11-01')
    expect(filters.to ?? '').toBe('')
    expect(screen.getByTestId('field-error').textContent).toBe(
      'Enter a date on or after 2026-11-10.',
    )
  })

  it('clear with an empty field, and show a reset from outside', async () => {
    const filters = renderToolbar()
    await type('filter-to', '2026-11-10')
    await type('filter-to', '')
    expect(filters.to ?? '').toBe('')
    filters.from = '2026-01-02'
    flushSync()
    expect((screen.getByTestId('filter-from') as HTMLInputElement).value).toBe('2026-01-02')
  })
})
