import { screen } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import StatusChips from '../../src/renderer/src/components/StatusChips.svelte'
import { renderInApp } from './harness'

const chips = [
  { value: '검수완료', label: '검수완료' },
  { value: '검수중', label: '검수중' },
]
const counts = [
  { status: '검수완료', count: 700 },
  { status: '검수중', count: 300 },
]

function chipTexts(): string[] {
  return screen
    .getAllByRole('tab')
    .map((tab) => tab.textContent?.replace(/\s+/gu, ' ').trim() ?? '')
}

describe('status chips', () => {
  it('shows exact counts as numbers', () => {
    renderInApp(StatusChips, {
      chips,
      counts,
      selected: undefined,
      allLabel: '전체',
      onselect: () => {},
    })
    expect(chipTexts()).toEqual(['전체 1,000', '검수완료 700', '검수중 300'])
  })

  it('marks every count of a lower bound (a very short search) with a plus', () => {
    renderInApp(StatusChips, {
      chips,
      counts,
      atLeast: true,
      selected: undefined,
      allLabel: '전체',
      onselect: () => {},
    })
    expect(chipTexts()).toEqual(['전체 1,000+', '검수완료 700+', '검수중 300+'])
  })
})
