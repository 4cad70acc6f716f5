import { getChoseong } from 'es-hangul'

/**
 * Search text the way Korean staff type it: case-insensitive English,
 * whole or partial Hangul syllables, and initial consonants (초성), so that
 * `ㄹㅇㅂㅌ` finds 루이비통. Spaces are ignored on both sides ("루이 비통").
 */

const CHOSEONG_ONLY = /^[\u3131-\u314e\s]+$/u

/** Lower-cased, NFC, whitespace removed: the form both sides are compared in. */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/\s+/gu, '')
}

/** True when the query is made only of initial consonants (ㄱ…ㅎ). */
export function isChoseongQuery(query: string): boolean {
  return CHOSEONG_ONLY.test(query) && query.trim().length > 0
}

/** The initial consonants of each Hangul syllable of `text`, other characters dropped. */
export function choseongOf(text: string): string {
  return getChoseong(text.normalize('NFC').replace(/\s+/gu, ''))
}

/** A prepared matcher for one query; an empty query matches everything. */
export function createMatcher(query: string): (...fields: readonly string[]) => boolean {
  const folded = foldForSearch(query)
  if (folded.length === 0) return () => true
  if (isChoseongQuery(query)) {
    return (...fields) => fields.some((field) => choseongOf(field).includes(folded))
  }
  return (...fields) => fields.some((field) => foldForSearch(field).includes(folded))
}
