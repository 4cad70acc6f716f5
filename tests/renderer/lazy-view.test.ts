import { screen } from '@testing-library/svelte'
import type { Component } from 'svelte'
import { describe, expect, it, vi } from 'vitest'
import LazyView, { type ViewLoader } from '../../src/renderer/src/components/LazyView.svelte'
import EmptyState from '../../src/renderer/src/components/EmptyState.svelte'
import { renderInApp } from './harness'

type Props = {
  load: ViewLoader<{ title: string; hint: string }>
  props: { title: string; hint: string }
}
const lazy = LazyView as unknown as Component<Props>

describe('a screen loaded on first use', () => {
  it('renders the loaded screen with its props, and a second time without loading again', async () => {
    const load = vi.fn(() => Promise.resolve({ default: EmptyState }))
    const first = renderInApp(lazy, { load, props: { title: '보증서 화면', hint: '불러옴' } })
    expect(await screen.findByText('보증서 화면')).toBeTruthy()
    first.unmount()
    renderInApp(lazy, { load, props: { title: '다시 연 화면', hint: '바로' } })
    // Known modules render in the same pass: no pending frame, no second import.
    expect(screen.getByText('다시 연 화면')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('says in the UI language that a screen failed to load, with the detail behind a disclosure', async () => {
    const load = () => Promise.reject(new Error('Failed to fetch dynamically imported module'))
    renderInApp(lazy, { load, props: { title: 'x', hint: 'y' } }, 'en')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('This screen could not be opened.')
    expect(screen.getByTestId('tech-details').textContent).toContain('dynamically imported module')
  })

  it('says it in Korean by default', async () => {
    const load = () => Promise.reject(new Error('boom'))
    renderInApp(lazy, { load, props: { title: 'x', hint: 'y' } })
    expect((await screen.findByRole('alert')).textContent).toContain('이 화면을 열지 못했습니다.')
  })
})
