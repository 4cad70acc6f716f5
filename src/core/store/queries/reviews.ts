import { randomUUID } from 'node:crypto'
import type { SQLInputValue } from 'node:sqlite'
import type { StoreConnection } from '../connection'
import type { ReviewMark, ReviewMarkName } from '../../../shared/lists'
import { AppError } from '../../app-error'
import { touchCells } from '../search/cell-index'
import type { PagedResource } from '../record-types'
import { prepared } from '../statements'
import { queueReviewEvent, teamIdentity, type TeamIdentity } from '../team-side'
import { bumpDataVersion } from '../data-version'
import { withMarksCountedOnce } from '../write/mark-counts'

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
  const saved = writeReview(db, input, teamIdentity(db))
  if (!saved) throw new AppError('not_found', `No stored record ${input.idx}.`)
  touchCells(db, input.resource, [input.idx])
  bumpDataVersion(db)
  return saved
}

/**
 * Writes one record's mark and queues its team event; null when the cache
 * holds no such record. The caller touches the cells and bumps the version.
 */
function writeReview(
  db: StoreConnection,
  input: ReviewInput & { readonly restoresId?: string | null },
  identity: TeamIdentity | null,
): ReviewMark | null {
  const known = prepared(db, `SELECT 1 FROM ${input.resource} WHERE idx = ?`).get(input.idx)
  if (!known) return null
  const previous = prepared(
    db,
    'SELECT mark, note FROM review_marks WHERE resource = ? AND record_idx = ?',
  ).get(input.resource, input.idx) as { mark: ReviewMarkName; note: string | null } | undefined
  const note = (input.note ?? previous?.note ?? '').trim()
  const by = identity ? identity.displayName || identity.role : input.by
  const clientTime = input.clientTime ?? new Date().toISOString()
  if (input.mark === 'none' && note === '') {
    prepared(db, 'DELETE FROM review_marks WHERE resource = ? AND record_idx = ?').run(
      input.resource,
      input.idx,
    )
  } else {
    prepared(
      db,
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
      clientTime,
      restoresId: input.restoresId ?? null,
    })
  } else if ((previous?.mark ?? 'none') !== input.mark || (previous?.note ?? '') !== note) {
    keepLocalHistory(db, input.resource, [[input.idx, input.mark, note]], by, clientTime)
  }
  return { mark: input.mark, note, by, at: input.at }
}

/** A record's review state before an action, so the action can be taken back. */
export interface ReviewSnapshot {
  readonly idx: number
  /** Null: the record had no mark row. */
  readonly mark: ReviewMarkName | null
  readonly note: string
  readonly by: string | null
  readonly at: string | null
  /** The team author of that state (login role); null without one. */
  readonly author: string | null
  /** The team event that set that state; null when none did. */
  readonly eventId: string | null
}

function snapshotOf(db: StoreConnection, resource: PagedResource, idx: number): ReviewSnapshot {
  const row = prepared(
    db,
    `SELECT mark, note, updated_at, reviewed_by, team_author FROM review_marks
      WHERE resource = ? AND record_idx = ?`,
  ).get(resource, idx) as
    | {
        mark: ReviewMarkName
        note: string
        updated_at: string
        reviewed_by: string | null
        team_author: string | null
      }
    | undefined
  const event = prepared(
    db,
    `SELECT id FROM team_review_events WHERE resource = ? AND record_idx = ?
      ORDER BY seq IS NULL DESC, seq DESC, rowid DESC LIMIT 1`,
  ).get(resource, idx) as { id: string } | undefined
  return {
    idx,
    mark: row?.mark ?? null,
    note: row?.note ?? '',
    by: row?.reviewed_by ?? null,
    at: row?.updated_at ?? null,
    author: row?.team_author ?? null,
    eventId: event?.id ?? null,
  }
}

/** The review states of records as they are now (see {@link ReviewSnapshot}). */
export function reviewSnapshots(
  db: StoreConnection,
  resource: PagedResource,
  idxs: readonly number[],
): ReviewSnapshot[] {
  return idxs.map((idx) => snapshotOf(db, resource, idx))
}

/** What {@link setReviews} stores: a mark, a note, or both, on many records. */
export interface ReviewsInput {
  readonly resource: PagedResource
  readonly idxs: readonly number[]
  /** Undefined: each record keeps its mark. */
  readonly mark?: ReviewMarkName | undefined
  /** Undefined: each record keeps its note. */
  readonly note?: string | undefined
  readonly by: string | null
  readonly at: string
  readonly clientTime: string
}

