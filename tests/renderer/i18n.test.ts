import { describe, expect, it } from 'vitest'
import { I18n } from '../../src/renderer/src/lib/i18n.svelte'

describe('status labels in the UI language', () => {
  it('Korean shows the service’s labels as sent', () => {
    const i18n = new I18n()
    expect(i18n.locale).toBe('ko')
    expect(i18n.label('발급완료')).toBe('발급완료')
  })

  it('English translates the known labels and shows unknown ones exactly as sent', () => {
    const i18n = new I18n()
    i18n.locale = 'en'
    expect(i18n.label('발급완료')).toBe('Issued')
    expect(i18n.label('배송완료')).toBe('Delivered')
    expect(i18n.label('정품')).toBe('Genuine')
    expect(i18n.label('검수보류')).toBe('검수보류')
  })

  it('the new shell messages exist in both languages with the same placeholders', () => {
    const ko = new I18n()
    const en = new I18n()
    en.locale = 'en'
    for (const key of ['conn.lastGood', 'conn.lastAttempt', 'form.tooLong'] as const) {
      const placeholders = (text: string) => text.match(/\{\w+\}/g)?.sort()
      expect(placeholders(en.t(key))).toEqual(placeholders(ko.t(key)))
    }
    expect(ko.t('conn.lastGood', { time: '2026-11-23 10:00' })).toBe(
      '마지막 정상 동기화 2026-11-23 10:00',
    )
    expect(en.t('form.tooLong', { max: 80 })).toBe('At most 80 characters.')
  })
})
