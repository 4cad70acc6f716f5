import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/core/app-error'
import {
  normaliseTimestamp,
  readGuarantee,
  readInspection,
  readPage,
} from '../../../src/core/api/read-records'
import { REJECTED_RAW_MAX } from '../../../src/shared/domain'
import { GUARANTEE_FIELDS, INSPECTION_FIELDS } from '../../../src/shared/record-fields'

const guarantee = {
  idx: 7,
  status: '발급완료',
  productName: '샤넬 클래식 플랩백',
  nftCardImg: 'http://127.0.0.1:1/cards/7.png',
  registeredAt: '2024-03-01 10:00:00',
  modifiedAt: null,
}
const inspection = {
  idx: 9,
  inspectionNum: '240301000009',
  productName: '롤렉스 오토매틱 워치',
  refUserId: 'kimminji01',
  refOrderId: 'o1',
  refOrderDetailId: 'o1-1',
  refProductCode: 'p1',
  registeredAt: '2024-03-01 10:00:00',
  modifiedAt: '2024-03-02 11:00:00',
}

describe('record parsing (docs/faults.md F5–F8)', () => {
  it('normalises absent optional fields to null and keeps a clean record warning-free', () => {
    const result = readGuarantee(guarantee, 0)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject({
      idx: 7,
      refUserId: null,
      refEtcData3: null,
      modifiedAt: null,
    })
    expect(result.value.warnings).toEqual([])
    expect(result.value.raw).toEqual({})
  })

  it.each([
    ['only the spec spelling', { registeredAt: '2024-03-01 10:00:00' }, '2024-03-01 10:00:00', 0],
    [
      'only the doubled spelling',
      { registeredAtAt: '2024-03-01 10:00:00' },
      '2024-03-01 10:00:00',
      0,
    ],
    [
      'both, equal',
      { registeredAt: '2024-03-01 10:00:00', registeredAtAt: '2024-03-01 10:00:00' },
      '2024-03-01 10:00:00',
      0,
    ],
    [
      'both, different: spec spelling wins',
      { registeredAt: '2024-03-01 10:00:00', registeredAtAt: '2025-01-01 00:00:00' },
      '2024-03-01 10:00:00',
      1,
    ],
    ['ISO form', { registeredAt: '2024-03-01T10:00:00+09:00' }, '2024-03-01 10:00:00', 0],
    ['not a date', { registeredAt: 'yesterday' }, null, 1],
    ['impossible date', { registeredAt: '2024-02-30 10:00:00' }, null, 1],
  ])('timestamp: %s', (_name, stamps, expected, warnings) => {
    const { registeredAt: _r, modifiedAt: _m, ...rest } = inspection
    const result = readInspection({ ...rest, ...stamps, modifiedAtAt: null }, 0)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.registeredAt).toBe(expected)
    expect(result.value.modifiedAt).toBeNull()
    expect(result.value.warnings).toHaveLength(warnings)
    expect(result.value.raw).toEqual({})
  })

  it('rejects an item with neither timestamp spelling', () => {
    const { registeredAt: _r, ...rest } = inspection
    const result = readInspection(rest, 4)
    expect(result).toEqual({
      ok: false,
      reject: {
        position: 4,
        idx: 9,
        problems: ['data[4].registeredAt: missing'],
        field: 'registeredAt',
        reason: 'missing',
        raw: JSON.stringify(rest),
        rawTruncated: false,
      },
    })
  })

  it('keeps a refused item as sent, cut to REJECTED_RAW_MAX characters', () => {
    const huge = { ...guarantee, productName: undefined, note: 'x'.repeat(REJECTED_RAW_MAX * 2) }
    const result = readGuarantee(huge, 0)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.reject).toMatchObject({
      idx: guarantee.idx,
      field: 'productName',
      reason: 'missing',
    })
    expect(result.reject.raw).toHaveLength(REJECTED_RAW_MAX)
    expect(result.reject.raw.startsWith(JSON.stringify(huge).slice(0, 100))).toBe(true)
    expect(result.reject.rawTruncated).toBe(true)
    const notObject = readGuarantee([1, 2], 3)
    expect(notObject).toMatchObject({
      ok: false,
      reject: { idx: null, field: '', reason: 'not an object', raw: '[1,2]' },
    })
  })

  it('counts items missing a required field and still loads the others', () => {
    const { productName: _p, ...noName } = guarantee
    const { idx: _i, ...noIdx } = guarantee
    const page = readPage(
      { total: 5, page: 1, data: [guarantee, noName, noIdx, 'text', { ...guarantee, idx: 8 }] },
      1,
      readGuarantee,
    )
    expect(page.items.map((item) => item.idx)).toEqual([7, 8])
    expect(page.rejected).toBe(3)
    expect(page.received).toBe(5)
    expect(page.rejects.map((r) => [r.position, r.idx])).toEqual([
      [1, 7],
      [2, null],
      [3, null],
    ])
    expect(page.rejects[0]?.problems).toEqual(['data[1].productName: missing'])
  })

  it('keeps unknown fields, __proto__ and constructor included, without prototype pollution', () => {
    const text = `{"total":1,"page":1,"data":[${JSON.stringify(guarantee).slice(0, -1)},"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},${Array.from(
      { length: 50 },
      (_, k) => `"extra${k}":${k}`,
    ).join(',')}}]}`
    const page = readPage(JSON.parse(text), 1, readGuarantee)
    const item = page.items[0]
    expect(item).toBeDefined()
    expect(Object.keys(item!.raw)).toHaveLength(52)
    expect(Object.hasOwn(item!.raw, '__proto__')).toBe(true)
    expect(item!.raw.extra49).toBe(49)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(item!.raw)).toBe(Object.prototype)
    expect(JSON.parse(JSON.stringify(item!.raw)).__proto__).toEqual({ polluted: 'yes' })
  })

  it('treats absent "always" inspection fields as null with a warning, not a rejection', () => {
    const { refOrderId: _o, ...rest } = inspection
    const result = readInspection(rest, 0)
    expect(result.ok && result.value.refOrderId).toBeNull()
    expect(result.ok && result.value.warnings).toEqual([
      'refOrderId: absent though the spec says always',
    ])
  })

  it.each([
    ['null body', null],
    ['array body', []],
    ['data null', { total: 1, page: 1, data: null }],
    ['data object', { total: 1, page: 1, data: {} }],
    ['no total', { page: 1, data: [] }],
    ['negative total', { total: -1, page: 1, data: [] }],
  ])('a wrong envelope (%s) is bad_response', (_name, body) => {
    expect(() => readPage(body, 1, readGuarantee)).toThrow(AppError)
    try {
      readPage(body, 1, readGuarantee)
    } catch (error) {
      expect((error as AppError).code).toBe('bad_response')
    }
  })

  it('falls back to the asked page when the envelope has none', () => {
    expect(readPage({ total: 0, data: [] }, 3, readGuarantee).page).toBe(3)
  })

  it('reads exactly the declared fields of each kind, the rest into raw', () => {
    for (const [read, fields, item] of [
      [readGuarantee, GUARANTEE_FIELDS, guarantee],
      [readInspection, INSPECTION_FIELDS, inspection],
    ] as const) {
      const result = read({ ...item, somethingNew: 1 }, 0)
      expect(result.ok).toBe(true)
      if (!result.ok) continue
      expect(Object.keys(result.value).sort()).toEqual(
        [...fields.map((f) => f.api), 'raw', 'warnings'].sort(),
      )
      expect(result.value.raw).toEqual({ somethingNew: 1 })
    }
  })
})

describe('timestamps', () => {
  it('the fast check of `YYYY-MM-DD HH:MM:SS` accepts and refuses exactly what the full parse does', () => {
    const days = [
      '2024-02-29', // leap year
      '2023-02-29',
      '2000-02-29', // divisible by 400
      '1900-02-29', // by 100, not 400
      '2026-04-30',
      '2026-04-31',
      '2026-12-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '0099-01-01', // Date.UTC reads years below 100 as 19xx
      '0100-01-01',
    ]
    const times = ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60']
    for (const day of days) {
      for (const time of times) {
        // With a `T` the value goes through the regex and Date.UTC; with a space, the fast check.
        const full = normaliseTimestamp(`${day}T${time}`)
        expect([day, time, normaliseTimestamp(`${day} ${time}`)]).toEqual([day, time, full])
      }
    }
    expect(normaliseTimestamp('2024-02-29 23:59:59')).toBe('2024-02-29 23:59:59')
    expect(normaliseTimestamp('2024-02-2a 23:59:59')).toBeUndefined()
    expect(normaliseTimestamp(' 2024-02-29 23:59:59 ')).toBe('2024-02-29 23:59:59')
  })
})
