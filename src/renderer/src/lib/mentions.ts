/**
 * `@이름` in a review note (docs/team.md "Mentions"): what the user is
 * typing after an `@`, the team members it may complete to, and the note
 * with the chosen name put in. A mention is `@` and a member's display name
 * (spaces allowed: `@김 민지` when the name has one), at the start of the note
 * or after a space or punctuation, so an e-mail address is no mention.
 */

import { MENTION_LEAD } from '../../../shared/mentions'

/** A member a mention may name. */
export interface MentionCandidate {
  readonly role: string
  readonly name: string
}

/** The mention being typed: where its `@` is and the text after it up to the caret. */
export interface MentionQuery {
  readonly start: number
  readonly query: string
}

/** Longest text after `@` taken as a mention being typed (a display name is short). */
const MAX_QUERY = 30

/** The mention the caret is in, or null (no `@` before it on this line, or too far back). */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret)
  const at = before.lastIndexOf('@')
  if (at < 0 || caret - at - 1 > MAX_QUERY) return null
  const lead = at === 0 ? '' : before[at - 1]!
  if (lead !== '' && !MENTION_LEAD.test(lead)) return null
  const query = before.slice(at + 1)
  if (/[\n@]/u.test(query) || /^\s/u.test(query)) return null
  return { start: at, query }
}

/** The members whose name (or role) starts with, then contains, the query; at most `limit`. */
export function mentionCandidates(
  members: readonly MentionCandidate[],
  query: string,
  limit = 6,
): MentionCandidate[] {
  const q = query.trim().toLocaleLowerCase()
  const starts: MentionCandidate[] = []
  const contains: MentionCandidate[] = []
  for (const member of members) {
    const name = member.name.toLocaleLowerCase()
    const role = member.role.toLocaleLowerCase()
    if (name.startsWith(q) || role.startsWith(q)) starts.push(member)
    else if (name.includes(q)) contains.push(member)
  }
  return [...starts, ...contains].slice(0, limit)
}

/** The note with the mention at `query` replaced by `@name ` and the caret after it. */
export function completeMention(
  text: string,
  caret: number,
  query: MentionQuery,
  name: string,
): { readonly text: string; readonly caret: number } {
  const inserted = `@${name} `
  const after = text.slice(caret).replace(/^ /u, '')
  return {
    text: text.slice(0, query.start) + inserted + after,
    caret: query.start + inserted.length,
  }
}
