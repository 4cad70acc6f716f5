import { foldText, isChoseongQuery } from '../../text/hangul-search'

/**
 * What the store indexes for text search, and how a query becomes an FTS5
 * expression. Text is NFC and lower-cased; a run of Hangul syllables is
 * indexed as its overlapping pairs plus its last syllable (`루이비통` →
 * `루이 이비 비통 통`), so a phrase of pairs is a substring search of any
 * length, spaces ignored (`루이 비통` finds `루이비통`); other characters
 * stay words, split on anything but a letter or a digit, matched by prefix.
 * The text is split here, on both sides: the FTS tables tokenize with
 * `ascii` (migration 18), which splits only on ASCII characters, so every
 * other character that is neither a letter nor a digit is written as a
 * space ({@link wordUnit}), as a query's words leave it out.
 * No phrase spans two fields: words and syllables of two fields are apart by
 * a token no query produces, and the other kinds need none (see
 * {@link ftsText}). Latin accents are dropped (`HERMÈS` is found as `hermes`).
 * Initial consonants (`c`) are indexed as overlapping triples, and
 * every run of three or more digits (`d`) as overlapping marked trigrams, so
 * a phrase of them finds 초성 and digits anywhere inside a field or a number
 * (`2999` finds `202411299990`).
 */

const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ'
const SYLLABLE_FIRST = 0xac00
const SYLLABLE_LAST = 0xd7a3
const SYLLABLES_PER_INITIAL = 588
/** Between fields: a letter (so the tokenizer keeps it as a token) that no one types. */
const FIELD_BREAK = 'ǂ'
/**
 * Starts every digit trigram: a letter no one types, so a trigram is never
 * the whole number `270` of a product name (both live in one FTS column).
 */
const DIGIT_MARK = 'ǀ'

/**
 * The `search_key` of a record indexed with today's {@link searchDocument}.
 * Change it whenever a query could find a record's row differently: stored
 * keys then no longer match, so a re-sync re-indexes every record instead
 * of trusting unchanged fields. A row that only holds more tokens than
 * today's (field breaks where no phrase could run on, an order id's words
 * beside its detail id's) is found by every query exactly as today's, so
 * rows written before keep the key and are not indexed again.
 */
export const SEARCH_FORMAT = '6.'

/** The FTS row of one record. */
export interface SearchDocument {
  /** Syllable and word tokens. */
  readonly t: string
  /**
   * Initial consonants of each field as overlapping triples, then its last
   * pair and last initial (`ㄹㅇㅂ ㅇㅂㅌ ㅂㅌ ㅌ`): short posting lists.
   */
  readonly c: string
  /**
   * Digits: each run of three or more digits not inside another run of the
   * record, as overlapping marked trigrams (`20241129` → `ǀ202 ǀ024 ǀ241 ǀ411 ǀ112 ǀ129`).
   */
  readonly d: string
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

/** What one field adds to a record's document. */
interface FieldParts {
  /**
   * Its index tokens: the {@link segment}s of its folded text apart by a
   * space, each run as its pairs plus its last syllable alone, words as
   * they are (`루이비통 bag` → `루이 이비 비통 통 bag`).
   */
  readonly tokens: string
  /** Its initials as grams ({@link initialGrams}), '' when it has no syllable. */
  readonly initials: string
  /**
   * An ASCII field's words as the index splits them, one space apart
   * (`ord-1 x` → `ord 1 x`); null for any other field.
   */
  readonly words: string | null
}

/** Whitespace at the start of an ASCII field, and any other (`/\s/` within ASCII). */
const ASCII_LEADING_SPACE = /^[\t\n\v\f\r ]+/u
const ASCII_SPACE = /[\t\n\v\f\r]/gu
/** Between two words of an ASCII field as the index splits them: anything but letters and digits. */
const ASCII_NON_WORD = /[^a-z0-9]+/gu

/**
 * A field's parts. An ASCII one (ids, codes) in one pass over its
 * characters, without {@link segment}: no syllables, so after its leading
 * whitespace it is one word, lower-cased, each whitespace character a
 * space (what {@link segment} makes of it, character for character), and
 * its runs of three or more digits ({@link addRun}). Any
 * other field through {@link textParts}.
 */
function fieldParts(field: string): FieldParts {
  let upper = false
  let space = false
  // Only letters and digits: the tokens are the words as they are.
  let plain = true
  let run = -1
  for (let i = 0; i < field.length; i += 1) {
    const code = field.charCodeAt(i)
    if (code >= 0x80) return textParts(field)
    if (code >= 48 && code <= 57) {
      if (run < 0) run = i
      continue
    }
    if (run >= 0 && i - run >= 3) addRun(field.slice(run, i))
    run = -1
    if (code >= 65 && code <= 90) upper = true
    else if (code < 97 || code > 122) {
      plain = false
      if (code === 32 || (code >= 9 && code <= 13)) space = true
    }
  }
  if (run >= 0 && field.length - run >= 3) addRun(field.slice(run))
  let tokens = upper ? field.toLowerCase() : field
  if (space) tokens = tokens.replace(ASCII_LEADING_SPACE, '').replace(ASCII_SPACE, ' ')
  const words = plain ? tokens : tokens.replace(ASCII_NON_WORD, ' ').trim()
  return { tokens, initials: '', words }
}

const SPACE = /\s/u

/** True for the UTF-16 unit at `i` of `text` (its code `code`) that `/\s/` matches (a surrogate never does). */
function isSpace(code: number, text: string, i: number): boolean {
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13)
  return SPACE.test(text[i]!)
}

