import { guaranteeStateOf } from '../../../shared/domain'
import { msOfLocal } from '../../../shared/local-time'
import { DEFAULT_TIME_ZONE } from '../../../shared/profiles'
import type { ChangeDetail, ChangeFacts, ChangeKind, FieldChange } from '../../../shared/changes'
import type { StoreConnection } from '../connection'
import type { PagedResource } from '../record-types'
import type { SyncMark } from './page-write'
import { prepared } from '../statements'
import { RECORD_TABLES, type PreparedRow, type StoredRow } from '../schema/stored-raw'
import {
  ADD_STATUS_CODE,
  STATUS_CODE_OF,
  STATUS_SINCE_LIST,
  sinceValue,
} from '../schema/status-since'

/**
 * Change detection in the write path (`writes.ts`): while a page is
 * written, each record's stored row is at hand, so what a sync changed is
 * found by comparing it with the new values, only for records that are
 * new, back or changed (an unchanged record costs nothing more). Entries
 * go to `changes`, statuses to `status_history` and `status_since`
 * (migrations 12, 22 and 25, `schema/status-since.ts`; docs/store-and-sync.md
 * "Changes feed and aging").
 *
 * Every record the service holds has a `status_since` row from the first
 * sync that saw it: a record first seen in a status (in the list's first
 * full pass or later, or back without a status seen before) holds it at
 * least since the service's own time of its last change, `modifiedAt` or
 * else its registration, read in the service's zone (`bound` = 1); a status
 * that moves while synced holds it since the sync that saw the move.
 */

/** API names of each table's columns; `raw` holds the fields without one. */
const API_NAMES: Readonly<Record<PagedResource, ReadonlyMap<string, string>>> = {
  guarantees: new Map(RECORD_TABLES.guarantees.columns.map((f) => [f.column, f.api])),
  inspections: new Map(RECORD_TABLES.inspections.columns.map((f) => [f.column, f.api])),
}

type Value = string | number | null

/** The status as kept in `status_history`/`status_since` (`''`: none). */
function statusKey(status: unknown): string {
  return typeof status === 'string' ? status : ''
}

/** A status as `flushChanges` writes it: since when, and whether that is a lower bound. */
interface StatusSeen {
  readonly idx: number
  readonly status: string
  /** Since when it holds it (ms, as `status_since` keeps it): the sync's time, or the service's for a first sight. */
  readonly since: number
  /** True when `since` is only the service's last change (it holds it at least since then). */
  readonly bound: boolean
  /** False for a first sight in the list's baseline: no history row (the timeline names the baseline). */
  readonly history: boolean
}

/**
 * The earliest time (ms) a record known by its stored `values` certainly
 * held its status, as seen by a sync at `syncAt` (ms) in `zone`: its last
 * change on the service (`modified_at`, else `registered_at`) in the
 * service's zone, never after the sync saw it.
 */
function serviceBound(
  values: Readonly<Record<string, unknown>>,
  syncAt: number,
  zone: string,
): number {
  const local = values['modified_at'] ?? values['registered_at']
  const at = typeof local === 'string' ? msOfLocal(local, zone) : null
  return at !== null && !(at >= syncAt) ? at : syncAt
}

/** What one page's writes found; written with {@link flushChanges}. */
export class PageChanges {
  readonly resource: PagedResource
  readonly sync: SyncMark
  /** True while the list's first full pass has not completed: nothing per record is logged. */
  readonly baseline: boolean
  readonly entries: { idx: number; kind: ChangeKind; detail: ChangeDetail }[] = []
  /** Records whose current status was seen now (new, moved, first seen in the baseline). */
  readonly statuses: StatusSeen[] = []
  /** Records back from gone with their status unchanged: their `status_since` comes back. */
  readonly returned: { idx: number; status: string; bound: number }[] = []
  /** The sync's time as `status_since` keeps it (ms), and the zone its service times are read in. */
  readonly #at: number
  readonly #zone: string

  constructor(resource: PagedResource, sync: SyncMark, baseline: boolean) {
    this.resource = resource
    this.sync = sync
    this.baseline = baseline
    // NaN when `sync.at` is no instant: a service time still bounds, and a row that would hold
    // the sync's own time is refused when the page is written (`flushChanges`).
    this.#at = Date.parse(sync.at)
    this.#zone = sync.zone ?? DEFAULT_TIME_ZONE
  }

