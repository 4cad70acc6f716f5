import { choseongOf, foldForSearch, isChoseongQuery } from '../text/hangul-search'

/**
 * What the store indexes for text search, and how a query is turned into an
 * FTS5 expression. Fields are folded (NFC, lower case, no whitespace) and
 * joined by a newline, which a folded query can never contain, so a match
 * never spans two fields.
 */

const HANGUL = /[\uac00-\ud7a3\u3131-\u314e]/u
const NON_HANGUL_RUN = /[^\uac00-\ud7a3\u3131-\u314e]+/gu

/** The two FTS rows of one record: trigram text and the one-token-per-syllable text. */
export interface SearchDocument {
  readonly tri: { readonly t: string; readonly c: string }
  readonly uni: { readonly t: string; readonly c: string }
}

/** Builds the indexed text of a record from its searchable fields. */
export function searchDocument(fields: readonly (string | null | undefined)[]): SearchDocument {
  const present = fields.filter((field): field is string => !!field)
  const folded = present.map(foldForSearch)
  const cho = present.map(choseongOf).filter((text) => text.length > 0)
  return {
    tri: { t: folded.join('\n'), c: cho.join('\n') },
    uni: { t: syllableTokens(folded.join('\n')), c: syllableTokens(cho.join('\n')) },
  }
}

/** One token per Hangul syllable or consonant; every other run becomes one `x` token. */
function syllableTokens(text: string): string {
  return [...text.replace(NON_HANGUL_RUN, ' x ')].join(' ').replace(/\s+/gu, ' ').trim()
}

/** How one query is looked up. */
export type SearchPlan =
  | { readonly kind: 'all' }
  | { readonly kind: 'fts'; readonly table: 'tri' | 'uni'; readonly match: string }
  | { readonly kind: 'like'; readonly pattern: string }

/**
 * Chooses the index for a query: three characters or more use the trigram
 * index; one or two Hangul syllables or consonants use a phrase over the
 * per-syllable index (trigram alone finds nothing for them); one or two other
 * characters scan the trigram table's compact text with LIKE.
 */
export function planSearch(query: string): SearchPlan {
  const folded = foldForSearch(query)
  if (folded.length === 0) return { kind: 'all' }
  const column = isChoseongQuery(query) ? 'c' : 't'
  const chars = [...folded]
  if (chars.length >= 3) {
    return { kind: 'fts', table: 'tri', match: `${column} : ${quote(folded)}` }
  }
  if (chars.every((char) => HANGUL.test(char))) {
    return { kind: 'fts', table: 'uni', match: `${column} : ${quote(chars.join(' '))}` }
  }
  return { kind: 'like', pattern: `%${folded.replace(/[\\%_]/gu, (c) => `\\${c}`)}%` }
}

/** An FTS5 string literal: the whole query is one phrase, never FTS syntax. */
function quote(text: string): string {
  return `"${text.replace(/"/gu, '""')}"`
}