/**
 * Text built one UTF-16 unit at a time, in a buffer reused from record to
 * record: a string made at the end ({@link text}) instead of a rope of
 * one- and three-unit pieces, one per syllable, that V8 flattens again
 * when the row is sent to the owner.
 */
class Units {
  #buffer = new Uint16Array(256)
  /**
   * The same memory as bytes: Node decodes UTF-16 from it in one call, lone
   * surrogates kept (a `TextDecoder` would replace them). Little-endian, as
   * the units are on every platform the app is built for.
   */
  #bytes = Buffer.from(this.#buffer.buffer)
  length = 0

  clear(): void {
    this.length = 0
  }

  push(unit: number): void {
    if (this.length === this.#buffer.length) this.#grow()
    this.#buffer[this.length] = unit
    this.length += 1
  }

  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.#buffer.length) this.#grow()
    const buffer = this.#buffer
    const at = this.length
    buffer[at] = a
    buffer[at + 1] = b
    buffer[at + 2] = c
    this.length = at + 3
  }

  at(i: number): number {
    return this.#buffer[i]!
  }

  /** The units so far as a string. */
  text(): string {
    return this.#bytes.toString('utf16le', 0, this.length * 2)
  }

  #grow(): void {
    const bigger = new Uint16Array(this.#buffer.length * 2)
    bigger.set(this.#buffer)
    this.#buffer = bigger
    this.#bytes = Buffer.from(bigger.buffer)
  }
}

/** A non-ASCII field's tokens, then its initials' grams ({@link textParts}); one field at a time. */
const TOKEN_UNITS = new Units()
const INITIAL_UNITS = new Units()
const GRAM_UNITS = new Units()
/** A record's digit trigrams ({@link digitGrams}). */
const DIGIT_UNITS = new Units()
/** A query's digit trigrams ({@link digitTokens}). */
const QUERY_UNITS = new Units()
const INITIAL_CODES = [...INITIALS].map((initial) => initial.charCodeAt(0))

/** A letter or a digit, as a query's words ({@link WORD}) take them. */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u

/**
 * The UTF-16 unit at `i` of a word of `text` (its code `code`, not a
 * syllable, not a space) as the index holds it: itself when it is ASCII
 * (the `ascii` tokenizer splits those) or part of a letter or a digit, else
 * a space, so the word splits there as a query's words do. A surrogate
 * goes with its pair; a lone one splits.
 */
function wordUnit(code: number, text: string, i: number): number {
  if (code < 0x80) return code
  let char: string
  if (code >= 0xd800 && code <= 0xdbff) char = text.slice(i, i + 2)
  else if (code >= 0xdc00 && code <= 0xdfff) char = text.slice(i - 1, i + 1)
  else char = text[i]!
  return LETTER_OR_DIGIT.test(char) ? code : SPACE_UNIT
}

/**
 * A field's parts in one pass over its folded text: what {@link segment}
 * splits it into, written out as tokens as it goes (a run's pair at each
 * syllable after its first, its last syllable where it ends).
 */
function textParts(field: string): FieldParts {
  const folded = foldText(field)
  const tokens = TOKEN_UNITS
  const initials = INITIAL_UNITS
  tokens.clear()
  initials.clear()
  // 0: nothing yet (leading whitespace), 1: in a run of syllables, 2: in a word.
  let state = 0
  let last = 0
  for (let i = 0; i < folded.length; i += 1) {
    const code = folded.charCodeAt(i)
    if (code >= SYLLABLE_FIRST && code <= SYLLABLE_LAST) {
      initials.push(INITIAL_CODES[Math.floor((code - SYLLABLE_FIRST) / SYLLABLES_PER_INITIAL)]!)
      if (state === 1) tokens.push3(last, code, SPACE_UNIT)
      else if (state === 2) tokens.push(SPACE_UNIT)
      state = 1
      last = code
    } else if (isSpace(code, folded, i)) {
      if (state === 2) tokens.push(SPACE_UNIT)
    } else if (state === 2) {
      tokens.push(wordUnit(code, folded, i))
    } else {
      if (state === 1) tokens.push3(last, SPACE_UNIT, wordUnit(code, folded, i))
      else tokens.push(wordUnit(code, folded, i))
      state = 2
    }
  }
  if (state === 1) tokens.push(last)
  addRunsOf(field)
  return {
    tokens: tokens.text(),
    initials: initials.length === 0 ? '' : initialGrams(initials),
    words: null,
  }
}

/**
 * Builds the indexed text of a record from its searchable fields. An ASCII
 * field whose words are, in order, a stretch of another ASCII field's words
 * (an order id inside its order detail id `20241129123456-2`) adds no words
 * of its own: every phrase that matches inside it matches inside the other.
 * Its initials and digits count as any field's.
 */
export function searchDocument(fields: readonly (string | null | undefined)[]): SearchDocument {
  const words = FIELD_TOKENS
  const ascii = FIELD_WORDS
  let count = 0
  runCount = 0
  let c = ''
  for (const field of fields) {
    if (!field) continue
    // Its digit runs go to DIGIT_RUNS as it reads them.
    const parts = fieldParts(field)
    words[count] = parts.tokens
    ascii[count] = parts.words
    count += 1
    // Triples never run on into the next field's: its last pair and initial end each field's grams.
    if (parts.initials !== '') c = c === '' ? parts.initials : `${c} ${parts.initials}`
  }
  let t = ''
  let first = true
  for (let i = 0; i < count; i += 1) {
    if (insideAnother(ascii, count, i)) continue
    t = first ? words[i]! : `${t}${SEPARATOR}${words[i]!}`
    first = false
  }
  return { t, c, d: digitGrams(DIGIT_RUNS, runCount) }
}

/**
 * {@link searchDocument}'s fields' tokens and words, and its record's
 * distinct digit runs (the first {@link runCount}): arrays reused from
 * record to record, written by index (a call runs to its end before the
 * next; emptying an array by its length would drop its storage).
 */
const FIELD_TOKENS: string[] = []
const FIELD_WORDS: (string | null)[] = []
const DIGIT_RUNS: string[] = []
let runCount = 0

/** Adds a digit run to the record's, unless it has it: each distinct run once, in the order found. */
function addRun(run: string): void {
  for (let i = 0; i < runCount; i += 1) if (DIGIT_RUNS[i] === run) return
  DIGIT_RUNS[runCount] = run
  runCount += 1
}

/** Adds every run of three or more ASCII digits (`/\d{3,}/u`) of `field`. */
function addRunsOf(field: string): void {
  let run = -1
  for (let i = 0; i <= field.length; i += 1) {
    const code = i < field.length ? field.charCodeAt(i) : -1
    if (code >= 48 && code <= 57) {
      if (run < 0) run = i
      continue
    }
    if (run >= 0 && i - run >= 3) addRun(field.slice(run, i))
    run = -1
  }
}

/**
 * True when ASCII field `i`'s words ({@link FieldParts}) are a stretch of
 * another's; of equal ones the first stays.
 */
function insideAnother(ascii: readonly (string | null)[], count: number, i: number): boolean {
  const own = ascii[i]!
  if (own === null || own === '') return false
  for (let j = 0; j < count; j += 1) {
    const other = ascii[j]!
    if (j === i || other === null || other.length < own.length) continue
    if (other.length === own.length ? j < i && other === own : hasWords(other, own)) return true
  }
  return false
}

/** True when `words` holds `part` from a word's start to a word's end. */
function hasWords(words: string, part: string): boolean {
  for (let at = words.indexOf(part); at >= 0; at = words.indexOf(part, at + 1)) {
    const end = at + part.length
    if ((at === 0 || words[at - 1] === ' ') && (end === words.length || words[end] === ' '))
      return true
  }
  return false
}

/** Between two fields' (or digit runs') tokens. */
const SEPARATOR = ` ${FIELD_BREAK} `

/** A run of three or more digits as its marked trigrams (`ǀ202 ǀ024 …`), one string. */
function digitTokens(digits: string): string {
  const out = QUERY_UNITS
  out.clear()
  writeDigitTokens(out, digits)
  return out.text()
}

/** Writes a run's marked trigrams (`ǀ202 ǀ024 …`) to `out`, one space apart. */
function writeDigitTokens(out: Units, digits: string): void {
  for (let i = 0; i + 3 <= digits.length; i += 1) {
    if (i > 0) out.push(SPACE_UNIT)
    out.push(DIGIT_MARK_UNIT)
    out.push3(digits.charCodeAt(i), digits.charCodeAt(i + 1), digits.charCodeAt(i + 2))
  }
}

const SPACE_UNIT = 0x20
const DIGIT_MARK_UNIT = DIGIT_MARK.charCodeAt(0)
const FIELD_BREAK_UNIT = FIELD_BREAK.charCodeAt(0)

/**
 * The one FTS column of a record: its words and syllables, then its digit
 * trigrams, then its initials. One column: FTS5 marks every posting in any
 * later column with its column number, which one column does not pay for.
 * The three kinds never share a term (initials are jamo, trigrams are
 * marked), so no query of one kind matches another's, and a phrase runs
 * from one kind into the next only through a marked trigram, which no query
 * of words has: the field break stands only between words and initials,
 * when there is no trigram between them.
 */
export function ftsText(doc: SearchDocument): string {
  let text = doc.t
  if (doc.d !== '') text = text === '' ? doc.d : `${text} ${doc.d}`
  if (doc.c !== '') text = text === '' ? doc.c : `${text}${doc.d === '' ? SEPARATOR : ' '}${doc.c}`
  return text
}

/** Overlapping three-character grams of `text` (at least three characters long). */
function trigramsOf(text: string): string[] {
  const out: string[] = []
  for (let i = 0; i + 3 <= text.length; i += 1) out.push(text.slice(i, i + 3))
  return out
}

/**
 * The digits (`d`): each distinct run's marked trigrams. A run inside a
 * longer run of the same record is left out: an order detail id
 * (`20241129123456-2`) repeats its order id, and the longer run already
 * holds every trigram of the shorter one in the same order. Two runs are
 * apart by the field break only where the next one starts with the two
 * digits the last one ends with: a phrase of trigrams steps on by one
 * digit, so elsewhere it cannot run on from one number into the next.
 */
function digitGrams(runs: readonly string[], count: number): string {
  const out = DIGIT_UNITS
  out.clear()
  let previous = ''
  for (let r = 0; r < count; r += 1) {
    const run = runs[r]!
    let inside = false
    for (let o = 0; o < count; o += 1) {
      const other = runs[o]!
      if (other.length > run.length && other.includes(run)) {
        inside = true
        break
      }
    }
    if (inside) continue
    if (previous !== '') {
      if (runsOn(previous, run)) out.push3(SPACE_UNIT, FIELD_BREAK_UNIT, SPACE_UNIT)
      else out.push(SPACE_UNIT)
    }
    writeDigitTokens(out, run)
    previous = run
  }
  return out.text()
}

/** True when run `next` starts with the two digits run `last` ends with. */
function runsOn(last: string, next: string): boolean {
  return (
    last.charCodeAt(last.length - 2) === next.charCodeAt(0) &&
    last.charCodeAt(last.length - 1) === next.charCodeAt(1)
  )
}

/**
 * Overlapping triples of initials, then the last pair and the last initial
 * alone. A single initial is one of only 19 letters and a pair one of 361,
 * so a phrase of them would walk long posting lists; triples (6,859) cut
 * them about twentyfold again. The trailing pair and single let a prefix
 * query of one or two initials still find the field's last syllables.
 */
function initialGrams(initials: Units): string {
  const grams = GRAM_UNITS
  grams.clear()
  const n = initials.length
  for (let i = 0; i + 3 <= n; i += 1) {
    grams.push3(initials.at(i), initials.at(i + 1), initials.at(i + 2))
    grams.push(SPACE_UNIT)
  }
  if (n >= 2) grams.push3(initials.at(n - 2), initials.at(n - 1), SPACE_UNIT)
  grams.push(initials.at(n - 1))
  return grams.text()
}

/** How one query is looked up. */
export type SearchPlan =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'match'; readonly match: string }