  #bound(values: Readonly<Record<string, unknown>>): number {
    return serviceBound(values, this.#at, this.#zone)
  }

  /** A record not stored before: it holds its status at least since its last change. */
  added(idx: number, values: PreparedRow['values']): void {
    const status = (values['status'] as string | null) ?? null
    const since = this.#bound(values)
    this.statuses.push({
      idx,
      status: statusKey(status),
      since,
      bound: true,
      history: !this.baseline,
    })
    if (this.baseline) return
    this.entries.push({ idx, kind: 'new', detail: { kind: 'new', status } })
  }

  /** An unchanged record seen again: only `back` when it was gone. */
  touched(idx: number, row: StoredRow): void {
    if (row['gone_at'] === null) return
    this.returned.push({
      idx,
      status: statusKey(row['status']),
      bound: this.#bound(row),
    })
    if (this.baseline) return
    this.entries.push({ idx, kind: 'back', detail: { kind: 'back' } })
  }

  /** A stored record whose written values differ: one entry, of its weightiest kind of change. */
  changed(idx: number, row: StoredRow, values: PreparedRow['values']): void {
    const back = row['gone_at'] !== null
    if (this.baseline) {
      // Seen again in the first pass: a new status is a first sight too.
      if (row['status'] !== values['status']) {
        const since = this.#bound(values)
        const status = statusKey(values['status'])
        this.statuses.push({ idx, status, since, bound: true, history: false })
      } else if (back) {
        const bound = this.#bound(values)
        this.returned.push({ idx, status: statusKey(row['status']), bound })
      }
      return
    }
    const facts: ChangeFacts[] = back ? [{ kind: 'back' }] : []
    const fields: FieldChange[] = []
    const names = API_NAMES[this.resource]
    let statusMoved = false
    for (const column in values) {
      const before = row[column] as Value
      const after = values[column] as Value
      if (before === after) continue
      if (column === 'status') {
        statusMoved = true
        facts.push(this.#statusFacts(before as string | null, after as string | null))
      } else if (column === 'result') {
        facts.push({ kind: 'result', before, after } as ChangeFacts)
      } else if (column === 'raw') {
        fields.push(...rawChanges(before as string, after as string))
      } else fields.push({ field: names.get(column) ?? column, before, after })
    }
    if (fields.length > 0) facts.push({ kind: 'fields', fields })
    const entry = oneEntry(facts)
    if (entry) this.entries.push({ idx, kind: entry.kind, detail: entry })
    if (statusMoved) {
      const status = statusKey(values['status'])
      this.statuses.push({ idx, status, since: this.#at, bound: false, history: true })
    } else if (back) {
      this.returned.push({
        idx,
        status: statusKey(row['status']),
        bound: this.#bound(values),
      })
    }
  }

  #statusFacts(before: string | null, after: string | null): ChangeFacts {
    if (this.resource === 'guarantees') {
      const from = guaranteeStateOf(before)
      const to = guaranteeStateOf(after)
      if (from !== null && to !== null && from !== to) {
        return { kind: 'state', before: from, after: to, beforeLabel: before!, afterLabel: after! }
      }
    }
    return { kind: 'status', before, after }
  }
}

/** The order in which a record's changes of one sync name its entry: the weightiest first. */
const WEIGHT: readonly ChangeKind[] = ['result', 'state', 'status', 'back', 'fields']

/** A record's changes of one sync as one entry: the weightiest, the others in `also`; none for no change. */
function oneEntry(facts: readonly ChangeFacts[]): ChangeDetail | undefined {
  if (facts.length <= 1) return facts[0]
  const sorted = [...facts].sort((a, b) => WEIGHT.indexOf(a.kind) - WEIGHT.indexOf(b.kind))
  const [first, ...also] = sorted
  return { ...first!, also }
}

/** Top-level keys of two stored `raw` JSON objects whose values differ (unreadable: the whole). */
function rawChanges(before: string, after: string): FieldChange[] {
  let a: Record<string, unknown>
  let b: Record<string, unknown>
  try {
    a = JSON.parse(before) as Record<string, unknown>
    b = JSON.parse(after) as Record<string, unknown>
  } catch {
    return [{ field: 'raw', before, after }]
  }
  const out: FieldChange[] = []
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'warnings') continue
    const x = a[key] === undefined ? null : JSON.stringify(a[key])
    const y = b[key] === undefined ? null : JSON.stringify(b[key])
    if (x !== y) out.push({ field: key, before: plain(a[key]), after: plain(b[key]) })
  }
  return out
}

