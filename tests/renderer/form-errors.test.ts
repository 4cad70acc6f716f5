import { describe, expect, it } from 'vitest'
import { fieldErrorsOf } from '../../src/renderer/src/lib/form-errors'
import { profileInputSchema, secretInputSchema } from '../../src/shared/profile-schemas'

const PROFILE_FIELDS = [
  'name',
  'partnerId',
  'baseUrl',
  'staticUrl',
  'redirectUri',
  'timeZone',
] as const

const valid = {
  name: '본점',
  baseUrl: 'https://partner.example.com',
  staticUrl: 'https://static.example.com',
  partnerId: 'shop-1',
  redirectUri: 'https://shop.example.com/done',
  timeZone: 'Asia/Seoul',
}

function issuesOf(input: unknown) {
  const parsed = profileInputSchema.safeParse(input)
  if (parsed.success) throw new Error('expected the input to be refused')
  return parsed.error.issues
}

describe('zod issues to form fields', () => {
  it('puts each problem of the profile form next to its own field, in words of the catalog', () => {
    const errors = fieldErrorsOf(
      issuesOf({
        ...valid,
        name: '   ',
        baseUrl: 'http://partner.example.com',
        redirectUri: 'not a url',
        timeZone: 'Mars/Olympus',
      }),
      PROFILE_FIELDS,
    )
    expect(errors).toEqual({
      name: { key: 'form.required' },
      baseUrl: { key: 'form.serviceUrl' },
      redirectUri: { key: 'form.redirectUri' },
      timeZone: { key: 'form.timeZone' },
    })
  })

  it('says an empty address is missing, without listing the rules of a filled one', () => {
    const errors = fieldErrorsOf(
      issuesOf({ ...valid, baseUrl: '', staticUrl: '  ', redirectUri: '' }),
      PROFILE_FIELDS,
    )
    expect(errors).toEqual({
      baseUrl: { key: 'form.required' },
      staticUrl: { key: 'form.required' },
      redirectUri: { key: 'form.required' },
    })
  })

  it('refuses a wallet return address over plain http to another computer', () => {
    const errors = fieldErrorsOf(
      issuesOf({ ...valid, redirectUri: 'http://shop.example.com/done' }),
      PROFILE_FIELDS,
    )
    expect(errors).toEqual({ redirectUri: { key: 'form.redirectUri' } })
    for (const redirectUri of ['http://127.0.0.1:5173/done', 'https://shop.example.com/done?x=1'])
      expect(profileInputSchema.safeParse({ ...valid, redirectUri }).success).toBe(true)
  })

  it('reads a zone abbreviation staff type as its zone', () => {
    const parsed = profileInputSchema.parse({ ...valid, timeZone: 'KST' })
    expect(parsed.timeZone).toBe('Asia/Seoul')
    expect(profileInputSchema.parse({ ...valid, timeZone: 'jst' }).timeZone).toBe('Asia/Tokyo')
  })

  it('names the limit of a value that is too long', () => {
    const errors = fieldErrorsOf(issuesOf({ ...valid, name: '가'.repeat(81) }), PROFILE_FIELDS)
    expect(errors).toEqual({ name: { key: 'form.tooLong', values: { max: 80 } } })
  })

  it('words control and text-direction characters in a name or partner id', () => {
    const errors = fieldErrorsOf(
      issuesOf({ ...valid, name: 'Shop\u202Egpj.exe', partnerId: 'shop\u00001' }),
      PROFILE_FIELDS,
    )
    expect(errors).toEqual({
      name: { key: 'form.bidiChars' },
      partnerId: { key: 'form.controlChars' },
    })
  })

  it('keeps the first issue of a field and leaves out fields the form does not have', () => {
    const errors = fieldErrorsOf(
      [
        { code: 'custom', path: ['staticUrl'] },
        { code: 'too_small', path: ['staticUrl'] },
        { code: 'unrecognized_keys', path: [] },
        { code: 'invalid_type', path: ['somethingElse'] },
      ],
      PROFILE_FIELDS,
    )
    expect(errors).toEqual({ staticUrl: { key: 'form.serviceUrl' } })
  })

  it('maps the key form too: an over-long secret is marked on its field', () => {
    const parsed = secretInputSchema.safeParse({ id: 'p-1', apiSecret: 'x'.repeat(5000) })
    expect(parsed.success).toBe(false)
    if (parsed.success) return
    expect(fieldErrorsOf(parsed.error.issues, ['apiKey', 'apiSecret'] as const)).toEqual({
      apiSecret: { key: 'form.tooLong', values: { max: 4096 } },
    })
  })
})