/**
 * The FTS5 expression of a query: quoted phrases only (never FTS syntax from
 * the user), over initials for a 초성-only query, over digit trigrams for a
 * digits-only one, else over the tokens, with a prefix match when it ends
 * in a word (`birk` finds Birkin). `aliases` are other names of the same
 * thing (a brand's Korean name for its English one): a record matching any
 * of them matches.
 */
export function planSearch(query: string, aliases: readonly string[] = []): SearchPlan {
  const plans = [query, ...aliases].map(planOne)
  const matches = plans.flatMap((plan) => (plan.kind === 'match' ? [plan.match] : []))
  if (plans[0]?.kind === 'all') return plans[0]
  if (matches.length === 0) return { kind: 'none' }
  if (matches.length === 1) return { kind: 'match', match: matches[0]! }
  return { kind: 'match', match: matches.map((match) => `(${match})`).join(' OR ') }
}

/** A query of digits only (spaces ignored: `2024 1129` is the number `20241129`). */
const DIGITS_ONLY = /^[0-9\s]+$/u

/** The query without its whitespace, NFC. */
function compact(query: string): string {
  return query.normalize('NFC').replace(/\s+/gu, '')
}

function planOne(query: string): SearchPlan {
  const trimmed = query.normalize('NFC').trim()
  if (trimmed.length === 0) return { kind: 'all' }
  if (isChoseongQuery(trimmed))
    return { kind: 'match', match: initialsMatch([...compact(trimmed)]) }
  if (DIGITS_ONLY.test(trimmed)) return { kind: 'match', match: digitsMatch(compact(trimmed)) }
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
  return { kind: 'match', match: `${quote(tokens.join(' '))}${prefix ? ' *' : ''}` }
}

