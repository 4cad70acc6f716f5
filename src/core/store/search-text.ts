import { isChoseongQuery } from '../text/hangul-search'

/**
 * What the store indexes for text search, and how a query becomes an FTS5
 * expression. Text is NFC and lower-cased; each Hangul syllable is a token
 * of its own (so a phrase of syllables is a substring search, spaces
 * ignored: `루이 비통` finds `루이비통`), other characters stay words that
 * `unicode61` splits on punctuation and matches by prefix. Fields are
 * separated by a token no query produces, so a phrase never spans two fields.
 */

const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ'
const SYLLABLE_FIRST = 0xac00
const SYLLABLE_LAST = 0xd7a3
const SYLLABLES_PER_INITIAL = 588
/** Between fields: a letter (so `unicode61` keeps it as a token) that no one types. */
const FIELD_BREAK = 'ǂ'

/** The FTS row of one record. */
export interface SearchDocument {
  /** Syllable and word tokens. */
  readonly t: string
  /** Initial consonants as overlapping pairs (`ㄹㅇ ㅇㅂ ㅂㅌ ㅌ`): short posting lists. */
  readonly c: string
}

/** Syllables split apart, words kept; returns the tokens text and the initials. */
function tokenize(text: string): { tokens: string; initials: string[] } {
  const folded = text.normalize('NFC').toLowerCase()
  let tokens = ''
  const initials: string[] = []
  for (let i = 0; i < folded.length; i += 1) {
    const code = folded.charCodeAt(i)
    if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
      tokens += ` ${folded[i]} `
      initials.push(INITIALS[Math.floor((code - SYLLABLE_FIRST) / SYLLABLES_PER_INITIAL)]!)
    } else {
      tokens += folded[i]
    }
  }
  return { tokens, initials }
}

/** Builds the indexed text of a record from its searchable fields. */
export function searchDocument(fields: readonly (string | null | undefined)[]): SearchDocument {
  const t: string[] = []
  const c: string[] = []
  for (const field of fields) {
    if (!field) continue
    const { tokens, initials } = tokenize(field)
    t.push(tokens)
    if (initials.length > 0) c.push(initialPairs(initials))
  }
  return { t: t.join(` ${FIELD_BREAK} `), c: c.join(` ${FIELD_BREAK} `) }
}

/**
 * Overlapping pairs of initials, then the last one alone. A single initial
 * is one of only 19 letters, so a phrase of single initials would walk huge
 * posting lists; pairs cut them about twentyfold, and the trailing single
 * lets a one-consonant prefix query still find the field's last syllable.
 */
function initialPairs(initials: readonly string[]): string {
  const pairs: string[] = []
  for (let i = 0; i + 1 < initials.length; i += 1) pairs.push(initials[i]! + initials[i + 1]!)
  pairs.push(initials.at(-1)!)
  return pairs.join(' ')
}

/** How one query is looked up. */
export type SearchPlan =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'match'; readonly match: string }

/**
 * The FTS5 expression of a query: always one quoted phrase (never FTS
 * syntax from the user), over initials for a 초성-only query, else over the
 * tokens, with a prefix match when it ends in a word (`birk` finds Birkin).
 */
export function planSearch(query: string): SearchPlan {
  const trimmed = query.normalize('NFC').trim()
  if (trimmed.length === 0) return { kind: 'all' }
  if (isChoseongQuery(trimmed)) {
    const initials = [...trimmed.replace(/\s+/gu, '')]
    if (initials.length === 1) return { kind: 'match', match: `c : ${quote(initials[0]!)} *` }
    const pairs = initials.slice(1).map((initial, i) => initials[i]! + initial)
    return { kind: 'match', match: `c : ${quote(pairs.join(' '))}` }
  }
  const { tokens } = tokenize(trimmed.replace(/\s+/gu, ' '))
  const words = tokens.match(/[\p{L}\p{N}]+/gu)
  if (!words || words.length === 0) return { kind: 'none' }
  const last = trimmed.at(-1) ?? ''
  const endsInSyllable = last >= '\uac00' && last <= '\ud7a3'
  return { kind: 'match', match: `t : ${quote(words.join(' '))}${endsInSyllable ? '' : ' *'}` }
}

/** An FTS5 string literal: the query is data, never syntax. */
function quote(text: string): string {
  return `"${text.replace(/"/gu, '""')}"`
}
