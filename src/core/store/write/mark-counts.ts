import type { StoreConnection } from '../connection'
import type { PagedResource } from '../record-types'
import { prepared } from '../statements'

/**
 * Review marks of many records counted once (migration 23): while `write`
 * runs, the `review_marks` triggers leave the list counts alone; the
 * records' counted marks (`''` for no mark or `none`) are read before and
 * after, and the records whose mark moved change their count cells
 * (`list_counts`, `list_day_counts`) by one sum per cell. Runs in the
 * caller's transaction; `idxs` must name every record `write` marks,
 * changes or clears in `resource`.
 */
export function withMarksCountedOnce<T>(
  db: StoreConnection,
  resource: PagedResource,
  idxs: readonly number[],
  write: () => T,
): T {
  if (idxs.length === 0) return write()
  const list = JSON.stringify(idxs)
  // Only a stored, not-gone record counts (as the triggers count).
  const before = prepared(
    db,
    `SELECT t.idx, t.status, substr(t.registered_at, 1, 10) AS day,
       (SELECT m.mark FROM review_marks m WHERE m.resource = ?1 AND m.record_idx = t.idx) AS mark
     FROM json_each(?2) j CROSS JOIN ${resource} t ON t.idx = j.value WHERE t.gone_at IS NULL`,
  ).all(resource, list) as {
    idx: number
    status: string | null
    day: string | null
    mark: string | null
  }[]
  prepared(db, 'INSERT INTO mark_counts_held (held) VALUES (1)').run()
  let result: T
  try {
    result = write()
  } finally {
    prepared(db, 'DELETE FROM mark_counts_held').run()
  }
  const after = new Map(
    (
      prepared(
        db,
        `SELECT j.value AS idx,
           (SELECT m.mark FROM review_marks m WHERE m.resource = ?1 AND m.record_idx = j.value) AS mark
         FROM json_each(?2) j`,
      ).all(resource, list) as { idx: number; mark: string | null }[]
    ).map((row) => [Number(row.idx), counted(row.mark)]),
  )
  // Cell key → [has_status, status, day, mark, change]; a record counted twice is counted once.
  const cells = new Map<string, [number, string, string, string, number]>()
  const move = (record: (typeof before)[number], mark: string, delta: 1 | -1): void => {
    const key = `${record.status === null ? 0 : 1}\u0000${record.status ?? ''}\u0000${record.day ?? ''}\u0000${mark}`
    const cell = cells.get(key)
    if (cell) cell[4] += delta
    else
      cells.set(key, [
        record.status === null ? 0 : 1,
        record.status ?? '',
        record.day ?? '',
        mark,
        delta,
      ])
  }
  const seen = new Set<number>()
  for (const record of before) {
    const idx = Number(record.idx)
    if (seen.has(idx)) continue
    seen.add(idx)
    const was = counted(record.mark)
    const now = after.get(idx) ?? ''
    if (was === now) continue
    move(record, was, -1)
    move(record, now, 1)
  }
  const total = prepared(
    db,
    `INSERT INTO list_counts (resource, has_status, status, mark, n) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  )
  const daily = prepared(
    db,
    `INSERT INTO list_day_counts (resource, day, has_status, status, mark, n) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  )
  const sums = new Map<string, [number, string, string, number]>()
  for (const [hasStatus, status, day, mark, n] of cells.values()) {
    if (n === 0) continue
    daily.run(resource, day, hasStatus, status, mark, n)
    const key = `${hasStatus}\u0000${status}\u0000${mark}`
    const sum = sums.get(key)
    if (sum) sum[3] += n
    else sums.set(key, [hasStatus, status, mark, n])
  }
  for (const [hasStatus, status, mark, n] of sums.values())
    if (n !== 0) total.run(resource, hasStatus, status, mark, n)
  return result
}

/** The counted mark of a stored `review_marks.mark` (NULL: no row). */
function counted(mark: string | null): string {
  return mark === null || mark === 'none' ? '' : mark
}
