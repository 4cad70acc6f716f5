import { describe, expect, it } from 'vitest'
import { instantText, serviceTimeText, timeValueText } from '../../../src/shared/time-text'

describe('the one way to write a time', () => {
  it('writes an instant in the profile zone, one pattern per precision', () => {
    // 19:36 UTC on the 28th is already the 29th in Seoul.
    const iso = '2026-11-28T19:36:42.487Z'
    expect(instantText(iso, 'Asia/Seoul', 'day')).toBe('2026-11-29')
    expect(instantText(iso, 'Asia/Seoul')).toBe('2026-11-29 04:36')
    expect(instantText(iso, 'Asia/Seoul', 'second')).toBe('2026-11-29 04:36:42')
    expect(instantText(iso, 'Europe/Berlin', 'second')).toBe('2026-11-28 20:36:42')
    expect(instantText(Date.parse(iso), 'Asia/Seoul')).toBe('2026-11-29 04:36')
    expect(instantText(new Date(iso), 'Asia/Seoul')).toBe('2026-11-29 04:36')
    // Midnight is 00, not 24.
    expect(instantText('2026-11-28T15:00:00Z', 'Asia/Seoul', 'second')).toBe('2026-11-29 00:00:00')
  })

  it('cuts a service time without converting it, and keeps what is no time', () => {
    expect(serviceTimeText('2026-11-22 10:51:03')).toBe('2026-11-22 10:51')
    expect(serviceTimeText('2026-11-22 10:51:03', 'day')).toBe('2026-11-22')
    expect(serviceTimeText('2026-11-22T10:51', 'second')).toBe('2026-11-22 10:51:00')
    expect(serviceTimeText('2026-11-22', 'minute')).toBe('2026-11-22 00:00')
    expect(serviceTimeText('yesterday')).toBe('yesterday')
    expect(instantText('not a time', 'Asia/Seoul')).toBe('not a time')
  })

  it('finds the time in a value of unknown kind', () => {
    expect(timeValueText('2026-11-28T19:36:42.487Z', 'Asia/Seoul')).toBe('2026-11-29 04:36:42')
    expect(timeValueText('2026-11-28T19:36:42+09:00', 'Asia/Seoul')).toBe('2026-11-28 19:36:42')
    expect(timeValueText('2026-11-22 10:51:03', 'Asia/Seoul', 'minute')).toBe('2026-11-22 10:51')
    expect(timeValueText('kimminji01', 'Asia/Seoul')).toBe('kimminji01')
    expect(timeValueText('20261122000123', 'Asia/Seoul')).toBe('20261122000123')
    expect(timeValueText('2026-11-22', 'Asia/Seoul')).toBe('2026-11-22')
  })
})
