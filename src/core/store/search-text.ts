import { foldText, isChoseongQuery } from '../text/hangul-search'

/**
 * What the store indexes for text search, and how a query becomes an FTS5
 * expression. Text is NFC and lower-cased; a run of Hangul syllables is
 * indexed as its overlapping pairs plus its last syllable (`루이비통` →
 * `루이 이비 비통 통`), so a phrase of pairs is a substring search of any
 * length, spaces ignored (`루이 비통` finds `루이비통`); other characters
 * stay words that `unicode61` splits on punctuation and matches by prefix.
 * Fields are separated by a token no query produces, so a phrase never spans
 * two fields. Latin accents are dropped (`HERMÈS` is found as `hermes`).
 * Every run of three or more digits also gets its suffixes as tokens (each
 * once), after the fields, so a prefix query finds digits anywhere inside a
 * number (`2999` finds `202411299990`).
 */

const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ'
const SYLLABLE_FIRST = 0xac00
const SYLLABLE_LAST = 0xd7a3
const SYLLABLES_PER_INITIAL = 588
/** Between fields: a letter (so `unicode61` keeps it as a token) that no one types. */
const FIELD_BREAK = 'ǂ'

/**
 * Starts every `search_key`. Change it whenever {@link searchDocument}'s
 * output changes: stored keys then no longer match, so a re-sync re-indexes
 * every record instead of trusting unchanged fields.
 */
export const SEARCH_FORMAT = '3.'

/** The FTS row of one record. */
export interface SearchDocument {
  /** Syllable and word tokens. */
  readonly t: string
  /** Initial consonants as overlapping pairs (`ㄹㅇ ㅇㅂ ㅂㅌ ㅌ`): short posting lists. */
  readonly c: string
}

type Segment =
  { readonly kind: 'run'; readonly syllables: string[] } | { readonly kind: 'word'; text: string }

/**
 * Splits folded text into runs of Hangul syllables (whitespace does not
 * break a run: `루이 비통` is one run) and stretches of everything else.
 */
function segment(text: string): { segments: Segment[]; initials: string[] } {
  const folded = foldText(text)
  const segments: Segment[] = []
  const initials: string[] = []
  let current: Segment | null = null
  for (const char of folded) {
    const code = char.charCodeAt(0)
    if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
      initials.push(INITIALS[Math.floor((code - SYLLABLE_FIRST) / SYLLABLES_PER_INITIAL)]!)
      if (current?.kind === 'run') current.syllables.push(char)
      else segments.push((current = { kind: 'run', syllables: [char] }))
    } else if (/\s/u.test(char)) {
      if (current?.kind === 'word') current.text += ' '
    } else if (current?.kind === 'word') {
      current.text += char
    } else {
      segments.push((current = { kind: 'word', text: char }))
    }
  }
  return { segments, initials }
}

/** Overlapping syllable pairs of a run: short posting lists even for common syllables. */
function pairsOf(syllables: readonly string[]): string[] {
  return syllables.slice(1).map((syllable, i) => syllables[i]! + syllable)
}

const WORD = /[\p{L}\p{N}]+/gu

/** Index tokens: each run as pairs plus its last syllable alone, words as they are. */
function documentTokens(segments: readonly Segment[]): string {
  return segments
    .map((seg) =>
      seg.kind === 'run' ? [...pairsOf(seg.syllables), seg.syllables.at(-1)!].join(' ') : seg.text,
    )
    .join(' ')
}

/** Builds the indexed text of a record from its searchable fields. */
export function searchDocument(fields: readonly (string | null | undefined)[]): SearchDocument {
  const t: string[] = []
  const c: string[] = []
  // Each suffix once: an order detail id repeats its order id's digits, and a
  // prefix query needs only one of them (every token costs index writes).
  const suffixes = new Set<string>()
  for (const field of fields) {
    if (!field) continue
    const { segments, initials } = segment(field)
    t.push(documentTokens(segments))
    if (initials.length > 0) c.push(initialPairs(initials))
    for (const digits of field.match(DIGIT_RUN) ?? []) {
      for (const suffix of digitSuffixes(digits)) suffixes.add(suffix)
    }
  }
  if (suffixes.size > 0) t.push([...suffixes].join(' '))
  return { t: t.join(` ${FIELD_BREAK} `), c: c.join(` ${FIELD_BREAK} `) }
}

