import { fireEvent, screen } from '@testing-library/svelte'
import { createRawSnippet, type Component } from 'svelte'
import { describe, expect, it, vi } from 'vitest'
import DataGrid, { type GridColumn } from '../../src/renderer/src/components/DataGrid.svelte'
import { LOAD_ON_DELAY_MS } from '../../src/renderer/src/lib/row-window'
import { renderInApp } from './harness'

interface Row {
  readonly idx: number
  readonly name: string
}

const columns: GridColumn[] = [
  { id: 'idx', label: '번호', width: '80px' },
  { id: 'name', label: '상품명', width: 'minmax(120px, 1fr)' },
  { id: 'registered', label: '접수일시', width: '140px', sort: 'descending' },
]

const cells = createRawSnippet<[Row]>((row) => ({
  render: () =>
    `<div class="cells"><div role="gridcell">${row().idx}</div><div role="gridcell" dir="auto">${row().name.replace(/</g, '&lt;')}</div><div role="gridcell">—</div></div>`,
}))

function gridProps(rows: Row[], total: number, extra: Record<string, unknown> = {}) {
  return {
    rows,
    total,
    columns,
    label: '감정 내역',
    selectedIdx: null,
    cells,
    onopen: vi.fn(),
    onend: vi.fn(),
    onsort: vi.fn(),
    ...extra,
  }
}

function renderGrid(rows: Row[], total: number, extra: Record<string, unknown> = {}) {
  const props = gridProps(rows, total, extra)
  renderInApp(DataGrid as unknown as Component<typeof props>, props)
  return props
}

/**
 * The data rows once the virtualizer knows its viewport. jsdom cannot measure
 * a row, so virtua keeps rendered rows `visibility: hidden` (unmeasured) and
 * the queries include hidden elements.
 */
async function dataRows(): Promise<HTMLElement[]> {
  await vi.waitFor(() =>
    expect(screen.getAllByRole('row', { hidden: true }).length).toBeGreaterThan(1),
  )
  return screen.getAllByRole('row', { hidden: true }).slice(1)
}

const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ idx: 1000 - i, name: `상품 ${i}` }))

describe('data grid', () => {
  it('is a grid whose row count is every matching record plus the header, not the rows loaded', () => {
    renderGrid(rows(30), 100_000)
    const grid = screen.getByRole('grid', { name: '감정 내역' })
    expect(grid.getAttribute('aria-rowcount')).toBe('100001')
    expect(grid.getAttribute('aria-colcount')).toBe('3')
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent?.trim())
    expect(headers[0]).toBe('번호')
    expect(headers[2]).toContain('접수일시')
    expect(screen.getAllByRole('row')[0]!.getAttribute('aria-rowindex')).toBe('1')
  })

  it('renders only a window of the rows, each with its position in the whole list', async () => {
    renderGrid(rows(5000), 5000)
    const shown = await dataRows()
    // 400 px of 40 px rows plus the buffer: tens, never thousands.
    expect(shown.length).toBeGreaterThanOrEqual(10)
    expect(shown.length).toBeLessThan(60)
    expect(shown[0]!.getAttribute('aria-rowindex')).toBe('2')
    expect(shown[1]!.getAttribute('aria-rowindex')).toBe('3')
  })

  it('the sortable date column says its order and asks to flip it', async () => {
    const props = renderGrid(rows(3), 3)
    const header = screen.getAllByRole('columnheader')[2]!
    expect(header.getAttribute('aria-sort')).toBe('descending')
    expect(screen.getAllByRole('columnheader')[0]!.getAttribute('aria-sort')).toBeNull()
    await fireEvent.click(header.querySelector('button')!)
    expect(props.onsort).toHaveBeenCalledExactlyOnceWith(columns[2])
  })

  it('a click opens the row; the selected row is marked for assistive tech', async () => {
    const data = rows(3)
    const props = renderGrid(data, 3, { selectedIdx: data[1]!.idx })
    const shown = await dataRows()
    expect(shown[1]!.getAttribute('aria-selected')).toBe('true')
    expect(shown[0]!.getAttribute('aria-selected')).toBe('false')
    const grid = screen.getByRole('grid')
    expect(grid.getAttribute('aria-activedescendant')).toBe(shown[1]!.id)
    await fireEvent.click(shown[2]!)
    expect(props.onopen).toHaveBeenCalledExactlyOnceWith(data[2])
  })

  /**
   * Renders on fake time and runs every timer and frame it sets: the grid has
   * painted, measured its pane and made its check for the next page.
   */
  async function renderSettled(data: Row[], total: number) {
    vi.useFakeTimers()
    try {
      const props = renderGrid(data, total)
      await vi.runAllTimersAsync()
      return props
    } finally {
      vi.useRealTimers()
    }
  }

  it('asks for the next page when the loaded rows do not reach past the view', async () => {
    const props = await renderSettled(rows(10), 500)
    expect(props.onend).toHaveBeenCalledOnce()
  })

  it('asks for no page while its rows keep changing (a search being typed), then once they stay', async () => {
    vi.useFakeTimers()
    try {
      const onend = vi.fn()
      const props = gridProps(rows(10), 500, { onend })
      const view = renderInApp(DataGrid as unknown as Component<typeof props>, props)
      // Each key's answer comes sooner than the grid waits: nothing is asked.
      for (let key = 0; key < 5; key += 1) {
        await vi.advanceTimersByTimeAsync(LOAD_ON_DELAY_MS / 2)
        await view.rerenderWith({ ...props, rows: rows(10).map((row) => ({ ...row })) })
      }
      expect(onend).not.toHaveBeenCalled()
      // The last answer stays: its short page loads on.
      await vi.advanceTimersByTimeAsync(LOAD_ON_DELAY_MS * 2)
      expect(onend).toHaveBeenCalledOnce()
    } finally {
      vi.useRealTimers()
    }
  })

  it('asks for no page while the loaded rows reach far past the view', async () => {
    const props = await renderSettled(rows(2000), 100_000)
    expect(await dataRows()).not.toHaveLength(0)
    expect(props.onend).not.toHaveBeenCalled()
  })

  it('recycles its row elements while scrolling: the same elements show the rows now in view', async () => {
    renderGrid(rows(5000), 5000)
    // Once the pane is measured (400 px), the window holds its rows.
    await vi.waitFor(async () => expect(await dataRows()).toHaveLength(10 + 2))
    const before = await dataRows()
    const scroller = screen.getByRole('grid').querySelectorAll('[role=rowgroup]')[1]!
      .firstElementChild as HTMLElement
    scroller.scrollTop = 40 * 1000
    await fireEvent.scroll(scroller)
    const after = await dataRows()
    // Row 1000 is the first in view; two rows above it stay for a smooth scroll.
    expect(after[0]!.getAttribute('aria-rowindex')).toBe(String(1000 - 2 + 2))
    expect(after[2]!.getAttribute('data-idx')).toBe(String(1000 - 1000))
    expect(after[2]!.id).toMatch(/-row-0$/)
    // Ten rows in view and two either side now (none above the top before): the first 12 are the same elements.
    expect(after.length).toBe(2 + 10 + 2)
    expect(before.every((row, i) => row === after[i])).toBe(true)
  })

  it('keeps text as text and isolates its direction', async () => {
    renderGrid([{ idx: 1, name: '\u202Egpj.exe <b>악성</b>' }], 1)
    await dataRows()
    const cell = screen.getAllByRole('gridcell', { hidden: true })[1]!
    expect(cell.getAttribute('dir')).toBe('auto')
    expect(cell.textContent).toBe('\u202Egpj.exe <b>악성</b>')
  })
})
