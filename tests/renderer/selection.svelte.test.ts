import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { flushSync } from 'svelte'
import { describe, expect, it, vi } from 'vitest'
import SelectionBar from '../../src/renderer/src/components/SelectionBar.svelte'
import type { Client } from '../../src/renderer/src/lib/client'
import { emptyFilters } from '../../src/renderer/src/lib/list-query.svelte'
import { RowSelection, SELECTION_MAX } from '../../src/renderer/src/lib/selection.svelte'
import { renderInApp } from './harness'

/**
 * Acting on a selection (docs/renderer.md "Act on a selection"): which rows
 * a range, a toggle and Ctrl/⌘+A take, and that the selection bar sends one
 * `reviews.setMany` for them (by idx, or by the list's filter), asks before
 * it selects a long list, and shows progress on a long action.
 */

const rows = [10, 11, 12, 13, 14, 15].map((idx) => ({ idx }))

describe('RowSelection', () => {
  it('selects the range from the anchor to a row, either way, replacing the previous range', () => {
    const selection = new RowSelection()
    selection.range(rows, 11, 13)
    expect(selection.idxs).toEqual([11, 12, 13])
    expect(selection.anchor).toBe(11)
    // The anchor stays: a second Shift+click (or Shift+K past it) turns the range around.
    selection.range(rows, 13, 10)
    expect(selection.idxs).toEqual([11, 10])
    expect(selection.has(10) && selection.has(11) && !selection.has(13)).toBe(true)
    expect(selection.target()).toEqual({ idxs: [11, 10] })
    expect(selection.count(999)).toBe(2)
  })

  it('toggles one row in and out, and Ctrl/⌘+A takes every row of the filter', () => {
    const selection = new RowSelection()
    expect(selection.active).toBe(false)
    expect(selection.target()).toBeNull()
    selection.toggle(12)
    selection.toggle(14)
    selection.toggle(12)
    expect(selection.idxs).toEqual([14])
    selection.selectAll()
    expect(selection.has(999_999)).toBe(true)
    expect(selection.count(12_345)).toBe(12_345)
    expect(selection.target()).toEqual({ all: true })
    selection.clear()
    expect(selection.active).toBe(false)
  })

  it('cuts a range longer than a selection may name, and says so', () => {
    const many = Array.from({ length: SELECTION_MAX + 10 }, (_, idx) => ({ idx }))
    const selection = new RowSelection()
    selection.range(many, 0, SELECTION_MAX + 9)
    expect(selection.idxs).toHaveLength(SELECTION_MAX)
    expect(selection.capped).toBe(true)
  })
})

function fakeClient(answer?: Promise<unknown>) {
  const attempt = vi.fn(async (_channel: string, args: Record<string, unknown>) => {
    if (answer) await answer
    const count = Array.isArray(args['idxs']) ? args['idxs'].length : 7000
    return {
      ok: true as const,
      value: {
        action: { kind: 'bulk', resource: 'inspections', count, mark: args['mark'] ?? null },
      },
    }
  })
  const client = { attempt, call: vi.fn(), on: vi.fn(() => () => {}), api: {} }
  return { client: client as unknown as Client, attempt }
}

function renderBar(selection: RowSelection, total: number, answer?: Promise<unknown>) {
  const { client, attempt } = fakeClient(answer)
  const filters = { ...emptyFilters(), status: 'PENDING' }
  const view = renderInApp(
    SelectionBar,
    { selection, total, resource: 'inspections' as const, filters },
    'ko',
    client,
  )
  return { attempt, view }
}

describe('SelectionBar', () => {
  it('marks the rows named in one reviews.setMany and clears the selection', async () => {
    const selection = new RowSelection()
    selection.range(rows, 10, 12)
    const { attempt } = renderBar(selection, 500)
    expect(screen.getByTestId('selection-count').textContent).toBe('3건 선택됨')
    await fireEvent.click(screen.getByRole('button', { name: '검토 완료로 표시' }))
    await waitFor(() => expect(selection.active).toBe(false))
    expect(attempt).toHaveBeenCalledTimes(1)
    expect(attempt).toHaveBeenCalledWith('reviews.setMany', {
      resource: 'inspections',
      idxs: [10, 11, 12],
      mark: 'reviewed',
    })
  })

  it('acts on every row of the filter by the filter, with a progress bar while a long action runs', async () => {
    const selection = new RowSelection()
    selection.selectAll()
    let finish = (): void => {}
    const { attempt } = renderBar(
      selection,
      7000,
      new Promise<void>((resolve) => (finish = resolve)),
    )
    expect(screen.getByTestId('selection-count').textContent).toBe('7,000건 선택됨')
    await fireEvent.click(screen.getByRole('button', { name: '후속 조치 필요로 표시' }))
    expect(await screen.findByTestId('selection-progress')).toBeTruthy()
    expect(attempt.mock.calls[0]?.[1]).toEqual({
      resource: 'inspections',
      filter: { status: 'PENDING', sort: 'latest' },
      mark: 'follow_up',
    })
    finish()
    await waitFor(() => expect(screen.queryByTestId('selection-progress')).toBeNull())
    expect(selection.active).toBe(false)
  })

  it('sets one note on the selection, and refuses a note over the limit before sending', async () => {
    const selection = new RowSelection()
    selection.toggle(13)
    const { attempt } = renderBar(selection, 500)
    await fireEvent.click(screen.getByRole('button', { name: '메모…' }))
    const field = screen.getByTestId('selection-note')
    await fireEvent.input(field, { target: { value: 'x'.repeat(2001) } })
    const save = screen.getByRole('button', { name: '1건에 메모 저장' })
    expect((save as HTMLButtonElement).disabled).toBe(true)
    await fireEvent.input(field, { target: { value: '재확인 필요' } })
    await fireEvent.click(save)
    await waitFor(() => expect(attempt).toHaveBeenCalledTimes(1))
    expect(attempt.mock.calls[0]?.[1]).toEqual({
      resource: 'inspections',
      idxs: [13],
      note: '재확인 필요',
    })
  })

  it('asks before it selects more than 500 rows, and selects 500 at once', async () => {
    // jsdom has no modal dialogs: open and close only flip `open`.
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.open = true
    }
    HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
      this.open = false
    }
    const selection = new RowSelection()
    const { attempt } = renderBar(selection, 501)
    selection.askAll(501)
    flushSync()
    expect(selection.active).toBe(false)
    const dialog = screen.getByTestId('select-all-confirm') as HTMLDialogElement
    expect(dialog.open).toBe(true)
    expect(screen.getByRole('heading').textContent).toBe('501행을 모두 선택할까요?')
    await fireEvent.click(screen.getByRole('button', { name: '취소' }))
    expect(dialog.open).toBe(false)
    expect(selection.active).toBe(false)
    selection.askAll(501)
    flushSync()
    await fireEvent.click(screen.getByRole('button', { name: '501행 선택' }))
    expect(selection.all).toBe(true)
    expect(dialog.open).toBe(false)
    expect(attempt).not.toHaveBeenCalled()

    const small = new RowSelection()
    small.askAll(500)
    expect(small.all).toBe(true)
    expect(small.asking).toBe(0)
  })
})