const DIGIT_RUN = /\d{3,}/gu

/** `12345` → `2345 345 45`: with a prefix query, digits match anywhere inside the run. */
function digitSuffixes(digits: string): string[] {
  const out: string[] = []
  for (let i = 1; i <= digits.length - 2; i += 1) out.push(digits.slice(i))
  return out
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
 * The FTS5 expression of a query: quoted phrases only (never FTS syntax from
 * the user), over initials for a 초성-only query, else over the tokens, with
 * a prefix match when it ends in a word (`birk` finds Birkin). `aliases` are
 * other names of the same thing (a brand's Korean name for its English one):
 * a record matching any of them matches.
 */
export function planSearch(query: string, aliases: readonly string[] = []): SearchPlan {
  const plans = [query, ...aliases].map(planOne)
  const matches = plans.flatMap((plan) => (plan.kind === 'match' ? [plan.match] : []))
  if (plans[0]?.kind === 'all') return plans[0]
  if (matches.length === 0) return { kind: 'none' }
  if (matches.length === 1) return { kind: 'match', match: matches[0]! }
  return { kind: 'match', match: matches.map((match) => `(${match})`).join(' OR ') }
}

function planOne(query: string): SearchPlan {
  const trimmed = query.normalize('NFC').trim()
  if (trimmed.length === 0) return { kind: 'all' }
  if (isChoseongQuery(trimmed)) {
    const initials = [...trimmed.replace(/\s+/gu, '')]
    if (initials.length === 1) return { kind: 'match', match: `c : ${quote(initials[0]!)} *` }
    const pairs = initials.slice(1).map((initial, i) => initials[i]! + initial)
    return { kind: 'match', match: `c : ${quote(pairs.join(' '))}` }
  }
  // The query's tokens mirror the index: a run inside the query ends where
  // the record's run ends (pairs plus its last syllable); the query's last
  // run may continue in the record (pairs only, or one syllable as a prefix);
  // the last word is a prefix.
  const segments = segment(trimmed).segments.filter(
    (seg) => seg.kind === 'run' || seg.text.match(WORD) !== null,
  )
  if (segments.length === 0) return { kind: 'none' }
  const tokens: string[] = []
  let prefix = false
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1
    if (seg.kind === 'word') {
      tokens.push(...(seg.text.match(WORD) ?? []))
      prefix = last
    } else if (seg.syllables.length === 1) {
      tokens.push(seg.syllables[0]!)
      prefix = last
    } else {
      tokens.push(...pairsOf(seg.syllables))
      if (!last) tokens.push(seg.syllables.at(-1)!)
    }
  })
  return { kind: 'match', match: `t : ${quote(tokens.join(' '))}${prefix ? ' *' : ''}` }
}

/** An FTS5 string literal: the query is data, never syntax. */
function quote(text: string): string {
  return `"${text.replace(/"/gu, '""')}"`
}

/**
 * A one-character query as the few whole terms its prefix stands for, so
 * FTS5 walks their posting lists in rowid order and can stop after a page,
 * instead of merging every term with that prefix first (which is what a
 * prefix query costs, at any LIMIT). One initial consonant: the indexed
 * single initial and its 19 pairs. One syllable: the terms `terms(prefix)`
 * lists from the index's vocabulary (empty: nothing matches; null: too many
 * to spell out). Null for any other query, or too many terms: keep its
 * {@link planSearch} plan.
 */
export function oneCharacterPlan(
  query: string,
  terms: (syllable: string) => readonly string[] | null,
): SearchPlan | null {
  const chars = [...query.normalize('NFC').replace(/\s+/gu, '')]
  if (chars.length !== 1) return null
  const char = chars[0]!
  if (INITIALS.includes(char)) {
    const pairs = [...INITIALS].map((next) => quote(char + next))
    return { kind: 'match', match: `c : (${[quote(char), ...pairs].join(' OR ')})` }
  }
  const code = char.charCodeAt(0)
  if (code < SYLLABLE_FIRST || code > SYLLABLE_LAST) return null
  const found = terms(char)
  if (found === null) return null
  if (found.length === 0) return { kind: 'none' }
  return { kind: 'match', match: `t : (${found.map(quote).join(' OR ')})` }
}
