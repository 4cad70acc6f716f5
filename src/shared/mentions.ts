/**
 * Whether a review note mentions a member (docs/team.md "Mentions"): `@` and
 * the member's display name, at the start of the note or after a space or
 * punctuation (so `minji@example.com` is no mention), and not run on into
 * more letters (`@민지` does not mention `민`). Shared by the core, which
 * notifies the member mentioned, and the note's completion in the renderer.
 */

/** A character that may stand before the `@` of a mention. */
export const MENTION_LEAD = /[\s([{"'“‘,.;:!?]/u

/** True when `note` holds `@name` as a mention. */
export function mentions(note: string, name: string): boolean {
  const target = name.trim()
  if (target === '') return false
  let from = 0
  for (;;) {
    const at = note.indexOf(`@${target}`, from)
    if (at < 0) return false
    const lead = at === 0 ? ' ' : note[at - 1]!
    const next = note[at + 1 + target.length]
    if (MENTION_LEAD.test(lead) && (next === undefined || !/[\p{L}\p{N}_]/u.test(next))) return true
    from = at + 1
  }
}
