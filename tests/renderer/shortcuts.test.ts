import { describe, expect, it } from 'vitest'
import { commandFor, type KeyLike } from '../../src/renderer/src/lib/shortcuts'

function key(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, target: document.body, ...extra }
}
const list = (event: KeyLike) => commandFor(event, ['global', 'list'])

describe('keyboard map', () => {
  it('maps the list keys to their commands', () => {
    expect(list(key('ArrowDown'))).toBe('list.next')
    expect(list(key('j'))).toBe('list.next')
    expect(list(key('ArrowUp'))).toBe('list.previous')
    expect(list(key('k'))).toBe('list.previous')
    expect(list(key('ArrowRight'))).toBe('list.nextCard')
    expect(list(key('ArrowLeft'))).toBe('list.previousCard')
    expect(list(key('Enter'))).toBe('list.open')
    expect(list(key('Escape'))).toBe('list.close')
    expect(list(key('/'))).toBe('list.search')
    expect(list(key('r'))).toBe('list.markReviewed')
    expect(list(key('f'))).toBe('list.markFollowUp')
    expect(list(key('n'))).toBe('list.editNote')
    expect(list(key('c'))).toBe('list.copyId')
    expect(list(key('?'))).toBe('help.shortcuts')
    expect(list(key('x'))).toBeNull()
  })

  it('maps Ctrl/⌘ chords to the global commands, also while typing', () => {
    const field = document.createElement('input')
    document.body.append(field)
    expect(list(key('k', { ctrlKey: true }))).toBe('palette.open')
    expect(list(key('k', { metaKey: true, target: field }))).toBe('palette.open')
    expect(list(key('ㅏ', { ctrlKey: true, code: 'KeyK' }))).toBe('palette.open')
    expect(list(key('1', { ctrlKey: true }))).toBe('go.dashboard')
    expect(list(key('3', { ctrlKey: true }))).toBe('go.guarantees')
    expect(list(key('e', { ctrlKey: true }))).toBe('list.export')
    // Context decides: the same key is another command in the viewer.
    expect(commandFor(key('ArrowRight'), ['viewer'])).toBe('viewer.next')
    field.remove()
  })

  it('extends a selection with Shift+J/K (and Shift+arrows) and selects all rows with Ctrl/⌘+A', () => {
    expect(list(key('J', { shiftKey: true }))).toBe('list.extendNext')
    expect(list(key('K', { shiftKey: true }))).toBe('list.extendPrevious')
    expect(list(key('ㅓ', { shiftKey: true, code: 'KeyJ' }))).toBe('list.extendNext')
    expect(list(key('ArrowDown', { shiftKey: true }))).toBe('list.extendNext')
    expect(list(key('ArrowUp', { shiftKey: true }))).toBe('list.extendPrevious')
    expect(list(key('a', { ctrlKey: true }))).toBe('list.selectAll')
    expect(list(key('a', { metaKey: true }))).toBe('list.selectAll')
    // Shift+R is no mark, and Shift+? is still help (? needs Shift on some layouts).
    expect(list(key('R', { shiftKey: true }))).toBeNull()
    expect(list(key('?', { shiftKey: true }))).toBe('help.shortcuts')
    // In a field, Ctrl/⌘+A selects the field's text.
    const field = document.createElement('input')
    document.body.append(field)
    expect(list(key('a', { ctrlKey: true, target: field }))).toBeNull()
    expect(list(key('J', { shiftKey: true, target: field }))).toBeNull()
    field.remove()
  })

  it('works with Caps Lock and with the Korean layout active (physical key)', () => {
    expect(list(key('J'))).toBe('list.next')
    expect(list(key('ㅓ', { code: 'KeyJ' }))).toBe('list.next')
    expect(list(key('ㄱ', { code: 'KeyR' }))).toBe('list.markReviewed')
    expect(list(key('ㄹ', { code: 'KeyF' }))).toBe('list.markFollowUp')
  })

  it('never fires during an IME composition', () => {
    expect(list(key('j', { isComposing: true }))).toBeNull()
    expect(list(key('Enter', { isComposing: true }))).toBeNull()
    expect(list(key('Process', { keyCode: 229, code: 'KeyJ' }))).toBeNull()
    expect(commandFor(key('Enter', { isComposing: true }), ['field'])).toBeNull()
  })

  it('never fires list keys while typing in a field; the field’s own keys do', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      const field = document.createElement(tag)
      document.body.append(field)
      expect(list(key('j', { target: field }))).toBeNull()
      expect(list(key('Enter', { target: field }))).toBeNull()
      expect(commandFor(key('Enter', { target: field }), ['field'])).toBe('field.submit')
      field.remove()
    }
    const note = document.createElement('textarea')
    document.body.append(note)
    expect(commandFor(key('Enter', { ctrlKey: true, target: note }), ['editor'])).toBe(
      'editor.save',
    )
    expect(commandFor(key('Enter', { target: note }), ['editor'])).toBeNull()
    note.remove()
    const editable = document.createElement('div')
    editable.setAttribute('contenteditable', 'true')
    const inner = document.createElement('span')
    editable.append(inner)
    document.body.append(editable)
    expect(list(key('r', { target: inner }))).toBeNull()
    editable.remove()
  })

  it('leaves other system chords and Enter on buttons alone', () => {
    expect(list(key('c', { ctrlKey: true }))).toBeNull()
    expect(list(key('r', { metaKey: true }))).toBeNull()
    expect(list(key('f', { altKey: true }))).toBeNull()
    const button = document.createElement('button')
    document.body.append(button)
    expect(list(key('Enter', { target: button }))).toBeNull()
    expect(list(key('j', { target: button }))).toBe('list.next')
    button.remove()
  })
})

describe('the review undo key', () => {
  it('runs reviews.undo on Ctrl+Z, but not while typing in a field', () => {
    expect(commandFor({ key: 'z', code: 'KeyZ', ctrlKey: true }, ['global', 'list'])).toBe(
      'reviews.undo',
    )
    const field = document.createElement('textarea')
    document.body.append(field)
    expect(
      commandFor({ key: 'z', code: 'KeyZ', ctrlKey: true, target: field }, ['global', 'list']),
    ).toBeNull()
    field.remove()
  })
})
