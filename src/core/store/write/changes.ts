import type { SQLOutputValue } from 'node:sqlite'
import { guaranteeStateOf } from '../../../shared/domain'
import type { ChangeDetail, ChangeFacts, ChangeKind, FieldChange } from '../../../shared/changes'
import type { StoreConnection } from '../connection'
import type { PagedResource } from '../record-types'
import type { SyncMark } from './page-write'
import { prepared } from '../statements'
import { RECORD_TABLES, type PreparedRow } from '../schema/stored-raw'

/**
 * Change detection in the write path (`writes.ts`): while a page is
 * written, each record's stored row is at hand, so what a sync changed is
 * found by comparing it with the new values, only for records that are
 * new, back or changed (an unchanged record costs nothing more). Entries
 * go to `changes`, statuses to `status_history` and `status_since`
 * (migration 12; docs/store-and-sync.md "Changes feed and aging").
 */

/** API names of each table's columns; `raw` holds the fields without one. */
const API_NAMES: Readonly<Record<PagedResource, ReadonlyMap<string, string>>> = {
  guarantees: new Map(RECORD_TABLES.guarantees.columns.map((f) => [f.column, f.api])),
  inspections: new Map(RECORD_TABLES.inspections.columns.map((f) => [f.column, f.api])),
}

type StoredRow = Record<string, SQLOutputValue>
type Value = string | number | null

/** The status as kept in `status_history`/`status_since` (`''`: none). */
function statusKey(status: unknown): string {
  return typeof status === 'string' ? status : ''
}

/** What one page's writes found; written with {@link flushChanges}. */
export class PageChanges {
  readonly resource: PagedResource
  readonly sync: SyncMark
  /** True while the list's first full pass has not completed: nothing per record is logged. */
  readonly baseline: boolean
  readonly entries: { idx: number; kind: ChangeKind; detail: ChangeDetail }[] = []
  /** Records whose current status was seen now (new, moved). */
  readonly statuses: { idx: number; status: string }[] = []
  /** Records back from gone with their status unchanged: their `status_since` comes back. */
  readonly returned: { idx: number; status: string }[] = []

  constructor(resource: PagedResource, sync: SyncMark, baseline: boolean) {
    this.resource = resource
    this.sync = sync
    this.baseline = baseline
  }

  /** A record not stored before. */
  added(idx: number, values: PreparedRow['values']): void {
    if (this.baseline) return
    const status = (values['status'] as string | null) ?? null
    this.entries.push({ idx, kind: 'new', detail: { kind: 'new', status } })
    this.statuses.push({ idx, status: statusKey(status) })
  }

  /** An unchanged record seen again: only `back` when it was gone. */
  touched(idx: number, row: StoredRow): void {
    if (this.baseline || row['gone_at'] === null) return
    this.entries.push({ idx, kind: 'back', detail: { kind: 'back' } })
    this.returned.push({ idx, status: statusKey(row['status']) })
  }

  /** A stored record whose written values differ: one entry, of its weightiest kind of change. */
  changed(idx: number, row: StoredRow, values: PreparedRow['values']): void {
    if (this.baseline) return
    const back = row['gone_at'] !== null
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
    if (statusMoved) this.statuses.push({ idx, status: statusKey(values['status']) })
    else if (back) this.returned.push({ idx, status: statusKey(row['status']) })
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

/** Writes a page's entries and statuses (inside the page's transaction). */
export function flushChanges(db: StoreConnection, page: PageChanges): void {
  const { resource, sync } = page
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
      `INSERT INTO status_since (resource, idx, status, since) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource, idx) DO UPDATE SET status = excluded.status, since = excluded.since`,
    )
    for (const { idx, status } of page.statuses) {
      history.run(resource, idx, status, sync.at, sync.id)
      since.run(resource, idx, status, sync.at)
    }
  }
  // Back with its status: it holds it since it was first seen (no history row: since the baseline).
  if (page.returned.length > 0) {
    const since = prepared(
      db,
      `INSERT OR REPLACE INTO status_since (resource, idx, status, since)
       SELECT resource, idx, status, first_seen FROM status_history
       WHERE resource = ? AND idx = ? AND status = ?`,
    )
    for (const { idx, status } of page.returned) since.run(resource, idx, status)
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
  const baseline = prepared(db, 'SELECT 1 FROM change_baselines WHERE resource = ?').get(resource)
  if (baseline === undefined) return
  const insert = prepared(
    db,
    `INSERT INTO changes (resource, idx, kind, detail, sync_id, at)
     VALUES (?, ?, 'gone', '{"kind":"gone"}', ?, ?)`,
  )
  const leave = prepared(db, 'DELETE FROM status_since WHERE resource = ? AND idx = ?')
  for (const idx of gone) {
    insert.run(resource, idx, sync.id, sync.at)
    leave.run(resource, idx)
  }
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
