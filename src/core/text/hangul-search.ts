import { getChoseong } from 'es-hangul'

/**
 * Search text the way Korean staff type it: case-insensitive English,
 * whole or partial Hangul syllables, and initial consonants (초성), so that
 * `ㄹㅇㅂㅌ` finds 루이비통. Spaces are ignored on both sides ("루이 비통").
 */

const CHOSEONG_ONLY = /^[\u3131-\u314e\s]+$/u

/** Latin letters that may carry accents (Latin-1 Supplement, Extended-A/B, Extended Additional). */
const ACCENTED = /[\u00c0-\u024f\u1e00-\u1eff]/gu

/**
 * Lower-cased NFC text with the accents of Latin letters dropped (`HERMÈS`
 * → `hermes`). Only Latin letters are decomposed: Hangul stays whole.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(ACCENTED, (char) => char.normalize('NFD').replace(/\p{M}+/gu, ''))
}

/** {@link foldText} with whitespace removed: the form both sides are compared in. */
export function foldForSearch(text: string): string {
  return foldText(text).replace(/\s+/gu, '')
}

/** True when the query is made only of initial consonants (ㄱ…ㅎ). */
export function isChoseongQuery(query: string): boolean {
  return CHOSEONG_ONLY.test(query) && query.trim().length > 0
}

/**
 * The initial consonants of each Hangul syllable of `text`, other characters dropped.
 * @internal
 */
export function choseongOf(text: string): string {
  return getChoseong(text.normalize('NFC').replace(/\s+/gu, ''))
}

/** How well a field matches a query; lower is better, `null` is no match. */
export type MatchRank = 0 | 1 | 2 | 3

/**
 * A prepared ranker for one query: 0 when a field equals it, 1 when a field
 * starts with it, 2 for an initial-consonant (초성) match, 3 for a match
 * inside a field; the best rank over the fields wins. Empty query: all 0.
 */
export function createRanker(query: string): (...fields: readonly string[]) => MatchRank | null {
  const folded = foldForSearch(query)
  if (folded.length === 0) return () => 0
  const choseong = isChoseongQuery(query)
  return (...fields) => {
    let best: MatchRank | null = null
    for (const field of fields) {
      const rank = choseong ? choseongRank(folded, field) : textRank(folded, field)
      if (rank !== null && (best === null || rank < best)) best = rank
    }
    return best
  }
}

function textRank(folded: string, field: string): MatchRank | null {
  const text = foldForSearch(field)
  if (text === folded) return 0
  if (text.startsWith(folded)) return 1
  return text.includes(folded) ? 3 : null
}

function choseongRank(folded: string, field: string): MatchRank | null {
  const initials = choseongOf(field)
  if (initials.startsWith(folded)) return 2
  return initials.includes(folded) ? 3 : null
}
