import { describe, expect, it } from 'vitest'
import { initialsOf } from '../../src/renderer/src/lib/initials'

describe('a reviewer in the review column', () => {
  it('a Korean name shows its given name; a short one stays whole', () => {
    expect(initialsOf('김민지')).toBe('민지')
    expect(initialsOf('남궁민수')).toBe('민수')
    expect(initialsOf('민지')).toBe('민지')
  })

  it('other names show the first letters of two words, one word its first two letters', () => {
    expect(initialsOf('Jisoo Park')).toBe('JP')
    expect(initialsOf('park_jisoo')).toBe('PJ')
    expect(initialsOf('jisoo')).toBe('Ji')
    expect(initialsOf('  ')).toBe('')
  })
})
