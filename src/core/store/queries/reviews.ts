import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../connection'
import type { ReviewMark, ReviewMarkName } from '../../../shared/cache'
import { AppError } from '../../app-error'
import { touchCells } from '../search/cell-index'
import type { PagedResource } from '../record-types'
import { queueReviewEvent, teamIdentity } from '../team-side'
import { bumpDataVersion } from '../write/writes'

/**
 * Review marks: staff's own data, kept per profile in `review_marks` keyed by
 * (resource, idx). They are never touched by a sync, so a mark survives every
 * re-sync and a record going gone and coming back. A mark of `none` with an
 * empty note removes the row. When the profile has a team server, the same
 * transaction queues the mark for the team (`team-side.ts`) and signs it
 * with the member's team name.
 */

/** What {@link setReview} stores. */
export interface ReviewInput {
  readonly resource: PagedResource
  readonly idx: number
  readonly mark: ReviewMarkName
  /** Undefined: keep the stored note. */
  readonly note?: string | undefined
  readonly by: string | null
  /** Local time text, `YYYY-MM-DD HH:MM:SS`. */
  readonly at: string
  /** ISO time, for the team event; now when absent. */
  readonly clientTime?: string | undefined
}

/**
 * Stores a mark for a record the cache holds (a mark for an unknown record
 * is refused, so a typo in an id never creates an orphan) and answers it.
 */
export function setReview(db: StoreConnection, input: ReviewInput): ReviewMark {
  const known = db.prepare(`SELECT 1 FROM ${input.resource} WHERE idx = ?`).get(input.idx)
  if (!known) throw new AppError('not_found', `No stored record ${input.idx}.`)
  const previous = db
    .prepare('SELECT note FROM review_marks WHERE resource = ? AND record_idx = ?')
    .get(input.resource, input.idx) as { note: string | null } | undefined
  const note = (input.note ?? previous?.note ?? '').trim()
  const identity = teamIdentity(db)
  const by = identity ? identity.displayName || identity.role : input.by
  if (input.mark === 'none' && note === '') {
    db.prepare('DELETE FROM review_marks WHERE resource = ? AND record_idx = ?').run(
      input.resource,
      input.idx,
    )
  } else {
    db.prepare(
      `INSERT INTO review_marks (resource, record_idx, mark, note, updated_at, reviewed_by)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (resource, record_idx) DO UPDATE SET
         mark = excluded.mark, note = excluded.note, updated_at = excluded.updated_at,
         reviewed_by = excluded.reviewed_by`,
    ).run(input.resource, input.idx, input.mark, note, input.at, by)
  }
  if (identity) {
    queueReviewEvent(db, identity, {
      resource: input.resource,
      idx: input.idx,
      mark: input.mark,
      note,
      clientTime: input.clientTime ?? new Date().toISOString(),
    })
  }
  touchCells(db, input.resource, [input.idx])
  bumpDataVersion(db)
  return { mark: input.mark, note, by, at: input.at }
}

/**
 * A column expression giving each listed row its mark as JSON text
 * (`[mark, note, at, by, author, changedBy]`), or NULL; `idx` is the list
 * table's own column.
 */
export function reviewColumn(resource: PagedResource): string {
  return `(SELECT json_array(mark, note, updated_at, reviewed_by, team_author, changed_while_away) FROM review_marks
     WHERE resource = '${resource}' AND record_idx = idx) AS review`
}

/** A WHERE clause selecting the rows with `mark` (`none`: no row, or a row marked `none`). */
export function reviewClause(
  resource: PagedResource,
  mark: ReviewMarkName,
): { clause: string; params: SQLInputValue[] } {
  if (mark === 'none') {
    return {
      clause: `NOT EXISTS (SELECT 1 FROM review_marks WHERE resource = '${resource}' AND record_idx = idx AND mark <> 'none')`,
      params: [],
    }
  }
  return {
    clause: `EXISTS (SELECT 1 FROM review_marks WHERE resource = '${resource}' AND record_idx = idx AND mark = ?)`,
    params: [mark],
  }
}

const MARKS = new Set<string>(['reviewed', 'follow_up', 'none'])

/** Reads the {@link reviewColumn} value back; a malformed value reads as no mark. */
export function readReview(value: unknown): ReviewMark | null {
  if (typeof value !== 'string') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed.length < 4) return null
  const [mark, note, at, by, author, changedBy] = parsed as unknown[]
  if (typeof mark !== 'string' || !MARKS.has(mark) || typeof at !== 'string') return null
  return {
    mark: mark as ReviewMarkName,
    note: typeof note === 'string' ? note : '',
    by: typeof by === 'string' && by !== '' ? by : null,
    at,
    ...(typeof author === 'string' ? { author } : {}),
    ...(typeof changedBy === 'string' ? { changedBy } : {}),
  }
}
