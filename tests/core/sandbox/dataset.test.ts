import { describe, expect, it } from 'vitest'
import { Dataset, type SandboxListRequest } from '../../../src/sandbox/dataset'
import { sandboxBrands } from '../../../src/sandbox/data/brands'
import { GUARANTEE_STATE_LABELS } from '../../../src/shared/domain'
import { SANDBOX_ANCHOR } from '../../support/anchor'

const STATIC = 'http://127.0.0.1:9'

/** Every record index matching `query`, by brute force over the whole dataset. */
function bruteForce(
  data: Dataset,
  kind: 'guarantee' | 'inspection',
  query: Omit<SandboxListRequest, 'page' | 'pageSize' | 'sort'>,
): number[] {
  const out: number[] = []
  for (let i = 0; i < data.size; i += 1) {
    const record = kind === 'guarantee' ? data.guarantee(i) : data.inspection(i)
    const registered = (
      'registeredAt' in record && record.registeredAt
        ? record.registeredAt
        : (record as { registeredAtAt?: string }).registeredAtAt
    )!.slice(0, 10)
    if (query.refUserId !== undefined && record.refUserId !== query.refUserId) continue
    if (query.from !== undefined && registered < query.from) continue
    if (query.to !== undefined && registered > query.to) continue
    if (query.status !== undefined) {
      const label =
        kind === 'guarantee'
          ? (record as { status: string }).status
          : (record as { inspectionStatus?: string }).inspectionStatus
      const wanted =
        kind === 'guarantee'
          ? GUARANTEE_STATE_LABELS[query.status as keyof typeof GUARANTEE_STATE_LABELS]
          : query.status
      if (label !== wanted) continue
    }
    out.push(i)
  }
  return out
}

