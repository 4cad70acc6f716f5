import { mentions } from '../../shared/mentions'
import { randomUUID } from 'node:crypto'
import type { StoreConnection } from './connection'
import type { ReviewMarkName } from '../../shared/lists'
import type { ReviewHistoryEntry, SetAsideEvent, TeamMembers } from '../../shared/team'
import { toServerText } from '../../shared/server-text'
import { isPagedResource } from '../../shared/resources'
import { localTimestamp } from '../../shared/local-time'
import type {
  AssignmentEvent,
  AssignmentEventDraft,
  OutboxCounts,
  ReviewEventDraft,
  SetAsideEntry,
  TeamEvent,
  TeamEventDraft,
  WalletLinkEventDraft,
} from './team-events'
import { touchCells } from './search/cell-index'
import { applyPulledAssignments, settleAssignment } from './team-assignments'
import { prepared } from './statements'
import type { PagedResource } from './record-types'
import { bumpDataVersion } from './data-version'
import { withMarksCountedOnce } from './write/mark-counts'

/**
 * The store's half of team sharing (docs/team.md): the outbox, the cursor,
 * the review history of every record and the application of pulled events
 * to the local marks. Pure `(db, args)` functions that the owner thread runs
 * (`store-ops.ts`); the team worker reaches them through the main thread
 * (`team/team-thread.ts`). A profile without a team server never calls them,
 * and {@link teamIdentity} answers null there, so `reviews.set` and the
 * Wallet history write exactly what they write without one.
 */

/** Who this machine is on the team server, stored while the profile has one. */
export interface TeamIdentity {
  /** The login role: the author of everything this machine pushes. */
  readonly role: string
  /** The name the team knows the member by; empty when the administrator gave none. */
  readonly displayName: string
}

/** What the app tells the store when a profile opens or the team worker connects. */
export interface TeamConfigure {
  /**
   * Null: the profile has no team server (nothing is queued). An empty
   * display name keeps the one stored for the same role.
   */
  readonly identity: TeamIdentity | null
  /** The team's members, when the worker read them (role → display name). */
  readonly members?: readonly { readonly role: string; readonly displayName: string }[]
}

/** A page of pulled events to apply (see `TeamLocalSide.applyPulled`). */
export interface PulledApply {
  readonly events: readonly TeamEvent[]
  readonly upToSeq: number
  /** The profile's time zone: marks show their time in it. */
  readonly timeZone: string
  /**
   * Mentions: this member's display name on the server (the stored identity's
   * until the first connect) and whether this is the machine's first pull
   * (it had pulled nothing), whose mentions notify nobody.
   */
  readonly mentions?: { readonly catchingUp: boolean; readonly displayName: string }
}

/** What applying a page changed, so the main thread tells the views. */
export interface PulledApplied {
  readonly resources: readonly PagedResource[]
  readonly walletLinks: boolean
  /**
   * Review events new to this machine whose note mentions this member, by
   * another member (none on a machine's first pull); each is also an entry
   * of the changes feed (docs/team.md "Mentions").
   */
  readonly mentions?: readonly MentionFound[]
}

/** A note of another member that mentions this member. */
interface MentionFound {
  readonly resource: PagedResource
  readonly idx: number
  /** The author's display name (the role when none). */
  readonly by: string
  readonly note: string
}

function readState(db: StoreConnection, key: string): string | null {
  const row = prepared(db, 'SELECT value FROM team_state WHERE key = ?').get(key) as
    { value: string } | undefined
  return row?.value ?? null
}

