import { describe, expect, it } from 'vitest'
import { I18n } from '../../src/renderer/src/lib/i18n.svelte'
import { LOCALES, message, type MessageKey } from '../../src/shared/i18n'
import { ERROR_CODES, ERROR_REASONS } from '../../src/shared/errors'
import enFile from '../../messages/en.json'
import koFile from '../../messages/ko.json'

type Entry = string | readonly { declarations?: readonly string[]; match: Record<string, string> }[]

/** One language's message file as written (inlang message format), without its `$schema`. */
function catalog(file: object): Record<string, Entry> {
  const { $schema: _schema, ...entries } = file as Record<string, Entry>
  return entries
}

/** The inputs a message takes: `{name}` in a plain text, `input name` in a variant message. */
function inputsOf(entry: Entry): string[] {
  if (typeof entry === 'string') return [...new Set(entry.match(/\{(\w+)\}/g) ?? [])].sort()
  return entry
    .flatMap((variant) => variant.declarations ?? [])
    .filter((declaration) => declaration.startsWith('input '))
    .map((declaration) => `{${declaration.slice('input '.length)}}`)
    .sort()
}

describe('message files', () => {
  const files: Record<string, Record<string, Entry>> = { ko: catalog(koFile), en: catalog(enFile) }

  it('every key is in every language, with the same placeholders', () => {
    const keys = Object.keys(files['ko']!)
    expect(keys.length).toBeGreaterThan(300)
    for (const locale of LOCALES) {
      expect(Object.keys(files[locale]!).sort(), locale).toEqual([...keys].sort())
      for (const key of keys) {
        expect(inputsOf(files[locale]![key]!), `${locale} ${key}`).toEqual(
          inputsOf(files['ko']![key]!),
        )
        expect(message(locale, key as MessageKey, {} as never), `${locale} ${key}`).not.toBe('')
      }
    }
  })

  it('counts take the plural form in English and one form in Korean, numbers grouped', () => {
    expect(message('en', 'list.count', { total: 1 })).toBe('1 record')
    expect(message('en', 'list.count', { total: 2 })).toBe('2 records')
    expect(message('en', 'list.count', { total: 12345 })).toBe('12,345 records')
    expect(message('ko', 'list.count', { total: 1 })).toBe('1건')
    expect(message('ko', 'list.count', { total: 12345 })).toBe('12,345건')
    expect(message('en', 'status.rejectedLink', { n: 1 })).toBe('1 rejected record')
    expect(message('en', 'list.exported', { n: 1, path: '/tmp/a.csv' })).toBe(
      'Saved 1 row to /tmp/a.csv.',
    )
  })

  it('every error code has a sentence in both languages', () => {
    for (const code of ERROR_CODES) {
      for (const locale of LOCALES) {
        const i18n = new I18n()
        i18n.locale = locale
        expect(i18n.errorText({ code, message: '' }), `${locale} ${code}`).toBe(
          message(locale, `error.${code}`),
        )
        expect(i18n.errorText({ code, message: '' })).not.toMatch(/^error\./)
        // What to do, in the window's language, for every code.
        expect(i18n.errorDetails({ code, message: '' }), `${locale} ${code}`).toBe(
          message(locale, `error.hint.${code}`),
        )
      }
    }
  })

  it('words an error’s reason and details in the window’s language, core’s English only in English', () => {
    const error = {
      code: 'invalid_argument' as const,
      message: 'No guaranteeToken is stored for guarantee 42; paste the token.',
      reason: 'no_guarantee_token' as const,
      values: { idx: 42 },
    }
    const ko = new I18n()
    ko.locale = 'ko'
    expect(ko.errorText(error)).toBe('보증서 42에는 저장된 보증서 토큰(guaranteeToken)이 없습니다.')
    expect(ko.errorDetails(error)).toContain('보증서 상세 조회')
    expect(ko.errorDetails(error)).not.toContain('paste the token')
    expect(ko.errorDetails({ code: 'bad_request', message: 'Bad page', status: 400 })).toBe(
      `${message('ko', 'error.hint.bad_request')}\n서비스 응답: HTTP 400`,
    )
    const en = new I18n()
    en.locale = 'en'
    expect(en.errorText(error)).toBe(
      'No guarantee token (guaranteeToken) is stored for guarantee 42.',
    )
    expect(en.errorDetails(error)).toContain(`Original: ${error.message}`)
    for (const reason of ERROR_REASONS) {
      for (const locale of LOCALES) {
        const i18n = new I18n()
        i18n.locale = locale
        const text = i18n.errorText({
          code: 'invalid_argument',
          message: '',
          reason,
          values: { idx: 1 },
        })
        expect(text, `${locale} ${reason}`).not.toMatch(/^error\./)
        expect(text).not.toBe(message(locale, 'error.invalid_argument'))
      }
    }
  })
})

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

  it('fills placeholders in the current language', () => {
    const ko = new I18n()
    const en = new I18n()
    en.locale = 'en'
    expect(ko.t('conn.lastGood', { time: '2026-11-23 10:00' })).toBe(
      '마지막 정상 동기화 2026-11-23 10:00',
    )
    expect(en.t('form.tooLong', { max: 80 })).toBe('At most 80 characters.')
  })
})
