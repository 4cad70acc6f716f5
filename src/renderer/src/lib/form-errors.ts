import type { MessageKey } from './i18n.svelte'

/** The part of a zod issue the mapping reads (zod's own type, kept structural). */
export interface FormIssue {
  readonly code: string
  readonly path: readonly PropertyKey[]
  readonly maximum?: number | bigint
  /** Set by `plainTextSchema`'s issues: which rule of a name failed. */
  readonly params?: { readonly problem?: unknown; readonly max?: unknown }
}

/** A message for one field: a catalog key and its placeholder values. */
export interface FieldError {
  readonly key: MessageKey
  readonly values?: Record<string, string | number>
}

/** Messages of fields whose own check (a refine) needs its own words. */
const CUSTOM: Readonly<Record<string, MessageKey>> = {
  baseUrl: 'form.serviceUrl',
  staticUrl: 'form.serviceUrl',
  redirectUri: 'form.redirectUri',
  timeZone: 'form.timeZone',
}

/** Fields whose every problem is told in one sentence (e.g. the range a number must be in). */
const WHOLE: Readonly<Record<string, MessageKey>> = {
  timeoutSeconds: 'form.timeoutSeconds',
}

/**
 * Maps zod issues to the form's fields, so each error shows next to its
 * input in the user's language instead of one raw banner. The first issue
 * of a field wins; issues of fields the form does not have are left out
 * (the caller shows them in the banner).
 */
export function fieldErrorsOf<F extends string>(
  issues: readonly FormIssue[],
  fields: readonly F[],
): Partial<Record<F, FieldError>> {
  const errors: Partial<Record<F, FieldError>> = {}
  for (const issue of issues) {
    const field = issue.path[0]
    if (typeof field !== 'string' || !(fields as readonly string[]).includes(field)) continue
    if (errors[field as F]) continue
    const whole = WHOLE[field]
    errors[field as F] = whole ? { key: whole } : errorOf(field, issue)
  }
  return errors
}

function errorOf(field: string, issue: FormIssue): FieldError {
  switch (issue.code) {
    case 'too_small':
      return { key: 'form.required' }
    case 'too_big':
      return { key: 'form.tooLong', values: { max: Number(issue.maximum ?? 0) } }
    case 'invalid_format':
      return { key: 'form.invalid' }
    case 'custom':
      return textErrorOf(issue) ?? { key: CUSTOM[field] ?? 'form.invalid' }
    default:
      return { key: 'form.invalid' }
  }
}

/**
 * The words for a name refused by `plainTextSchema` (control or text-direction
 * characters, length) or `serverTextSchema` (NUL, a broken character, length).
 */
function textErrorOf(issue: FormIssue): FieldError | null {
  switch (issue.params?.problem) {
    case 'empty':
      return { key: 'form.required' }
    case 'too_long':
      return { key: 'form.tooLong', values: { max: Number(issue.params.max ?? 0) } }
    case 'control':
    case 'nul':
    case 'surrogate':
      return { key: 'form.controlChars' }
    case 'bidi':
      return { key: 'form.bidiChars' }
    default:
      return null
  }
}
