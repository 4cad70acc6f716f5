/**
 * Text that can reach the team server (a note, a member's login role, a
 * database name) checked the way PostgreSQL takes it, before anything is
 * stored: `text` and `jsonb` refuse the NUL character (`\u0000` in JSON is
 * "unsupported Unicode escape sequence"), a lone UTF-16 surrogate has no
 * UTF-8 form (`jsonb` refuses its escape, `text` would get U+FFFD), and the
 * server's length checks count characters (code points), not UTF-16 units.
 * See docs/team.md "Limits".
 */

/** The longest review note, in characters (the server's check says the same). */
export const REVIEW_NOTE_MAX_CHARS = 2000

/** Why PostgreSQL would refuse a text: NUL, a lone surrogate, or more than `max` characters. */
export type ServerTextProblem = 'nul' | 'surrogate' | 'too_long'

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Counts characters as PostgreSQL's `length()` does (a surrogate pair is one). */
export function serverLength(value: string): number {
  let pairs = 0
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs += 1
        i += 1
      }
    }
  }
  return value.length - pairs
}

/** What PostgreSQL would refuse in `value` as a text of at most `max` characters, or null. */
export function serverTextProblem(value: string, max: number): ServerTextProblem | null {
  if (value.includes('\u0000')) return 'nul'
  if (LONE_SURROGATE.test(value)) return 'surrogate'
  return serverLength(value) > max ? 'too_long' : null
}

/**
 * The same, made safe instead of refused, for text the app itself produces
 * (a refused origin, an error's reason): NUL dropped, a lone surrogate
 * replaced by U+FFFD, cut to `max` characters.
 */
export function toServerText(value: string, max: number): string {
  const clean = value
    .replaceAll('\u0000', '')
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD')
  return serverLength(clean) <= max ? clean : [...clean].slice(0, max).join('')
}