/** What a bulk action or an undo did, and each record's state before it (for the next undo). */
export interface ReviewsChanged {
  readonly changed: number
  readonly previous: readonly ReviewSnapshot[]
}

/**
 * Sets the mark and/or note of many records in the caller's transaction:
 * one write and one team event per record, the cells touched and the data
 * version bumped once. Records the cache does not hold are skipped.
 * Set-based: one read of every record's state before, one statement each
 * for the marks written, the marks removed, the events kept and the outbox
 * (its drafts made in SQL), each over a JSON array of the records, and the
 * list counts moved once for all of them (`write/mark-counts.ts`), so ten
 * thousand records cost a handful of statements rather than ten thousand
 * rounds of them.
 */
export function setReviews(db: StoreConnection, input: ReviewsInput): ReviewsChanged {
  const identity = teamIdentity(db)
  const { resource } = input
  const states = prepared(
    db,
    `SELECT j.value AS idx, m.mark, m.note, m.updated_at, m.reviewed_by, m.team_author,
       (SELECT e.id FROM team_review_events e WHERE e.resource = ?1 AND e.record_idx = j.value
         ORDER BY e.seq IS NULL DESC, e.seq DESC, e.rowid DESC LIMIT 1) AS event_id,
       (SELECT max(e.seq) FROM team_review_events e
         WHERE e.resource = ?1 AND e.record_idx = j.value) AS based_on_seq
     FROM json_each(?2) j
     JOIN ${resource} r ON r.idx = j.value
     LEFT JOIN review_marks m ON m.resource = ?1 AND m.record_idx = j.value
     ORDER BY j.key`,
  ).all(resource, JSON.stringify([...new Set(input.idxs)])) as {
    idx: number
    mark: ReviewMarkName | null
    note: string | null
    updated_at: string | null
    reviewed_by: string | null
    team_author: string | null
    event_id: string | null
    based_on_seq: number | null
  }[]
  if (states.length === 0) return { changed: 0, previous: [] }
  const by = identity ? identity.displayName || identity.role : input.by
  const clientTime = input.clientTime
  const kept: [number, ReviewMarkName, string][] = []
  const removed: number[] = []
  const events: [string, number, ReviewMarkName, string, number | null][] = []
  const previous: ReviewSnapshot[] = []
  const changedHere: [number, ReviewMarkName, string][] = []
  for (const state of states) {
    previous.push({
      idx: state.idx,
      mark: state.mark,
      note: state.note ?? '',
      by: state.reviewed_by,
      at: state.updated_at,
      author: state.team_author,
      eventId: state.event_id,
    })
    const mark = input.mark ?? state.mark ?? 'none'
    const note = (input.note ?? state.note ?? '').trim()
    if (mark === 'none' && note === '') removed.push(state.idx)
    else kept.push([state.idx, mark, note])
    if (!identity && ((state.mark ?? 'none') !== mark || (state.note ?? '') !== note))
      changedHere.push([state.idx, mark, note])
    if (identity) {
      const id = randomUUID()
      events.push([id, state.idx, mark, note, state.based_on_seq])
    }
  }
  const done = states.map((state) => state.idx)
  withMarksCountedOnce(db, resource, done, () => {
    if (removed.length > 0) {
      prepared(
        db,
        `DELETE FROM review_marks WHERE resource = ? AND record_idx IN (SELECT value FROM json_each(?))`,
      ).run(resource, JSON.stringify(removed))
    }
    if (kept.length > 0) {
      // With a team, the row becomes this member's, not yet numbered (as queueReviewEvent does).
      const team = identity
        ? ', team_seq = NULL, team_author = excluded.team_author, changed_while_away = NULL'
        : ''
      prepared(
        db,
        `INSERT INTO review_marks (resource, record_idx, mark, note, updated_at, reviewed_by, team_author)
         SELECT ?1, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),
           json_extract(j.value, '$[2]'), ?2, ?3, ?4
         FROM json_each(?5) j WHERE true
         ON CONFLICT (resource, record_idx) DO UPDATE SET
           mark = excluded.mark, note = excluded.note, updated_at = excluded.updated_at,
           reviewed_by = excluded.reviewed_by${team}`,
      ).run(resource, input.at, by, identity?.role ?? null, JSON.stringify(kept))
    }
  })
  if (identity && events.length > 0) {
    const json = JSON.stringify(events)
    prepared(
      db,
      `INSERT INTO team_review_events (id, resource, record_idx, mark, note, author, author_name, client_time, based_on_seq, restores_id)
       SELECT json_extract(j.value, '$[0]'), ?1, json_extract(j.value, '$[1]'),
         json_extract(j.value, '$[2]'), json_extract(j.value, '$[3]'), ?2, ?3, ?4,
         json_extract(j.value, '$[4]'), NULL
       FROM json_each(?5) j`,
    ).run(resource, identity.role, identity.displayName || null, clientTime, json)
    // Each draft as queueReviewEvent writes it (a ReviewEventDraft), made here from the same array.
    prepared(
      db,
      `INSERT INTO team_outbox (id, draft)
       SELECT json_extract(j.value, '$[0]'), json_object('kind', 'review',
         'id', json_extract(j.value, '$[0]'), 'resource', ?1,
         'recordIdx', json_extract(j.value, '$[1]'), 'mark', json_extract(j.value, '$[2]'),
         'note', json_extract(j.value, '$[3]'), 'clientTime', ?2,
         'basedOnSeq', json_extract(j.value, '$[4]'))
       FROM json_each(?3) j ORDER BY j.key`,
    ).run(resource, clientTime, json)
  }
  keepLocalHistory(db, resource, changedHere, by, clientTime)
  touchCells(db, resource, done)
  bumpDataVersion(db)
  return { changed: done.length, previous }
}

