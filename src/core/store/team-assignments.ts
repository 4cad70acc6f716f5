import { randomUUID } from 'node:crypto'
import type { AssignmentEvent } from './team-events'
import type { StoreConnection } from './connection'
import type { PagedResource } from './record-types'
import { touchCells } from './search/cell-index'
import { prepared } from './statements'
import { bumpDataVersion } from './data-version'

/**
 * Assignments on the store's side (docs/team.md "Assignment"): who each
 * record is assigned to, set here (`assignments.set`: one transaction, one
 * event per record in the outbox) or pulled from the team server. Like a
 * mark, the current assignee is the record's event with the highest server
 * number, unless this machine holds an unsent one (that stays until the
 * server numbered it, after the pulled ones).
 */

/** A record's assignment before an action, for the session's undo. */
export interface AssignmentSnapshot {
  readonly idx: number
  /** The login role; null: nobody. */
  readonly assignee: string | null
  /** The event that set it; null when it was never assigned. */
  readonly eventId: string | null
}

/** What {@link setAssignments} did. */
export interface AssignmentsChanged {
  /** False: the profile has no team server, and nothing was stored. */
  readonly team: boolean
  readonly changed: number
  readonly previous: readonly AssignmentSnapshot[]
}

function snapshotOf(db: StoreConnection, resource: PagedResource, idx: number): AssignmentSnapshot {
  const row = prepared(
    db,
    'SELECT assignee, event_id FROM record_assignments WHERE resource = ? AND record_idx = ?',
  ).get(resource, idx) as { assignee: string; event_id: string } | undefined
  return { idx, assignee: row?.assignee ?? null, eventId: row?.event_id ?? null }
}

/**
 * Assigns records to a member (or to nobody) in the caller's transaction,
 * queueing one event per record whose assignee changes; `restores` (an undo)
 * gives each record its own earlier assignee and the event that set it.
 */
export function setAssignments(
  db: StoreConnection,
  identity: { readonly role: string } | null,
  input: {
    readonly resource: PagedResource
    readonly idxs: readonly number[]
    readonly assignee?: string | null
    readonly restores?: readonly AssignmentSnapshot[]
    readonly clientTime: string
  },
): AssignmentsChanged {
  if (!identity) return { team: false, changed: 0, previous: [] }
  const targets: { idx: number; assignee: string | null; restoresId: string | null }[] =
    input.restores
      ? input.restores.map((state) => ({
          idx: state.idx,
          assignee: state.assignee,
          restoresId: state.eventId,
        }))
      : [...new Set(input.idxs)].map((idx) => ({
          idx,
          assignee: input.assignee ?? null,
          restoresId: null,
        }))
  const basedOn = prepared(
    db,
    'SELECT max(seq) AS seq FROM team_assignment_events WHERE resource = ? AND record_idx = ?',
  )
  const keepEvent = prepared(
    db,
    `INSERT INTO team_assignment_events (id, resource, record_idx, assignee, author, client_time, based_on_seq, restores_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const enqueue = prepared(db, 'INSERT INTO team_outbox (id, draft) VALUES (?, ?)')
  const previous: AssignmentSnapshot[] = []
  const done: number[] = []
  for (const target of targets) {
    const before = snapshotOf(db, input.resource, target.idx)
    if (before.assignee === target.assignee && !input.restores) continue
    const based = (basedOn.get(input.resource, target.idx) as { seq: number | null }).seq
    const id = randomUUID()
    enqueue.run(
      id,
      JSON.stringify({
        kind: 'assignment',
        id,
        resource: input.resource,
        recordIdx: target.idx,
        assignee: target.assignee,
        clientTime: input.clientTime,
        basedOnSeq: based,
        ...(target.restoresId ? { restoresId: target.restoresId } : {}),
      }),
    )
    keepEvent.run(
      id,
      input.resource,
      target.idx,
      target.assignee,
      identity.role,
      input.clientTime,
      based,
      target.restoresId,
    )
    writeCurrent(db, input.resource, target.idx, {
      assignee: target.assignee,
      by: identity.role,
      at: input.clientTime,
      eventId: id,
      seq: null,
    })
    previous.push(before)
    done.push(target.idx)
  }
  if (done.length > 0) {
    touchCells(db, input.resource, done)
    bumpDataVersion(db)
  }
  return { team: true, changed: done.length, previous }
}

function writeCurrent(
  db: StoreConnection,
  resource: PagedResource,
  idx: number,
  current: {
    assignee: string | null
    by: string
    at: string
    eventId: string
    seq: number | null
  },
): void {
  if (current.assignee === null) {
    prepared(db, 'DELETE FROM record_assignments WHERE resource = ? AND record_idx = ?').run(
      resource,
      idx,
    )
    return
  }
  prepared(
    db,
    `INSERT INTO record_assignments (resource, record_idx, assignee, assigned_by, assigned_at, event_id, team_seq)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (resource, record_idx) DO UPDATE SET assignee = excluded.assignee,
       assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at,
       event_id = excluded.event_id, team_seq = excluded.team_seq`,
  ).run(resource, idx, current.assignee, current.by, current.at, current.eventId, current.seq)
}

/**
 * Keeps pulled assignment events (by id: a page applied twice changes
 * nothing) and settles each record they touch; answers the records by list.
 * Runs inside `applyPulled`'s transaction.
 */
export function applyPulledAssignments(
  db: StoreConnection,
  events: readonly AssignmentEvent[],
): Map<PagedResource, Set<number>> {
  const upsert = prepared(
    db,
    `INSERT INTO team_assignment_events
       (id, resource, record_idx, assignee, author, client_time, based_on_seq, seq, server_time, restores_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, author = excluded.author,
       server_time = excluded.server_time`,
  )
  const touched = new Map<PagedResource, Set<number>>()
  for (const event of events) {
    upsert.run(
      event.id,
      event.resource,
      event.recordIdx,
      event.assignee,
      event.author,
      event.clientTime,
      event.basedOnSeq,
      event.seq,
      event.serverTime,
      event.restoresId ?? null,
    )
    let records = touched.get(event.resource)
    if (!records) touched.set(event.resource, (records = new Set()))
    records.add(event.recordIdx)
  }
  for (const [resource, records] of touched) {
    for (const idx of records) settleAssignment(db, resource, idx)
  }
  return touched
}

/** Makes a record's assignee its current team event, unless an unsent one of this machine waits. */
export function settleAssignment(db: StoreConnection, resource: PagedResource, idx: number): void {
  const events = prepared(
    db,
    `SELECT id, assignee, author, client_time, seq FROM team_assignment_events
      WHERE resource = ? AND record_idx = ? ORDER BY seq`,
  ).all(resource, idx) as {
    id: string
    assignee: string | null
    author: string
    client_time: string
    seq: number | null
  }[]
  if (events.some((event) => event.seq === null)) return
  const current = events.at(-1)
  if (!current) return
  writeCurrent(db, resource, idx, {
    assignee: current.assignee,
    by: current.author,
    at: current.client_time,
    eventId: current.id,
    seq: current.seq,
  })
}
