import { fireEvent, render, screen } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import SearchBox from '../../src/renderer/src/components/SearchBox.svelte'

/** Types like a Korean IME: each step replaces the field's text while a composition is open. */
async function compose(input: HTMLInputElement, steps: string[], committed: string): Promise<void> {
  await fireEvent.compositionStart(input, { data: '' })
  for (const text of steps) {
    input.value = text
    await fireEvent.input(input, { data: text, isComposing: true })
  }
  await fireEvent.compositionEnd(input, { data: committed })
}

describe('search box and Korean input', () => {
  it('passes the text on while composing and never doubles the last syllable', async () => {
    const values: string[] = []
    render(SearchBox, {
      props: { label: '검색', value: '', onenter: () => {} },
    })
    const input = screen.getByRole('searchbox') as HTMLInputElement
    const writes = vi.spyOn(input, 'value', 'set')
    input.addEventListener('input', () => values.push(input.value))
    await compose(input, ['ㅅ', '샤', '샤ㄴ', '샤너', '샤넬'], '넬')
    // Only the IME (this test) wrote the field; the component never wrote it back.
    expect(writes.mock.calls.map(([text]) => text)).toEqual(['ㅅ', '샤', '샤ㄴ', '샤너', '샤넬'])
    expect(input.value).toBe('샤넬')
    expect(values.at(-1)).toBe('샤넬')
  })

  it('ignores Enter while a composition is open, and acts on Enter after it', async () => {
    const onenter = vi.fn()
    render(SearchBox, { props: { label: '검색', value: '', onenter } })
    const input = screen.getByRole('searchbox') as HTMLInputElement
    await fireEvent.compositionStart(input, { data: '' })
    input.value = '구찌'
    await fireEvent.input(input, { data: '구찌', isComposing: true })
    await fireEvent.keyDown(input, { key: 'Enter', isComposing: true })
    await fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 })
    expect(onenter).not.toHaveBeenCalled()
    await fireEvent.compositionEnd(input, { data: '찌' })
    await fireEvent.keyDown(input, { key: 'Enter' })
    expect(onenter).toHaveBeenCalledExactlyOnceWith('구찌')
  })

  it('a reset from outside reaches the field, but not in the middle of a composition', async () => {
    const view = render(SearchBox, { props: { label: '검색', value: '샤넬' } })
    const input = screen.getByRole('searchbox') as HTMLInputElement
    expect(input.value).toBe('샤넬')
    await view.rerender({ label: '검색', value: '' })
    expect(input.value).toBe('')

    await fireEvent.compositionStart(input, { data: '' })
    input.value = '에'
    await fireEvent.input(input, { data: '에', isComposing: true })
    await view.rerender({ label: '검색', value: 'other' })
    expect(input.value).toBe('에')
  })
})