/**
 * Brings records back to the states of a snapshot (an undo), in the caller's
 * transaction: each mark, note, signer and time as they were, and, with a
 * team server, a new event per record that names the event it restores, so
 * every member's app shows that author again. Answers the states it replaced.
 */
export function restoreReviews(
  db: StoreConnection,
  input: {
    readonly resource: PagedResource
    readonly states: readonly ReviewSnapshot[]
    readonly at: string
    readonly clientTime: string
  },
): ReviewsChanged {
  const identity = teamIdentity(db)
  const previous: ReviewSnapshot[] = []
  const done: number[] = []
  const idxs = input.states.map((state) => state.idx)
  withMarksCountedOnce(db, input.resource, idxs, () => {
    for (const state of input.states) {
      const before = snapshotOf(db, input.resource, state.idx)
      const saved = writeReview(
        db,
        {
          resource: input.resource,
          idx: state.idx,
          mark: state.mark ?? 'none',
          note: state.mark === null ? '' : state.note,
          by: state.by,
          at: state.at ?? input.at,
          clientTime: input.clientTime,
          restoresId: state.eventId,
        },
        identity,
      )
      if (!saved) continue
      if (state.mark !== null) {
        // The state as it was: its signer, time and team author, not the undoer's.
        prepared(
          db,
          `UPDATE review_marks SET reviewed_by = ?, updated_at = ?, team_author = ?
          WHERE resource = ? AND record_idx = ?`,
        ).run(state.by, state.at ?? input.at, state.author, input.resource, state.idx)
      }
      previous.push(before)
      done.push(state.idx)
    }
  })
  if (done.length > 0) {
    touchCells(db, input.resource, done)
    bumpDataVersion(db)
  }
  return { changed: done.length, previous }
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

/** A column expression giving each listed row its assignee's login role (docs/team.md "Assignment"), or NULL. */
export function assigneeColumn(resource: PagedResource): string {
  return `(SELECT assignee FROM record_assignments
     WHERE resource = '${resource}' AND record_idx = idx) AS assignee`
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

/**
 * Keeps mark and note changes made on this machine without a team server in
 * the records' local review history (`review_history`), one entry each, in
 * the caller's transaction. With a team server the team's events are the
 * history instead.
 */
function keepLocalHistory(
  db: StoreConnection,
  resource: PagedResource,
  changes: readonly (readonly [number, ReviewMarkName, string])[],
  by: string | null,
  clientTime: string,
): void {
  if (changes.length === 0) return
  prepared(
    db,
    `INSERT INTO review_history (resource, record_idx, mark, note, reviewed_by, client_time)
     SELECT ?1, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'),
       json_extract(j.value, '$[2]'), ?2, ?3
     FROM json_each(?4) j ORDER BY j.key`,
  ).run(resource, by, clientTime, JSON.stringify(changes))
}