describe('sandbox dataset', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = new Dataset({ seed: 1, size: 1000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    const b = new Dataset({ seed: 1, size: 1000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    const c = new Dataset({ seed: 2, size: 1000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    expect(a.guarantee(17)).toEqual(b.guarantee(17))
    expect(a.inspection(999)).toEqual(b.inspection(999))
    expect(a.guarantee(17)).not.toEqual(c.guarantee(17))
  })

  it('keeps registration times strictly increasing with idx, also at a million records', () => {
    for (const size of [1, 10, 3000, 1_000_000]) {
      const data = new Dataset({ seed: 5, size, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
      let previous = ''
      for (const i of new Set([0, 1, 2, Math.floor(size / 2), size - 2, size - 1])) {
        if (i < 0 || i >= size) continue
        const at = data.guarantee(i).registeredAt
        expect(at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
        expect(at > previous).toBe(true)
        previous = at
      }
    }
  })

  it('answers every filter combination exactly as a brute-force scan does', () => {
    const data = new Dataset({ seed: 3, size: 700, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    const member = data.guarantee(5).refUserId ?? data.inspection(5).refUserId
    const days = [
      data.guarantee(100).registeredAt.slice(0, 10),
      data.guarantee(400).registeredAt.slice(0, 10),
    ]
    const cases: Omit<SandboxListRequest, 'page' | 'pageSize' | 'sort'>[] = [
      {},
      { from: days[0] },
      { to: days[1] },
      { from: days[0], to: days[1] },
      { from: days[0], to: days[0] },
      { refUserId: member },
      { refUserId: 'nobody00' },
      { refUserId: member, from: days[0] },
    ]
    for (const base of cases) {
      for (const status of [undefined, 'ready', 'complete', 'cancel']) {
        const query = { ...base, ...(status ? { status } : {}) }
        const expected = bruteForce(data, 'guarantee', query)
        const latest = data.queryGuarantees({ ...query, page: 1, pageSize: 1000, sort: 'latest' })
        expect(latest.total, JSON.stringify(query)).toBe(expected.length)
        expect(latest.indices).toEqual([...expected].reverse())
        const second = data.queryGuarantees({ ...query, page: 2, pageSize: 7, sort: 'oldest' })
        expect(second.indices).toEqual(expected.slice(7, 14))
      }
      for (const status of [undefined, '배송완료', '감정승인(배송중)', '감정접수', '없는상태']) {
        const query = { ...base, ...(status ? { status } : {}) }
        const expected = bruteForce(data, 'inspection', query)
        const oldest = data.queryInspections({ ...query, page: 1, pageSize: 1000, sort: 'oldest' })
        expect(oldest.total, JSON.stringify(query)).toBe(expected.length)
        expect(oldest.indices).toEqual(expected)
      }
    }
  })

  it('ends its data in the hours before its anchor, and keeps the records relative to it', () => {
    const early = new Dataset({ seed: 1, size: 3000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    const later = Date.parse('2027-03-10T14:30:00+09:00')
    const moved = new Dataset({ seed: 1, size: 3000, staticUrl: STATIC, anchor: later })
    // The newest registration is in the hours up to six before the anchor, in the service's zone.
    const newestOf = (data: Dataset) => data.guarantee(2999).registeredAt
    expect(newestOf(early) <= '2026-11-20 18:00:00').toBe(true)
    expect(newestOf(early) > '2026-11-20 06:00:00').toBe(true)
    expect(newestOf(moved) <= '2027-03-10 08:30:00').toBe(true)
    expect(newestOf(moved) > '2027-03-09 20:30:00').toBe(true)
    const shift = later - SANDBOX_ANCHOR
    const seconds = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`)
    for (const i of [0, 1234, 2999]) {
      const a = early.inspection(i)
      const b = moved.inspection(i)
      expect(b.productName).toBe(a.productName)
      const at = (r: typeof a) => r.registeredAt ?? r.registeredAtAt ?? ''
      expect(seconds(at(b)) - seconds(at(a))).toBe(shift)
    }
    // Nothing is later than the anchor, and a week before it holds records.
    const all = Array.from({ length: moved.size }, (_, i) => moved.guarantee(i))
    const newest =
      all
        .map((g) => g.modifiedAt ?? g.registeredAt)
        .sort()
        .at(-1) ?? ''
    expect(newest <= '2027-03-10 14:30:00').toBe(true)
    expect(all.filter((g) => g.registeredAt >= '2027-03-03').length).toBeGreaterThan(5)
  })

  it('shows every quirk the spec records', () => {
    const data = new Dataset({ seed: 1, size: 3000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    const guarantees = Array.from({ length: data.size }, (_, i) => data.guarantee(i))
    const inspections = Array.from({ length: data.size }, (_, i) => data.inspection(i))
    for (const field of [
      'refUserId',
      'refOrderId',
      'refOrderDetailId',
      'refProductCode',
      'refCategoryCode',
      'refBrandCode',
      'refEtcData1',
      'refEtcData2',
      'refEtcData3',
    ]) {
      const present = guarantees.filter((g) => field in g).length
      expect(present, field).toBeGreaterThan(0)
      expect(present, field).toBeLessThan(guarantees.length)
    }
    expect(guarantees.some((g) => g.modifiedAt === null)).toBe(true)
    expect(guarantees.some((g) => g.modifiedAt !== null)).toBe(true)
    expect(new Set(guarantees.map((g) => g.status))).toEqual(
      new Set(['발급완료', '발급대기', '발급취소']),
    )
    expect(guarantees.some((g) => g.nftCardImg.endsWith('.gif'))).toBe(true)
    expect(guarantees.every((g) => g.nftCardImg.startsWith(`${STATIC}/cards/`))).toBe(true)

    const odd = inspections.filter((i) => 'registeredAtAt' in i)
    expect(odd.length).toBeGreaterThan(0)
    expect(odd.length).toBeLessThan(inspections.length / 20)
    expect(odd.every((i) => 'modifiedAtAt' in i && !('registeredAt' in i))).toBe(true)
    expect(inspections.some((i) => !('inspectionStatus' in i))).toBe(true)
    const withResult = inspections.filter((i) => 'inspectionResult' in i)
    expect(withResult.length).toBeGreaterThan(0)
    expect(
      withResult.every((i) => i.inspectionStatus === '배송완료' && i.inspectionResult === '정품'),
    ).toBe(true)
    expect(
      inspections.some((i) => i.inspectionStatus === '배송완료' && !('inspectionResult' in i)),
    ).toBe(true)
    expect(inspections.every((i) => /^\d{12}$/.test(i.inspectionNum))).toBe(true)
    expect(inspections.every((i) => /\p{Script=Hangul}/u.test(i.productName))).toBe(true)
  })

  it('finds a member by ID and nobody by a near miss', () => {
    const data = new Dataset({ seed: 9, size: 100_000, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    for (const m of [0, 1, 799, 800, data.members - 1]) {
      expect(data.memberSlot(data.memberId(m))).toBe(m)
    }
    expect(data.memberSlot(`${data.memberId(3)}x`)).toBe(-1)
    expect(data.memberSlot('kim')).toBe(-1)
  })

  it('gives deterministic, distinct guarantee tokens', () => {
    const data = new Dataset({ seed: 1, size: 10, staticUrl: STATIC, anchor: SANDBOX_ANCHOR })
    expect(data.tokenFor(3)).toBe(
      new Dataset({ seed: 1, size: 10, staticUrl: STATIC, anchor: SANDBOX_ANCHOR }).tokenFor(3),
    )
    expect(data.tokenFor(3)).not.toBe(data.tokenFor(4))
  })
})

describe('sandbox brand list', () => {
  it('has at least 200 brands, shared Korean names, trailing spaces, ordered by Korean name', () => {
    const brands = sandboxBrands()
    expect(brands.length).toBeGreaterThanOrEqual(200)
    expect(new Set(brands.map((b) => b.idx)).size).toBe(brands.length)
    const names = brands.map((b) => b.name)
    expect(new Set(names).size).toBeLessThan(names.length)
    expect(brands.some((b) => b.englishName !== b.englishName.trimEnd())).toBe(true)
    const collator = new Intl.Collator('ko')
    expect([...names].sort(collator.compare)).toEqual(names)
    expect(brands.map((b) => b.idx)).not.toEqual(
      [...brands.map((b) => b.idx)].sort((a, b) => a - b),
    )
  })
})
