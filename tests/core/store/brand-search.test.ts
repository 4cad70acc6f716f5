import { describe, expect, it } from 'vitest'
import { searchBrands } from '../../../src/core/store/queries/brand-search'
import { transaction } from '../../../src/core/store/schema/database'
import { replaceBrands } from '../../../src/core/store/write/writes'
import { storePerTest } from './fixtures'

const store = storePerTest()

describe('brand search', () => {
  it('searches stored brands in the service order, with duplicate names counted', () => {
    transaction(store.db, () =>
      replaceBrands(
        store.db,
        [
          { idx: 9, name: '루이비통', englishName: 'Louis Vuitton', raw: {} },
          { idx: 3, name: '샤넬', englishName: 'CHANEL', raw: {} },
          { idx: 4, name: '샤넬', englishName: 'Chanel Beauty', raw: {} },
        ],
        1,
        'now',
      ),
    )
    expect(searchBrands(store.db, 'ㄹㅇ').items.map((b) => b.idx)).toEqual([9])
    expect(searchBrands(store.db, 'chanel').items.map((b) => [b.idx, b.sameNameCount])).toEqual([
      [3, 2],
      [4, 2],
    ])
    expect(searchBrands(store.db, '').total).toBe(3)
  })

  it('ranks brands: exact name, then prefix, then 초성, then inside a name; accents folded', () => {
    transaction(store.db, () =>
      replaceBrands(
        store.db,
        [
          { idx: 1, name: '가브리엘 샤넬', englishName: 'Gabrielle Chanel', raw: {} },
          { idx: 2, name: '샤넬 뷰티', englishName: 'Chanel Beauty', raw: {} },
          { idx: 3, name: '샤넬', englishName: 'CHANEL ', raw: {} },
          { idx: 4, name: '에르메스', englishName: 'HERMÈS', raw: {} },
          { idx: 5, name: '셀린느', englishName: 'CELINE', raw: {} },
          { idx: 6, name: '생로랑', englishName: 'Saint Laurent', raw: {} },
        ],
        1,
        'now',
      ),
    )
    const ranked = (q: string) => searchBrands(store.db, q).items.map((b) => b.idx)
    expect(ranked('chanel')).toEqual([3, 2, 1])
    expect(ranked('샤넬')).toEqual([3, 2, 1])
    expect(ranked('hermes')).toEqual([4])
    expect(ranked('HERMES')).toEqual([4])
    // 초성: names starting with it before names containing it.
    expect(ranked('ㅅ')).toEqual([2, 3, 5, 6, 1, 4])
  })
})
