import { fireEvent, screen } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import ReviewEditor from '../../src/renderer/src/components/ReviewEditor.svelte'
import { completeMention, mentionAt, mentionCandidates } from '../../src/renderer/src/lib/mentions'
import { TeamState } from '../../src/renderer/src/lib/team.svelte'
import { mentions } from '../../src/shared/mentions'
import { renderInApp } from './harness'

/** `@이름` in a note, completed from the team's members (docs/team.md "Mentions"). */

const members = [
  { role: 'minji', name: '김민지' },
  { role: 'jisoo', name: '박지수' },
  { role: 'mina', name: 'Mina Choi' },
]

describe('mention completion', () => {
  it('finds the mention being typed, not an e-mail address or a closed one', () => {
    expect(mentionAt('확인 부탁 @김', 8)).toEqual({ start: 6, query: '김' })
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionAt('(@mi', 4)).toEqual({ start: 1, query: 'mi' })
    expect(mentionAt('minji@example', 13)).toBeNull()
    expect(mentionAt('@김민지\n다음 줄', 9)).toBeNull()
    expect(mentionAt('@ 띄어쓰기', 6)).toBeNull()
    expect(mentionAt('메모 없음', 5)).toBeNull()
  })

  it('offers the members whose name or role starts with the text, then those containing it', () => {
    expect(mentionCandidates(members, '').map((m) => m.role)).toEqual(['minji', 'jisoo', 'mina'])
    expect(mentionCandidates(members, '김').map((m) => m.role)).toEqual(['minji'])
    expect(mentionCandidates(members, 'mi').map((m) => m.role)).toEqual(['minji', 'mina'])
    expect(mentionCandidates(members, '지').map((m) => m.role)).toEqual(['minji', 'jisoo'])
    expect(mentionCandidates(members, 'choi').map((m) => m.role)).toEqual(['mina'])
    expect(mentionCandidates(members, 'zz')).toEqual([])
  })

  it('puts the chosen name in with a space after it and the caret past it', () => {
    const text = '확인 부탁 @김 내일까지'
    const query = mentionAt(text, 8)!
    expect(completeMention(text, 8, query, '김민지')).toEqual({
      text: '확인 부탁 @김민지 내일까지',
      caret: 11,
    })
  })

  it('reads a mention in a note the way the core does', () => {
    expect(mentions('@김민지 확인 부탁', '김민지')).toBe(true)
    expect(mentions('박스 훼손, @김민지.', '김민지')).toBe(true)
    expect(mentions('kim@김민지', '김민지')).toBe(false)
    expect(mentions('@김민지씨', '김민지')).toBe(false)
    expect(mentions('@Mina Choi please', 'Mina Choi')).toBe(true)
    expect(mentions('no one', '김민지')).toBe(false)
  })

  it('completes in the note field from the team’s members, by keys or a click', async () => {
    const team = new TeamState(null)
    team.status = {
      state: 'connected',
      team: 'appraisal',
      role: 'me',
      displayName: '나',
      unsent: 0,
      setAside: 0,
    }
    team.members = {
      me: 'me',
      members: [
        { role: 'me', name: '나', onTeam: true },
        ...members.map((member) => ({ ...member, onTeam: true })),
        // An author of an old mark who left the team: no longer offered.
        { role: 'gone', name: '김지난', onTeam: false },
      ],
    }
    const onsave = vi.fn().mockResolvedValue(true)
    renderInApp(ReviewEditor, { idx: 7, review: null, onsave }, 'ko', undefined, team)
    const note = screen.getByTestId('review-note') as HTMLTextAreaElement

    note.value = '확인 @'
    note.setSelectionRange(4, 4)
    await fireEvent.input(note)
    // Everyone but this member, the first one picked.
    const options = screen.getAllByTestId('mention-option')
    expect(options.map((option) => option.textContent?.trim().split(/\s+/)[0])).toEqual([
      '@김민지',
      '@박지수',
      '@Mina',
    ])
    expect(options[0]!.getAttribute('aria-selected')).toBe('true')

    note.value = '확인 @박'
    note.setSelectionRange(5, 5)
    await fireEvent.input(note)
    expect(screen.getAllByTestId('mention-option')).toHaveLength(1)
    await fireEvent.keyDown(note, { key: 'Enter' })
    expect(note.value).toBe('확인 @박지수 ')
    expect(screen.queryByTestId('mention-list')).toBeNull()
    // Enter chose the name: nothing was saved.
    expect(onsave).not.toHaveBeenCalled()

    note.value = '확인 @박지수 @'
    note.setSelectionRange(10, 10)
    await fireEvent.input(note)
    await fireEvent.keyDown(note, { key: 'ArrowDown' })
    await fireEvent.keyDown(note, { key: 'ArrowDown' })
    await fireEvent.mouseDown(screen.getAllByTestId('mention-option')[0]!)
    expect(note.value).toBe('확인 @박지수 @김민지 ')

    note.value = '확인 @박지수 @김민지 @'
    note.setSelectionRange(note.value.length, note.value.length)
    await fireEvent.input(note)
    await fireEvent.keyDown(note, { key: 'Escape' })
    expect(screen.queryByTestId('mention-list')).toBeNull()
  })

  it('offers nothing without a team server', async () => {
    renderInApp(ReviewEditor, { idx: 7, review: null, onsave: vi.fn() })
    const note = screen.getByTestId('review-note') as HTMLTextAreaElement
    note.value = '@'
    note.setSelectionRange(1, 1)
    await fireEvent.input(note)
    expect(screen.queryByTestId('mention-list')).toBeNull()
  })
})
