import { describe, expect, it } from 'vitest'
import {
  choseongOf,
  createRanker,
  foldText,
  isChoseongQuery,
} from '../../../src/core/text/hangul-search'
import { createMatcher } from '../../support/matcher'

describe('Korean and English matching', () => {
  it.each([
    ['샤넬', '샤넬', true],
    ['샤', '샤넬', true],
    ['ㅅㄴ', '샤넬', true],
    ['ㄹㅇㅂㅌ', '루이비통', true],
    ['루이 비통', '루이비통', true],
    ['chanel', 'CHANEL ', true],
    ['Louis V', 'LOUIS VUITTON', true],
    ['ㄱㅊ', '샤넬', false],
    ['구찌', '샤넬', false],
  ])('query %j against %j → %s', (query, text, expected) => {
    expect(createMatcher(query)(text)).toBe(expected)
  })

  it('matches any of several fields, and everything for an empty query', () => {
    expect(createMatcher('gucci')('구찌', 'GUCCI')).toBe(true)
    expect(createMatcher('  ')('anything')).toBe(true)
  })

  it('recognises initial-consonant queries and extracts them', () => {
    expect(isChoseongQuery('ㄹㅇㅂㅌ')).toBe(true)
    expect(isChoseongQuery('루이')).toBe(false)
    expect(choseongOf('루이 비통')).toBe('ㄹㅇㅂㅌ')
  })

  it('folds Latin accents and case but keeps Hangul whole (NFD input recomposed)', () => {
    expect(foldText('HERMÈS')).toBe('hermes')
    expect(foldText('Céline Ångström Œuvre')).toBe('celine angstrom œuvre')
    expect(foldText('샤넬'.normalize('NFD'))).toBe('샤넬')
    expect(createMatcher('hermes')('HERMÈS')).toBe(true)
    expect(createMatcher('HERMÈS')('hermes paris')).toBe(true)
  })

  it('ranks exact, prefix, 초성 and inside matches', () => {
    const rank = createRanker('샤넬')
    expect(rank('샤넬')).toBe(0)
    expect(rank('샤넬 뷰티')).toBe(1)
    expect(rank('가브리엘 샤넬')).toBe(3)
    expect(rank('구찌')).toBeNull()
    expect(createRanker('ㅅㄴ')('샤넬')).toBe(2)
    expect(createRanker('ㅅㄴ')('가브리엘 샤넬')).toBe(3)
    expect(createRanker('')('anything')).toBe(0)
  })
})
