import { describe, expect, it } from 'vitest'
import { I18n } from '../../src/renderer/src/lib/i18n.svelte'
import { fieldKey, reasonKey } from '../../src/renderer/src/lib/rejected'

describe('rejected records in plain words', () => {
  it('the reader’s reasons read as sentences in both languages; unknown reasons stay as sent', () => {
    const ko = new I18n()
    const en = new I18n()
    en.locale = 'en'
    expect(ko.t(reasonKey('missing')!)).toBe('값이 없습니다')
    expect(en.t(reasonKey('missing or not an integer')!)).toBe('no value, or not a whole number')
    expect(ko.t(reasonKey('not an object')!)).toContain('객체')
    expect(reasonKey('a reason from a newer core')).toBeNull()
  })

  it('API field names known to staff get their screen names; others, and prototype keys, do not', () => {
    const ko = new I18n()
    expect(ko.t(fieldKey('productName')!)).toBe('상품명')
    expect(ko.t(fieldKey('inspectionNum')!)).toBe('검수번호')
    expect(ko.t(fieldKey('registeredAtAt')!)).toBe('등록일시')
    expect(fieldKey('guaranteeToken')).toBeNull()
    expect(fieldKey('constructor')).toBeNull()
    expect(fieldKey('__proto__')).toBeNull()
  })
})
