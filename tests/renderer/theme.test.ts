import { describe, expect, it } from 'vitest'
import { parseTheme, resolveTheme } from '../../src/renderer/src/lib/theme'

describe('theme resolution', () => {
  it('light and dark paint themselves whatever the system says', () => {
    expect(resolveTheme('light', true)).toBe('light')
    expect(resolveTheme('dark', false)).toBe('dark')
  })

  it('system follows the OS colour scheme', () => {
    expect(resolveTheme('system', true)).toBe('dark')
    expect(resolveTheme('system', false)).toBe('light')
  })

  it('a stored value that is missing or unknown follows the system', () => {
    expect(parseTheme(null)).toBe('system')
    expect(parseTheme('purple')).toBe('system')
    expect(parseTheme(1)).toBe('system')
    expect(parseTheme('dark')).toBe('dark')
  })
})
