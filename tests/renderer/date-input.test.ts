import { describe, expect, it } from 'vitest'
import { parseDateInput } from '../../src/renderer/src/lib/date-input'

describe('a typed date', () => {
  it('reads year, month, day in the separators staff use, and answers ISO', () => {
    expect(parseDateInput('2026-11-23')).toBe('2026-11-23')
    expect(parseDateInput(' 2026. 11. 3. ')).toBe('2026-11-03')
    expect(parseDateInput('2026/1/9')).toBe('2026-01-09')
    expect(parseDateInput('20261123')).toBe('2026-11-23')
  })

  it('is empty for an empty field', () => {
    expect(parseDateInput('')).toBe('')
    expect(parseDateInput('   ')).toBe('')
  })

  it('refuses what is not a real date, including the US order', () => {
    expect(parseDateInput('11/23/2026')).toBeNull()
    expect(parseDateInput('2026-02-30')).toBeNull()
    expect(parseDateInput('2026-13-01')).toBeNull()
    expect(parseDateInput('2026-00-10')).toBeNull()
    expect(parseDateInput('어제')).toBeNull()
    expect(parseDateInput('0001-01-01')).toBeNull()
  })

  it('knows leap years', () => {
    expect(parseDateInput('2028-02-29')).toBe('2028-02-29')
    expect(parseDateInput('2026-02-29')).toBeNull()
  })
})