/**
 * 초성: three or more initials are a phrase of their triples (inside one
 * field); one or two are a prefix of the indexed grams (a field's triples,
 * and its last pair and initial).
 */
function initialsMatch(initials: readonly string[]): string {
  if (initials.length < 3) return `${quote(initials.join(''))} *`
  return quote(trigramsOf(initials.join('')).join(' '))
}

/**
 * Digits anywhere inside a number: three or more are the phrase of their
 * trigrams (exact, inside one run of the record). One or two are every
 * trigram that holds them, spelled out (at most 271 of the 1,000), or a
 * whole number that is exactly them (`30` of `Birkin 30`).
 */
function digitsMatch(digits: string): string {
  if (digits.length >= 3) return quote(digitTokens(digits))
  const grams = DIGIT_TRIGRAMS.filter((gram) => gram.includes(digits))
  return `${quote(digits)} OR (${grams.map((gram) => quote(DIGIT_MARK + gram)).join(' OR ')})`
}

/** `000` to `999`. */
const DIGIT_TRIGRAMS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))

/** An FTS5 string literal: the query is data, never syntax. */
function quote(text: string): string {
  return `"${text.replace(/"/gu, '""')}"`
}

/**
 * True for a query that matches a large share of any list: one character,
 * two initial consonants, or one or two digits. Its matches are counted
 * only up to a cap (the page then says its total is a lower bound).
 */