function plain(value: unknown): Value {
  if (value === undefined || value === null) return null
  return typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value)
}

/**
 * The codes of the statuses of `seen` in `status_codes`, added first where
 * missing (a page holds few statuses; read in the page's transaction, so a
 * rolled-back page leaves no code behind in memory either).
 */
function statusCodes(
  db: StoreConnection,
  seen: readonly { readonly status: string }[],
): Map<string, number> {
  const add = prepared(db, ADD_STATUS_CODE)
  const code = prepared(db, 'SELECT code FROM status_codes WHERE status = ?')
  const codes = new Map<string, number>()
  for (const { status } of seen) {
    if (codes.has(status)) continue
    add.run(status)
    codes.set(status, Number((code.get(status) as { code: number | bigint }).code))
  }
  return codes
}

/** Writes a page's entries and statuses (inside the page's transaction). */
export function flushChanges(db: StoreConnection, page: PageChanges): void {
  const { resource, sync } = page
  const list = STATUS_SINCE_LIST[resource]
  if (page.entries.length > 0) {
    const insert = prepared(
      db,
      'INSERT INTO changes (resource, idx, kind, detail, sync_id, at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const e of page.entries) {
      insert.run(resource, e.idx, e.kind, JSON.stringify(e.detail), sync.id, sync.at)
    }
  }
  if (page.statuses.length > 0) {
    const history = prepared(
      db,
      `INSERT OR IGNORE INTO status_history (resource, idx, status, first_seen, sync_id)
       VALUES (?, ?, ?, ?, ?)`,
    )
    const since = prepared(
      db,
      `INSERT INTO status_since (list, idx, status, since, bound)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (list, idx) DO UPDATE SET
         status = excluded.status, since = excluded.since, bound = excluded.bound`,
    )
    const codes = statusCodes(db, page.statuses)
    for (const seen of page.statuses) {
      if (Number.isNaN(seen.since)) throw new RangeError(`Not an instant: ${sync.at}`)
      if (seen.history) history.run(resource, seen.idx, seen.status, sync.at, sync.id)
      since.run(list, seen.idx, codes.get(seen.status)!, seen.since, seen.bound ? 1 : 0)
    }
  }
  // Back with its status: it holds it since it was first seen, else at least since its last
  // change on the service (a status held in the baseline has no history row).
  if (page.returned.length > 0) {
    const firstSeen = prepared(
      db,
      `SELECT first_seen FROM status_history WHERE resource = ? AND idx = ? AND status = ?`,
    )
    const since = prepared(
      db,
      `INSERT OR REPLACE INTO status_since (list, idx, status, since, bound)
       VALUES (?, ?, ?, ?, ?)`,
    )
    const codes = statusCodes(db, page.returned)
    for (const { idx, status, bound } of page.returned) {
      const seen = firstSeen.get(resource, idx, status) as { first_seen: string } | undefined
      const code = codes.get(status)!
      if (seen === undefined) {
        if (Number.isNaN(bound)) throw new RangeError(`Not an instant: ${sync.at}`)
        since.run(list, idx, code, bound, 1)
      } else since.run(list, idx, code, sinceValue(seen.first_seen), 0)
    }
  }
}

