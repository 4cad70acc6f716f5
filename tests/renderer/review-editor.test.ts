import { fireEvent, screen } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import type { ComponentProps } from 'svelte'
import type { ReviewMark } from '../../src/shared/lists'
import ReviewEditor from '../../src/renderer/src/components/ReviewEditor.svelte'
import { renderInApp } from './harness'

type Props = ComponentProps<typeof ReviewEditor>

function renderEditor(props: Props, locale: 'ko' | 'en' = 'ko') {
  return renderInApp(ReviewEditor, props, locale)
}

const marked: ReviewMark = {
  mark: 'follow_up',
  note: '박스 훼손',
  by: '김검수',
  at: '2026-11-23 10:00:00',
}

describe('review-mark editor', () => {
  it('shows the mark, the note, who and when', () => {
    renderEditor({ idx: 7, review: marked, onsave: vi.fn() })
    expect(screen.getByRole('radio', { name: '후속 조치 필요' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(screen.getByRole('radio', { name: '검토 완료' }).getAttribute('aria-checked')).toBe(
      'false',
    )
    expect((screen.getByTestId('review-note') as HTMLTextAreaElement).value).toBe('박스 훼손')
    expect(screen.getByTestId('review-meta').textContent).toContain('김검수 · 2026-11-23 10:00:00')
  })

  it('a mark alone keeps the stored note (note left out of the call)', async () => {
    const onsave = vi.fn().mockResolvedValue(true)
    renderEditor({ idx: 7, review: marked, onsave })
    await fireEvent.click(screen.getByRole('radio', { name: '검토 완료' }))
    expect(onsave).toHaveBeenCalledExactlyOnceWith(7, { mark: 'reviewed' })
  })

  it('saves a note with the current mark, by button or Ctrl+Enter, never on an IME Enter', async () => {
    const onsave = vi.fn().mockResolvedValue(true)
    renderEditor({ idx: 7, review: null, onsave })
    expect(screen.getByTestId('review-meta').textContent).toContain('아직 검토 표시가 없습니다')
    const note = screen.getByTestId('review-note') as HTMLTextAreaElement
    expect((screen.getByTestId('review-save') as HTMLButtonElement).disabled).toBe(true)
    await fireEvent.input(note, { target: { value: '진품 확인' } })
    await fireEvent.keyDown(note, { key: 'Enter', ctrlKey: true, isComposing: true })
    expect(onsave).not.toHaveBeenCalled()
    await fireEvent.keyDown(note, { key: 'Enter', ctrlKey: true })
    expect(onsave).toHaveBeenCalledExactlyOnceWith(7, { mark: 'none', note: '진품 확인' })
    await fireEvent.input(note, { target: { value: '진품 확인 완료' } })
    await fireEvent.click(screen.getByTestId('review-save'))
    expect(onsave).toHaveBeenLastCalledWith(7, { mark: 'none', note: '진품 확인 완료' })
  })

  it('a note over 2,000 characters is refused next to the field and kept', async () => {
    const onsave = vi.fn().mockResolvedValue(true)
    renderEditor({ idx: 7, review: null, onsave })
    const note = screen.getByTestId('review-note') as HTMLTextAreaElement
    const long = '가'.repeat(2001)
    await fireEvent.input(note, { target: { value: long } })
    expect(screen.getByRole('alert').textContent).toContain('2,000자까지')
    expect(note.getAttribute('aria-invalid')).toBe('true')
    expect((screen.getByTestId('review-save') as HTMLButtonElement).disabled).toBe(true)
    await fireEvent.keyDown(note, { key: 'Enter', ctrlKey: true })
    // Setting a mark now sends the mark only, so the stored note is not replaced by a refused one.
    await fireEvent.click(screen.getByRole('radio', { name: '검토 완료' }))
    expect(onsave).toHaveBeenCalledExactlyOnceWith(7, { mark: 'reviewed' })
    expect(note.value).toBe(long)
  })

  it('a failed save keeps what was typed', async () => {
    const onsave = vi.fn().mockResolvedValue(false)
    const view = renderEditor({ idx: 7, review: marked, onsave })
    const note = screen.getByTestId('review-note') as HTMLTextAreaElement
    await fireEvent.input(note, { target: { value: '새 메모' } })
    await fireEvent.click(screen.getByTestId('review-save'))
    await view.rerenderWith({ idx: 7, review: { ...marked }, onsave })
    expect(note.value).toBe('새 메모')
    expect(screen.getByText('저장하지 않은 메모가 있습니다.')).toBeTruthy()
  })

  it('an unsaved note is saved, not lost, when the editor goes away (another record chosen)', async () => {
    const onsave = vi.fn().mockResolvedValue(true)
    const view = renderEditor({ idx: 7, review: marked, onsave })
    await fireEvent.input(screen.getByTestId('review-note'), { target: { value: '다시 확인' } })
    view.unmount()
    expect(onsave).toHaveBeenCalledExactlyOnceWith(7, { mark: 'follow_up', note: '다시 확인' })
  })

  it('speaks English when the UI does', () => {
    renderEditor({ idx: 7, review: null, onsave: vi.fn() }, 'en')
    expect(screen.getByRole('radio', { name: 'Needs follow-up' })).toBeTruthy()
    expect(screen.getByTestId('review-meta').textContent).toContain('Not reviewed yet.')
  })
})