function writeState(db: StoreConnection, key: string, value: string | null): void {
  if (value === null) prepared(db, 'DELETE FROM team_state WHERE key = ?').run(key)
  else
    prepared(
      db,
      'INSERT INTO team_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value)
}

/** The identity this machine pushes as, or null when the profile has no team server. */
export function teamIdentity(db: StoreConnection): TeamIdentity | null {
  const raw = readState(db, 'identity')
  if (raw === null) return null
  try {
    const parsed = JSON.parse(raw) as TeamIdentity
    return typeof parsed.role === 'string' ? parsed : null
  } catch {
    return null
  }
}

/** Records whether the profile shares with a team, as whom, and the team's names. */
export function configureTeam(db: StoreConnection, input: TeamConfigure): void {
  let identity = input.identity
  const stored = teamIdentity(db)
  if (identity && identity.displayName === '' && stored?.role === identity.role) identity = stored
  writeState(db, 'identity', identity === null ? null : JSON.stringify(identity))
  if (input.members) {
    const names = Object.fromEntries(
      input.members.map((member) => [member.role, member.displayName]),
    )
    writeState(db, 'members', JSON.stringify(names))
  }
}

/** The team's members as the worker last read them (login role → display name). */
export function memberNames(db: StoreConnection): Record<string, string> {
  try {
    return JSON.parse(readState(db, 'members') ?? '{}') as Record<string, string>
  } catch {
    return {}
  }
}

function enqueue(db: StoreConnection, draft: TeamEventDraft): void {
  prepared(db, 'INSERT INTO team_outbox (id, draft) VALUES (?, ?)').run(
    draft.id,
    JSON.stringify(draft),
  )
}

/**
 * Queues a review event for a mark just set locally (in the caller's
 * transaction), keeps it in the record's history, and marks the local row as
 * this member's, not yet numbered. Answers the name the mark is signed with.
 */
export function queueReviewEvent(
  db: StoreConnection,
  identity: TeamIdentity,
  input: {
    readonly resource: PagedResource
    readonly idx: number
    readonly mark: ReviewMarkName
    readonly note: string
    readonly clientTime: string
    /** An undo: the event whose state this one brings back. */
    readonly restoresId?: string | null
  },
): void {
  const based = prepared(
    db,
    'SELECT max(seq) AS seq FROM team_review_events WHERE resource = ? AND record_idx = ?',
  ).get(input.resource, input.idx) as { seq: number | null }
  const id = randomUUID()
  enqueue(db, {
    kind: 'review',
    id,
    resource: input.resource,
    recordIdx: input.idx,
    mark: input.mark,
    note: input.note,
    clientTime: input.clientTime,
    basedOnSeq: based.seq,
    ...(input.restoresId ? { restoresId: input.restoresId } : {}),
  })
  prepared(
    db,
    `INSERT INTO team_review_events (id, resource, record_idx, mark, note, author, author_name, client_time, based_on_seq, restores_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.resource,
    input.idx,
    input.mark,
    input.note,
    identity.role,
    identity.displayName || null,
    input.clientTime,
    based.seq,
    input.restoresId ?? null,
  )
  prepared(
    db,
    `UPDATE review_marks SET team_seq = NULL, team_author = ?, changed_while_away = NULL
     WHERE resource = ? AND record_idx = ?`,
  ).run(identity.role, input.resource, input.idx)
}

/** Queues a wallet-link event for a history row just written; the row takes the event's id. */
export function queueWalletLinkEvent(
  db: StoreConnection,
  identity: TeamIdentity,
  rowId: number,
  draft: Omit<WalletLinkEventDraft, 'kind' | 'id'>,
): void {
  const id = randomUUID()
  // The app wrote the reason (a refused origin, an error's words): made safe, never refused.
  const reason = draft.reason === null ? null : toServerText(draft.reason, 500)
  enqueue(db, { kind: 'wallet_link', id, ...draft, reason })
  prepared(db, 'UPDATE wallet_links SET event_id = ?, author = ? WHERE id = ?').run(
    id,
    identity.displayName || identity.role,
    rowId,
  )
}

/** The oldest unsent events, at most `limit` (never one set aside). */
export function readOutbox(db: StoreConnection, limit: number): TeamEventDraft[] {
  const rows = prepared(
    db,
    'SELECT draft FROM team_outbox WHERE set_aside IS NULL ORDER BY n LIMIT ?',
  ).all(limit) as { draft: string }[]
  return rows.map((row) => JSON.parse(row.draft) as TeamEventDraft)
}

/** How many events wait, and how many are set aside. */
export function countOutbox(db: StoreConnection): OutboxCounts {
  const row = prepared(
    db,
    `SELECT count(*) FILTER (WHERE set_aside IS NULL) AS unsent,
            count(*) FILTER (WHERE set_aside IS NOT NULL) AS setAside
       FROM team_outbox`,
  ).get() as { unsent: number; setAside: number }
  return { unsent: row.unsent, setAside: row.setAside }
}

/** Takes refused events out of the push, with why (see `TeamLocalSide.setAside`). */
export function setAsideEvents(
  db: StoreConnection,
  input: { readonly entries: readonly SetAsideEntry[]; readonly at: string },
): void {
  const mark = prepared(db, 'UPDATE team_outbox SET set_aside = ? WHERE id = ?')
  for (const entry of input.entries) {
    mark.run(
      JSON.stringify({ reason: entry.reason, sqlState: entry.sqlState, at: input.at }),
      entry.id,
    )
  }
}

/** The events set aside, oldest first, with what they held and why (`team.setAside`). */
export function listSetAside(db: StoreConnection): SetAsideEvent[] {
  const rows = prepared(
    db,
    'SELECT draft, set_aside FROM team_outbox WHERE set_aside IS NOT NULL ORDER BY n',
  ).all() as { draft: string; set_aside: string }[]
  return rows.map((row) => {
    const draft = JSON.parse(row.draft) as Partial<TeamEventDraft> & { id: string; kind: string }
    const why = JSON.parse(row.set_aside) as { reason: string; sqlState: string | null; at: string }
    const review =
      draft.kind === 'review' || draft.kind === 'assignment'
        ? (draft as Partial<ReviewEventDraft>)
        : null
    return {
      id: draft.id,
      kind: draft.kind === 'wallet_link' || draft.kind === 'assignment' ? draft.kind : 'review',
      resource: isPagedResource(review?.resource) ? review.resource : null,
      idx: typeof review?.recordIdx === 'number' ? review.recordIdx : null,
      mark: typeof review?.mark === 'string' ? (review.mark as ReviewMarkName) : null,
      note: typeof review?.note === 'string' ? review.note.slice(0, 200) : null,
      reason: why.reason,
      sqlState: why.sqlState,
      at: why.at,
    }
  })
}

/**
 * Drops events set aside: they are never sent. A review event leaves the
 * record's history too, and the record takes the team's current mark again
 * (its local mark stays when the team has none). Answers how many went.
 */
export function discardSetAside(
  db: StoreConnection,
  input: { readonly ids: readonly string[]; readonly timeZone: string },
): { readonly discarded: number; readonly resources: readonly PagedResource[] } {
  const identity = teamIdentity(db)
  const find = prepared(db, 'SELECT draft FROM team_outbox WHERE id = ? AND set_aside IS NOT NULL')
  const dropEvent = prepared(db, 'DELETE FROM team_review_events WHERE id = ?')
  const dropAssignment = prepared(db, 'DELETE FROM team_assignment_events WHERE id = ?')
  const dropRow = prepared(db, 'DELETE FROM team_outbox WHERE id = ?')
  const touched = new Map<PagedResource, Set<number>>()
  let discarded = 0
  for (const id of input.ids) {
    const row = find.get(id) as { draft: string } | undefined
    if (!row) continue
    dropRow.run(id)
    discarded += 1
    const draft = JSON.parse(row.draft) as Partial<ReviewEventDraft | AssignmentEventDraft>
    if (draft.kind === 'assignment') {
      dropAssignment.run(id)
      if (draft.resource !== 'inspections' && draft.resource !== 'guarantees') continue
      if (typeof draft.recordIdx !== 'number') continue
      settleAssignment(db, draft.resource, draft.recordIdx)
      continue
    }
    if (draft.kind !== 'review') continue
    dropEvent.run(id)
    if (draft.resource !== 'inspections' && draft.resource !== 'guarantees') continue
    if (typeof draft.recordIdx !== 'number') continue
    let records = touched.get(draft.resource)
    if (!records) touched.set(draft.resource, (records = new Set()))
    records.add(draft.recordIdx)
  }
  for (const [resource, records] of touched) {
    settleMarks(db, resource, [...records], identity, input.timeZone)
    touchCells(db, resource, records)
  }
  if (discarded > 0) bumpDataVersion(db)
  return { discarded, resources: [...touched.keys()] }
}

/** Drops events the server committed. */
export function ackOutbox(db: StoreConnection, ids: readonly string[]): void {
  if (ids.length === 0) return
  prepared(db, 'DELETE FROM team_outbox WHERE id IN (SELECT value FROM json_each(?))').run(
    JSON.stringify(ids),
  )
}

/** The highest server number applied; 0 when none. */
export function lastPulledSeq(db: StoreConnection): number {
  return Number(readState(db, 'last_seq') ?? 0)
}

interface StoredEvent {
  id: string
  restores_id?: string | null
  mark: ReviewMarkName
  note: string
  author: string | null
  author_name: string | null
  client_time: string
  based_on_seq: number | null
  seq: number | null
}

/**
 * Applies a page of pulled events and moves the cursor (the caller's
 * transaction makes it one step). Every event is kept by id, so a page
 * applied twice changes nothing. A record's mark becomes its event with the
 * highest number, unless this machine holds an unsent mark of it (then the
 * local mark stays until the server numbers it, after the pulled ones). When
 * the new current mark is another member's, made without having seen this
 * member's numbered mark, the record is flagged "changed while you were
 * away" with that member's name until it is looked at.
 */
export function applyPulled(db: StoreConnection, page: PulledApply): PulledApplied {
  const identity = teamIdentity(db)
  const names = memberNames(db)
  const nameOf = (role: string): string => names[role] || role
  const upsertLink = prepared(
    db,
    `INSERT INTO wallet_links (flow, ref_user_id, guarantee_idx, outcome, detail, started_at, ended_at, event_id, author)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (event_id) DO UPDATE SET author = excluded.author`,
  )
  const touched = new Map<PagedResource, Set<number>>()
  let walletLinks = false
  // Mentions of this member: not on a first pull (a new machine catching up on the history).
  const myName = (page.mentions?.displayName || identity?.displayName || '').trim()
  const catchingUp = page.mentions?.catchingUp === true
  const mentioned: MentionFound[] = []
  const known = prepared(db, 'SELECT 1 FROM team_review_events WHERE id = ?')
  const feed = prepared(
    db,
    `INSERT INTO changes (resource, idx, kind, detail, sync_id, at) VALUES (?, ?, 'mention', ?, ?, ?)`,
  )
  const assignments: AssignmentEvent[] = []
  const reviews: unknown[][] = []
  for (const event of page.events) {
    if (event.kind === 'assignment') assignments.push(event)
    else if (event.kind === 'review') {
      if (
        myName !== '' &&
        !catchingUp &&
        event.author !== identity?.role &&
        mentions(event.note, myName) &&
        !known.get(event.id)
      ) {
        const found = {
          resource: event.resource,
          idx: event.recordIdx,
          by: nameOf(event.author),
          note: event.note,
        }
        mentioned.push(found)
        feed.run(
          event.resource,
          event.recordIdx,
          JSON.stringify({ kind: 'mention', by: found.by, note: found.note }),
          `team-${event.id}`,
          event.serverTime,
        )
      }
      reviews.push([
        event.id,
        event.resource,
        event.recordIdx,
        event.mark,
        event.note,
        event.author,
        nameOf(event.author),
        event.clientTime,
        event.basedOnSeq,
        event.seq,
        event.serverTime,
        event.restoresId ?? null,
      ])
      let records = touched.get(event.resource)
      if (!records) touched.set(event.resource, (records = new Set()))
      records.add(event.recordIdx)
    } else {
      upsertLink.run(
        event.flow,
        event.refUserId,
        event.guaranteeIdx,
        event.outcome,
        event.reason,
        event.startedAt,
        event.endedAt,
        event.id,
        nameOf(event.author),
      )
      walletLinks = true
    }
  }
  if (reviews.length > 0) {
    // Every review event of the page kept by id in one statement (a page applied twice changes nothing).
    prepared(
      db,
      `INSERT INTO team_review_events
         (id, resource, record_idx, mark, note, author, author_name, client_time, based_on_seq, seq, server_time, restores_id)
       SELECT e.value ->> 0, e.value ->> 1, e.value ->> 2, e.value ->> 3, e.value ->> 4, e.value ->> 5,
         e.value ->> 6, e.value ->> 7, e.value ->> 8, e.value ->> 9, e.value ->> 10, e.value ->> 11
       FROM json_each(?) e ORDER BY e.key
       ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, author = excluded.author,
         author_name = excluded.author_name, server_time = excluded.server_time`,
    ).run(JSON.stringify(reviews))
  }
  for (const [resource, records] of touched) {
    settleMarks(db, resource, [...records], identity, page.timeZone)
    touchCells(db, resource, records)
  }
  for (const [resource, records] of applyPulledAssignments(db, assignments)) {
    touchCells(db, resource, records)
    if (!touched.has(resource)) touched.set(resource, records)
  }
  writeState(db, 'last_seq', String(page.upToSeq))
  if (touched.size > 0 || walletLinks) bumpDataVersion(db)
  return {
    resources: [...touched.keys()],
    walletLinks,
    ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
  }
}

/**
 * Makes each record's local mark its current team event (see
 * {@link applyPulled}): their events read in one statement, the marks
 * removed in one and written in one, counted once (`write/mark-counts.ts`).
 */
function settleMarks(
  db: StoreConnection,
  resource: PagedResource,
  idxs: readonly number[],
  identity: TeamIdentity | null,
  timeZone: string,
): void {
  const list = JSON.stringify(idxs)
  const rows = prepared(
    db,
    `SELECT e.record_idx, e.id, e.mark, e.note, e.author, e.author_name, e.client_time,
       e.based_on_seq, e.seq, e.restores_id
     FROM json_each(?2) j CROSS JOIN team_review_events e
       ON e.resource = ?1 AND e.record_idx = j.value
     ORDER BY e.record_idx, e.seq`,
  ).all(resource, list) as unknown as (StoredEvent & { record_idx: number })[]
  const byRecord = new Map<number, StoredEvent[]>()
  for (const row of rows) {
    const idx = Number(row.record_idx)
    let events = byRecord.get(idx)
    if (!events) byRecord.set(idx, (events = []))
    events.push(row)
  }
  const flags = new Map(
    (
      prepared(
        db,
        `SELECT m.record_idx, m.changed_while_away FROM json_each(?2) j CROSS JOIN review_marks m
           ON m.resource = ?1 AND m.record_idx = j.value`,
      ).all(resource, list) as { record_idx: number; changed_while_away: string | null }[]
    ).map((row) => [Number(row.record_idx), row.changed_while_away]),
  )
  const times = new Map<string, string>()
  const localTime = (clientTime: string): string => {
    let text = times.get(clientTime)
    if (text === undefined)
      times.set(clientTime, (text = localTimestamp(new Date(clientTime), timeZone)))
    return text
  }
  const me = identity?.role ?? null
  const removed: number[] = []
  const written: unknown[][] = []
  for (const [idx, events] of byRecord) {
    const settled = settledMark(events, me, flags.get(idx) ?? null)
    if (settled === null) continue
    if (settled === 'none') {
      removed.push(idx)
      continue
    }
    const { current, shown, flag } = settled
    written.push([
      idx,
      current.mark,
      current.note,
      localTime(shown.client_time),
      shown.author_name ?? shown.author,
      current.seq,
      shown.author,
      flag,
    ])
  }
  withMarksCountedOnce(
    db,
    resource,
    [...removed, ...written.map((row) => row[0] as number)],
    () => {
      if (removed.length > 0)
        prepared(
          db,
          'DELETE FROM review_marks WHERE resource = ? AND record_idx IN (SELECT value FROM json_each(?))',
        ).run(resource, JSON.stringify(removed))
      if (written.length > 0)
        prepared(
          db,
          `INSERT INTO review_marks (resource, record_idx, mark, note, updated_at, reviewed_by, team_seq, team_author, changed_while_away)
         SELECT ?1, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4,
           j.value ->> 5, j.value ->> 6, j.value ->> 7
         FROM json_each(?2) j WHERE true
         ON CONFLICT (resource, record_idx) DO UPDATE SET
           mark = excluded.mark, note = excluded.note, updated_at = excluded.updated_at,
           reviewed_by = excluded.reviewed_by, team_seq = excluded.team_seq,
           team_author = excluded.team_author, changed_while_away = excluded.changed_while_away`,
        ).run(resource, JSON.stringify(written))
    },
  )
}

/**
 * A record's mark after its events (`events` by number): null while one of
 * them is unsent (the local mark stays), `'none'` when the row goes (no
 * mark, no note, no flag), else the current event, the event whose author
 * and time it shows (an undo shows the state it restored), and the
 * "changed while you were away" flag.
 */
function settledMark(
  events: readonly StoredEvent[],
  me: string | null,
  previousFlag: string | null,
): { current: StoredEvent; shown: StoredEvent; flag: string | null } | 'none' | null {
  if (events.some((event) => event.seq === null)) return null
  const current = events.at(-1)
  if (!current || current.seq === null) return null
  let flag = previousFlag
  if (current.author === me) flag = null
  else if (
    events.some(
      (event) =>
        event.author === me &&
        event.seq !== null &&
        event.seq < current.seq! &&
        event.seq > (current.based_on_seq ?? 0),
    )
  )
    flag = current.author_name ?? current.author
  const shown =
    (current.restores_id && events.find((event) => event.id === current.restores_id)) || current
  if (current.mark === 'none' && current.note === '' && flag === null) return 'none'
  return { current, shown, flag }
}

/**
 * A record's review history, oldest first: the team's events (numbered ones
 * by number, then the unsent ones) and the changes this machine made
 * without a team server (`review_history`, in the order made), the two
 * merged by the time each was made.
 */
export function reviewHistory(
  db: StoreConnection,
  query: { readonly resource: PagedResource; readonly idx: number },
): ReviewHistoryEntry[] {
  const rows = prepared(
    db,
    `SELECT id, mark, note, author, author_name, client_time, seq, server_time
       FROM team_review_events WHERE resource = ? AND record_idx = ?
       ORDER BY seq IS NULL, seq, client_time`,
  ).all(query.resource, query.idx) as unknown as (StoredEvent & { server_time: string | null })[]
  const team = rows.map((row): ReviewHistoryEntry => ({
    id: row.id,
    mark: row.mark,
    note: row.note,
    author: row.author,
    authorName: row.author_name,
    clientTime: row.client_time,
    seq: row.seq,
    serverTime: row.server_time,
    local: false,
  }))
  const localRows = prepared(
    db,
    `SELECT n, mark, note, reviewed_by, client_time FROM review_history
       WHERE resource = ? AND record_idx = ? ORDER BY n`,
  ).all(query.resource, query.idx) as {
    n: number
    mark: ReviewMarkName
    note: string
    reviewed_by: string | null
    client_time: string
  }[]
  const local = localRows.map((row): ReviewHistoryEntry => ({
    id: `local-${row.n}`,
    mark: row.mark,
    note: row.note,
    author: null,
    authorName: row.reviewed_by,
    clientTime: row.client_time,
    seq: null,
    serverTime: null,
    local: true,
  }))
  if (local.length === 0) return team
  // Each part keeps its own order; the two are merged by the time each entry was made.
  const merged: ReviewHistoryEntry[] = []
  let t = 0
  for (const entry of local) {
    while (t < team.length && team[t]!.clientTime <= entry.clientTime) merged.push(team[t++]!)
    merged.push(entry)
  }
  return [...merged, ...team.slice(t)]
}

/**
 * Who this member is, and the people whose marks the lists can be filtered
 * by: the team's members as the worker last read them and any other author
 * of a current mark (a member since removed keeps their marks), by name.
 */
export function teamMembers(db: StoreConnection): TeamMembers {
  const me = teamIdentity(db)?.role ?? null
  const names = memberNames(db)
  const authors = prepared(
    db,
    'SELECT DISTINCT team_author AS role FROM review_marks WHERE team_author IS NOT NULL',
  ).all() as { role: string }[]
  const roles = new Set([...Object.keys(names), ...authors.map((row) => row.role)])
  if (me !== null) roles.add(me)
  const members = [...roles]
    .map((role) => ({ role, name: names[role] || role, onTeam: role in names }))
    .sort((a, b) => a.name.localeCompare(b.name, 'ko') || a.role.localeCompare(b.role))
  return { me, members }
}

/** The member looked at the record: its "changed while you were away" flag is cleared. */
export function ackChanged(
  db: StoreConnection,
  query: { readonly resource: PagedResource; readonly idx: number },
): boolean {
  const result = prepared(
    db,
    `UPDATE review_marks SET changed_while_away = NULL
       WHERE resource = ? AND record_idx = ? AND changed_while_away IS NOT NULL`,
  ).run(query.resource, query.idx)
  if (result.changes > 0) {
    touchCells(db, query.resource, [query.idx])
    bumpDataVersion(db)
  }
  return result.changes > 0
}