/** Logs records a complete full pass no longer found as `gone`; they leave `status_since`. */
export function logGone(
  db: StoreConnection,
  resource: PagedResource,
  gone: readonly number[],
  sync: SyncMark,
): void {
  if (gone.length === 0) return
  const leave = prepared(db, 'DELETE FROM status_since WHERE list = ? AND idx = ?')
  for (const idx of gone) leave.run(STATUS_SINCE_LIST[resource], idx)
  const baseline = prepared(db, 'SELECT 1 FROM change_baselines WHERE resource = ?').get(resource)
  if (baseline === undefined) return
  const insert = prepared(
    db,
    `INSERT INTO changes (resource, idx, kind, detail, sync_id, at)
     VALUES (?, ?, 'gone', '{"kind":"gone"}', ?, ?)`,
  )
  for (const idx of gone) insert.run(resource, idx, sync.id, sync.at)
}

/** True while a list has no baseline yet (its first full pass has not completed). */
export function beforeBaseline(db: StoreConnection, resource: PagedResource): boolean {
  return (
    prepared(db, 'SELECT 1 FROM change_baselines WHERE resource = ?').get(resource) === undefined
  )
}

/** Ends a list's baseline: one `baseline` entry for the `records` it holds. */
export function writeBaseline(
  db: StoreConnection,
  resource: PagedResource,
  records: number,
  sync: SyncMark,
): void {
  prepared(db, 'INSERT INTO change_baselines (resource, at, sync_id) VALUES (?, ?, ?)').run(
    resource,
    sync.at,
    sync.id,
  )
  const detail: ChangeDetail = { kind: 'baseline', records }
  prepared(
    db,
    `INSERT INTO changes (resource, idx, kind, detail, sync_id, at)
     VALUES (?, NULL, 'baseline', ?, ?, ?)`,
  ).run(resource, JSON.stringify(detail), sync.id, sync.at)
}

/** Records read per step of {@link fillStatusBounds}. */
const FILL_CHUNK = 2000

/**
 * Fills the `status_since` rows the lists named in `status_bounds_pending`
 * lack (a store from before migration 22): each record held its status at
 * least since its last change on the service, read in `zone`, and a record
 * first seen new and never moved since holds it at least since then too.
 * Returns how many rows it wrote; run inside a transaction.
 */
export function fillStatusBounds(db: StoreConnection, zone: string, only?: PagedResource): number {
  const pending = (
    prepared(db, 'SELECT resource FROM status_bounds_pending').all() as { resource: string }[]
  )
    .map((row) => row.resource)
    .filter((r): r is PagedResource => r in RECORD_TABLES && (only === undefined || r === only))
  let filled = 0
  for (const resource of pending) {
    const now = Date.now()
    const read = db.prepare(
      `SELECT t.idx, t.status, t.modified_at, t.registered_at, s.since, s.bound
       FROM ${resource} t LEFT JOIN status_since s ON s.list = ? AND s.idx = t.idx
       WHERE t.gone_at IS NULL AND t.idx > ? ORDER BY t.idx LIMIT ?`,
    )
    // A row of a record first seen new whose status has not moved since.
    const neverMoved = db.prepare(
      `SELECT (SELECT count(*) FROM status_history WHERE resource = ? AND idx = ?) = 1
        AND EXISTS (SELECT 1 FROM changes WHERE resource = ? AND idx = ? AND kind = 'new') AS yes`,
    )
    const write = db.prepare(
      `INSERT OR REPLACE INTO status_since (list, idx, status, since, bound)
       VALUES (?, ?, ${STATUS_CODE_OF}, ?, 1)`,
    )
    const add = db.prepare(ADD_STATUS_CODE)
    const list = STATUS_SINCE_LIST[resource]
    let after = -1
    for (;;) {
      const rows = read.all(list, after, FILL_CHUNK) as StoredRow[]
      if (rows.length === 0) break
      for (const row of rows) {
        const idx = Number(row['idx'])
        after = idx
        const bound = serviceBound(row, now, zone)
        const since = row['since'] === null ? null : Number(row['since'])
        if (since !== null) {
          if (row['bound'] === 1 || bound >= since) continue
          const once = neverMoved.get(resource, idx, resource, idx) as { yes: number }
          if (once.yes !== 1) continue
        }
        const status = statusKey(row['status'])
        add.run(status)
        write.run(list, idx, status, bound)
        filled += 1
      }
    }
    prepared(db, 'DELETE FROM status_bounds_pending WHERE resource = ?').run(resource)
  }
  return filled
}