export function isShortQuery(query: string): boolean {
  const chars = [...compact(query)]
  if (chars.length === 1) return true
  if (chars.length !== 2) return false
  return chars.every((char) => INITIALS.includes(char)) || /^[0-9]{2}$/u.test(chars.join(''))
}

/**
 * A short query ({@link isShortQuery}) as the whole terms its prefix
 * stands for, so FTS5 walks their posting lists in rowid order and can stop
 * after a page, instead of merging every term with that prefix first (which
 * is what a prefix query costs, at any LIMIT). One or two initials: the
 * indexed grams that start with them. One syllable: the terms
 * `terms(prefix)` lists from the index's vocabulary (empty: nothing
 * matches; null: too many to spell out). Null for any other query (digits
 * are spelled out by {@link planSearch} already): keep its
 * {@link planSearch} plan.
 */
export function shortQueryPlan(
  query: string,
  terms: (syllable: string) => readonly string[] | null,
): SearchPlan | null {
  const chars = [...compact(query)]
  if (chars.length === 0 || chars.length > 2) return null
  if (chars.every((char) => INITIALS.includes(char))) {
    return {
      kind: 'match',
      match: `(${initialGramsFrom(chars.join('')).map(quote).join(' OR ')})`,
    }
  }
  if (chars.length !== 1) return null
  const code = chars[0]!.charCodeAt(0)
  if (code < SYLLABLE_FIRST || code > SYLLABLE_LAST) return null
  const found = terms(chars[0]!)
  if (found === null) return null
  if (found.length === 0) return { kind: 'none' }
  return { kind: 'match', match: `(${found.map(quote).join(' OR ')})` }
}

/** Every `c` term that starts with `start` (one or two initials): pairs and triples with it. */
function initialGramsFrom(start: string): string[] {
  let grams = [start]
  let level = [start]
  while (level[0]!.length < 3) {
    level = level.flatMap((gram) => [...INITIALS].map((next) => gram + next))
    grams = [...grams, ...level]
  }
  return grams
}
