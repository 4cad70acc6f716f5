/**
 * Rules for one-line names typed by a user (profile name, partner id), kept
 * free of zod so the renderer's form checks with the very same rules as the
 * IPC schema.
 */

/** Longest profile name, in characters after NFC normalisation. */
export const MAX_PROFILE_NAME_CHARS = 80

/**
 * Characters a name shown in the app may not contain: control characters
 * (NUL, newlines, escape…), lone surrogates, line and paragraph separators,
 * the byte-order mark, and the bidirectional controls (U+202A–U+202E,
 * U+2066–U+2069, LRM, RLM, ALM) that can make a name read backwards
 * (the "Trojan Source" trick, CVE-2021-42574, https://trojansource.codes).
 */
const CONTROL_CHARS = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\uFEFF]/u
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u

/** What is wrong with a typed name; the form shows its own text per problem next to the field. */
export type TextProblem = 'empty' | 'too_long' | 'control' | 'bidi'

/** Why `value` cannot be a name of at most `max` characters (after NFC and trimming), or null. */
export function textProblem(value: string, max: number): TextProblem | null {
  if (CONTROL_CHARS.test(value)) return 'control'
  if (BIDI_CONTROLS.test(value)) return 'bidi'
  const clean = value.normalize('NFC').trim()
  if (clean === '') return 'empty'
  return [...clean].length > max ? 'too_long' : null
}

/**
 * For names already stored (a settings file from an older version or edited
 * by hand): the same rules as {@link textProblem}, applied by removing
 * what is not allowed instead of refusing, so no profile is lost on load.
 */
export function stripUnsafeText(value: string, max: number): string {
  const cleaned = value
    .replace(new RegExp(CONTROL_CHARS.source, 'gu'), '')
    .replace(new RegExp(BIDI_CONTROLS.source, 'gu'), '')
    .normalize('NFC')
    .trim()
  return [...cleaned].slice(0, max).join('').trim()
}
