import { describe, expect, it } from 'vitest'
import { SHORTCUTS, shortcutFor, type KeyLike } from '../../src/renderer/src/lib/shortcuts'
import { message } from '../../src/shared/i18n'

function key(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, target: document.body, ...extra }
}

describe('keyboard map', () => {
  it('maps the list keys to their actions', () => {
    expect(shortcutFor(key('ArrowDown'))).toBe('next')
    expect(shortcutFor(key('j'))).toBe('next')
    expect(shortcutFor(key('ArrowUp'))).toBe('previous')
    expect(shortcutFor(key('k'))).toBe('previous')
    expect(shortcutFor(key('ArrowRight'))).toBe('nextCard')
    expect(shortcutFor(key('ArrowLeft'))).toBe('previousCard')
    expect(shortcutFor(key('Enter'))).toBe('open')
    expect(shortcutFor(key('Escape'))).toBe('close')
    expect(shortcutFor(key('/'))).toBe('search')
    expect(shortcutFor(key('r'))).toBe('markReviewed')
    expect(shortcutFor(key('f'))).toBe('markFollowUp')
    expect(shortcutFor(key('n'))).toBe('editNote')
    expect(shortcutFor(key('c'))).toBe('copyId')
    expect(shortcutFor(key('?'))).toBe('help')
    expect(shortcutFor(key('x'))).toBeNull()
  })

  it('works with Caps Lock and with the Korean layout active (physical key)', () => {
    expect(shortcutFor(key('J'))).toBe('next')
    expect(shortcutFor(key('ㅓ', { code: 'KeyJ' }))).toBe('next')
    expect(shortcutFor(key('ㄱ', { code: 'KeyR' }))).toBe('markReviewed')
    expect(shortcutFor(key('ㄹ', { code: 'KeyF' }))).toBe('markFollowUp')
  })

  it('never fires during an IME composition', () => {
    expect(shortcutFor(key('j', { isComposing: true }))).toBeNull()
    expect(shortcutFor(key('Enter', { isComposing: true }))).toBeNull()
    expect(shortcutFor(key('Process', { keyCode: 229, code: 'KeyJ' }))).toBeNull()
  })

  it('never fires while typing in a field', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      const field = document.createElement(tag)
      document.body.append(field)
      expect(shortcutFor(key('j', { target: field }))).toBeNull()
      expect(shortcutFor(key('Enter', { target: field }))).toBeNull()
      field.remove()
    }
    const editable = document.createElement('div')
    editable.setAttribute('contenteditable', 'true')
    const inner = document.createElement('span')
    editable.append(inner)
    document.body.append(editable)
    expect(shortcutFor(key('r', { target: inner }))).toBeNull()
    editable.remove()
  })

  it('leaves system chords and Enter on buttons alone', () => {
    expect(shortcutFor(key('c', { ctrlKey: true }))).toBeNull()
    expect(shortcutFor(key('r', { metaKey: true }))).toBeNull()
    expect(shortcutFor(key('f', { altKey: true }))).toBeNull()
    const button = document.createElement('button')
    document.body.append(button)
    expect(shortcutFor(key('Enter', { target: button }))).toBeNull()
    expect(shortcutFor(key('j', { target: button }))).toBe('next')
    button.remove()
  })

  it('the help overlay names every action in both languages', () => {
    for (const { action } of SHORTCUTS) {
      expect(message('ko', `keys.${action}`)).toBeTruthy()
      expect(message('en', `keys.${action}`)).toBeTruthy()
    }
    expect(new Set(SHORTCUTS.map((entry) => entry.action)).size).toBe(SHORTCUTS.length)
  })
})
