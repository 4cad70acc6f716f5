import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, describe, expect, it } from 'vitest'
import { inIdxOrder, listCount, storedCells, summarise } from '../../../src/core/store/write/counts'
import { migrate, openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import {
  queryGuarantees,
  queryInspections,
  recordCount,
} from '../../../src/core/store/queries/list-queries'
import type { ListRequest } from '../../../src/core/store/queries/list-sql'
import {
  restoreReviews,
  setReview,
  setReviews,
  type ReviewSnapshot,
} from '../../../src/core/store/queries/reviews'
import { applyPulled, configureTeam, readOutbox } from '../../../src/core/store/team-side'
import type { ReviewEvent } from '../../../src/core/store/team-events'
import { markUnseenGone } from '../../../src/core/store/write/writes'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import type { PagedResource } from '../../../src/core/store/record-types'
import type { ReviewMarkName } from '../../../src/shared/lists'
import { startHarness } from '../sync/harness'
import { guarantee, insertAsStored, inspection, tempDir } from './fixtures'

/** Every cell of a list counted the slow way, in the stored cells' shape. */
function scanned(db: StoreConnection, list: PagedResource, where = 'true'): Record<string, number> {
  const rows = db
    .prepare(
      `SELECT t.status AS status,
         CASE WHEN r.mark IS NULL OR r.mark = 'none' THEN '' ELSE r.mark END AS mark, count(*) AS n
       FROM ${list} t LEFT JOIN review_marks r ON r.resource = '${list}' AND r.record_idx = t.idx
       WHERE t.gone_at IS NULL AND ${where} GROUP BY 1, 2`,
    )
    .all() as { status: string | null; mark: string; n: number }[]
  return Object.fromEntries(rows.map((row) => [`${row.status}|${row.mark}`, row.n]))
}

function stored(
  db: StoreConnection,
  list: PagedResource,
  range: { from?: string; to?: string } = {},
): Record<string, number> {
  return Object.fromEntries(
    storedCells(db, list, range)
      .filter((cell) => cell.n !== 0)
      .map((cell) => [`${cell.status}|${cell.mark}`, cell.n]),
  )
}

/** The stored counts equal COUNT(*) for the whole list, a day range, and the total. */
function expectCountsMatch(db: StoreConnection, list: PagedResource): void {
  expect(stored(db, list)).toEqual(scanned(db, list))
  const days = db
    .prepare(`SELECT DISTINCT substr(registered_at, 1, 10) AS day FROM ${list} ORDER BY 1`)
    .all() as { day: string }[]
  if (days.length > 2) {
    const from = days[1]!.day
    const to = days.at(-2)!.day
    expect(stored(db, list, { from, to })).toEqual(
      scanned(
        db,
        list,
        `t.registered_at >= '${from} 00:00:00' AND substr(t.registered_at, 1, 10) <= '${to}'`,
      ),
    )
  }
  const total = (
    db.prepare(`SELECT count(*) AS n FROM ${list} WHERE gone_at IS NULL`).get() as { n: number }
  ).n
  expect(listCount(db, list)).toBe(total)
  expect(recordCount(db, list)).toBe(total)
}

describe('stored counts follow every write', () => {
  let temp: ReturnType<typeof tempDir> | undefined
  let db: StoreConnection | undefined
  afterEach(() => {
    db?.close()
    temp?.remove()
    db = undefined
    temp = undefined
  })

  it('inserts, status changes, gone and back, deletes and review marks, checked against COUNT(*)', () => {
    temp = tempDir()
    const store = openStore(storeFileFor(temp.dir, 'sandbox'))
    db = store.db
    const d = db
    const statusOf = (i: number): string | null =>
      i % 5 === 0 ? null : ['배송완료', '감정접수', '감정승인(배송중)'][i % 3]!
    const items = Array.from({ length: 60 }, (_, i) =>
      inspection(i + 1, { inspectionStatus: statusOf(i) }),
    )
    transaction(d, () => upsertInspections(d, items, 1, 'now'))
    transaction(d, () =>
      upsertGuarantees(
        d,
        Array.from({ length: 10 }, (_, i) => guarantee(i + 1)),
        1,
        'now',
      ),
    )
    expectCountsMatch(d, 'inspections')
    expectCountsMatch(d, 'guarantees')

    const review = (idx: number, mark: ReviewMarkName, note?: string): void => {
      transaction(d, () => {
        setReview(d, {
          resource: 'inspections',
          idx,
          mark,
          note,
          by: 'kim',
          at: '2025-03-01 10:00:00',
        })
      })
    }
    review(3, 'reviewed')
    review(4, 'follow_up')
    review(5, 'none', 'only a note')
    review(6, 'reviewed')
    expectCountsMatch(d, 'inspections')
    review(3, 'follow_up') // changed
    review(6, 'none') // cleared, no note: the row goes
    review(4, 'none', 'kept note') // cleared, the note stays
    expectCountsMatch(d, 'inspections')
    expect(queryInspections(d, {}).reviewCounts).toEqual({ reviewed: 0, follow_up: 1, none: 59 })

    // Moved: a re-sync changes statuses, and a changed registration day.
    const moved = items.slice(0, 20).map((item, i) => ({
      ...item,
      inspectionStatus: i % 2 === 0 ? '배송완료' : null,
      registeredAt: i === 7 ? '2025-02-28 09:00:00' : item.registeredAt,
    }))
    transaction(d, () => upsertInspections(d, moved, 2, 'later'))
    expectCountsMatch(d, 'inspections')

    // Gone: a full pass that saw only the first 40; a marked record among the gone.
    review(50, 'reviewed')
    transaction(d, () => upsertInspections(d, items.slice(20, 40), 2, 'later'))
    transaction(d, () => markUnseenGone(d, 'inspections', 2, 'later'))
    expectCountsMatch(d, 'inspections')
    expect(listCount(d, 'inspections')).toBe(40)
    // A mark set on a gone record counts nowhere until it comes back.
    review(55, 'follow_up')
    expectCountsMatch(d, 'inspections')

    // Back: seen again in the next pass, unchanged (only marked seen).
    transaction(d, () => upsertInspections(d, items.slice(45), 3, 'again'))
    expectCountsMatch(d, 'inspections')
    expect(queryInspections(d, { review: 'reviewed' }).total).toBe(1)
    expect(queryInspections(d, { review: 'follow_up' }).total).toBe(2)

    // Deleted rows and marks of deleted rows.
    d.prepare('DELETE FROM inspections WHERE idx IN (50, 51, 52)').run()
    d.prepare("DELETE FROM review_marks WHERE resource = 'inspections' AND record_idx = 55").run()
    expectCountsMatch(d, 'inspections')
    expectCountsMatch(d, 'guarantees')
  })

  it('bulk marks, their undo and pulled pages count once per write, as COUNT(*) does', () => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    const d = db
    const statusOf = (i: number): string | null =>
      i % 7 === 0 ? null : ['배송완료', '감정접수', '감정승인(배송중)'][i % 3]!
    const items = Array.from({ length: 120 }, (_, i) =>
      inspection(i + 1, {
        inspectionStatus: statusOf(i),
        registeredAt: `2025-0${(i % 3) + 1}-1${i % 9} 10:00:00`,
      }),
    )
    transaction(d, () => upsertInspections(d, items, 1, 'now'))
    // Some marked one at a time first; one record gone (it counts nowhere).
    for (const idx of [3, 4, 5]) {
      transaction(d, () =>
        setReview(d, { resource: 'inspections', idx, mark: 'reviewed', by: 'kim', at: 'x' }),
      )
    }
    transaction(d, () => upsertInspections(d, items.slice(0, 119), 2, 'later'))
    transaction(d, () => markUnseenGone(d, 'inspections', 2, 'later'))
    expectCountsMatch(d, 'inspections')
    const bulk = (idxs: number[], mark: ReviewMarkName | undefined, note?: string) =>
      transaction(d, () =>
        setReviews(d, {
          resource: 'inspections',
          idxs,
          mark,
          note,
          by: 'kim',
          at: '2025-03-01 10:00:00',
          clientTime: '2025-03-01T01:00:00.000Z',
        }),
      )
    const all = items.map((item) => item.idx)
    // Without a team: marked, changed, a note only, cleared (the rows go), an idx twice.
    const first = bulk([...all.slice(0, 80), 2, 2, 120], 'follow_up')
    expectCountsMatch(d, 'inspections')
    bulk(all.slice(40, 100), 'reviewed')
    expectCountsMatch(d, 'inspections')
    bulk(all.slice(90, 110), undefined, 'only a note')
    bulk(all.slice(0, 30), 'none', '')
    expectCountsMatch(d, 'inspections')
    expect(queryInspections(d, { review: 'follow_up' }).total).toBe(10)
    // An undo brings the first bulk's records back to what they were.
    transaction(d, () =>
      restoreReviews(d, {
        resource: 'inspections',
        states: first.previous,
        at: 'x',
        clientTime: '2025-03-01T01:00:00.000Z',
      }),
    )
    expectCountsMatch(d, 'inspections')

    // With a team: a bulk mark, then the server's numbered events of another member.
    transaction(d, () =>
      configureTeam(d, {
        identity: { role: 'minji', displayName: '민지' },
        members: [{ role: 'jisoo', displayName: '지수' }],
      }),
    )
    const mine = bulk(all.slice(20, 70), 'reviewed')
    expectCountsMatch(d, 'inspections')
    let seq = 0
    const numbered = readOutbox(d, 1000).map((draft): ReviewEvent => ({
      ...(draft as Omit<ReviewEvent, 'seq' | 'author' | 'serverTime'>),
      seq: (seq += 1),
      author: 'minji',
      serverTime: '2025-03-01T01:00:01.000Z',
    }))
    const theirs = (idx: number, mark: ReviewMarkName, note: string): ReviewEvent => ({
      kind: 'review',
      id: crypto.randomUUID(),
      resource: 'inspections',
      recordIdx: idx,
      mark,
      note,
      clientTime: '2025-03-01T02:00:00.000Z',
      basedOnSeq: null,
      partnerId: 'P-1',
      seq: (seq += 1),
      author: 'jisoo',
      serverTime: '2025-03-01T02:00:01.000Z',
    })
    const later = [
      ...all.slice(60, 90).map((idx) => theirs(idx, 'follow_up', '')),
      ...all.slice(85, 100).map((idx) => theirs(idx, 'none', '')),
    ]
    for (const events of [numbered.slice(0, 25), numbered.slice(25), later]) {
      transaction(d, () =>
        applyPulled(d, { events, upToSeq: events.at(-1)!.seq, timeZone: 'Asia/Seoul' }),
      )
      expectCountsMatch(d, 'inspections')
    }
    // The member's undo of their bulk: states as they were, counted once more.
    const undone = mine.previous.filter((state: ReviewSnapshot) => state.idx < 60)
    transaction(d, () =>
      restoreReviews(d, { resource: 'inspections', states: undone, at: 'x', clientTime: 'y' }),
    )
    expectCountsMatch(d, 'inspections')
    expect(d.prepare('SELECT count(*) AS n FROM mark_counts_held').get()).toEqual({ n: 0 })
  })

  it('migration 7 builds the counts of an existing database', () => {
    temp = tempDir()
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 6 }).db
    transaction(old, () =>
      insertAsStored(
        old,
        'inspections',
        Array.from({ length: 30 }, (_, i) =>
          inspection(i + 1, { inspectionStatus: i % 4 === 0 ? null : '배송완료' }),
        ),
      ),
    )
    old
      .prepare(
        "INSERT INTO review_marks (resource, record_idx, mark, note, updated_at) VALUES ('inspections', 2, 'reviewed', '', 'x'), ('inspections', 3, 'none', 'n', 'x'), ('inspections', 4, 'follow_up', '', 'x')",
      )
      .run()
    old.prepare("UPDATE inspections SET gone_at = 'then' WHERE idx IN (4, 9)").run()
    migrate(old)
    db = old
    expectCountsMatch(db, 'inspections')
    expect(summarise(storedCells(db, 'inspections', {}), undefined, undefined)).toMatchObject({
      total: 28,
      reviewCounts: { reviewed: 1, follow_up: 0, none: 27 },
    })
    // The fixtures register records out of idx order (day = idx % 28).
    expect(inIdxOrder(db, 'inspections')).toBe(false)
  })
})

describe('list order', () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection
  afterEach(() => {
    db.close()
    temp.remove()
  })

  const at = (day: number): string => `2025-01-${String(day).padStart(2, '0')} 10:00:00`

  /** The list's order the slow way: by (registered_at, idx). */
  const sorted = (query: ListRequest): number[] => {
    const dir = query.sort === 'oldest' ? 'ASC' : 'DESC'
    return (
      db
        .prepare(
          `SELECT idx FROM inspections WHERE gone_at IS NULL AND idx IN (SELECT rowid FROM inspections_fts WHERE inspections_fts MATCH 't : "샤넬"')
           ORDER BY registered_at ${dir}, idx ${dir}`,
        )
        .all() as { idx: number }[]
    ).map((row) => row.idx)
  }

  const paged = (query: ListRequest): number[] => {
    const out: number[] = []
    let cursor: string | undefined
    for (;;) {
      const page = queryInspections(db, { ...query, limit: 3, ...(cursor ? { cursor } : {}) })
      out.push(...page.rows.map((row) => row.idx))
      if (!page.nextCursor) return out
      cursor = page.nextCursor
    }
  }

  it('walks text by idx only while idx order is registration order; never a wrong order', () => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    const items = Array.from({ length: 12 }, (_, i) =>
      inspection(i + 1, { productName: `샤넬 백 ${i + 1}`, registeredAt: at(i + 1) }),
    )
    const put = (idx: number, productName: string, day: number): void => {
      const item = inspection(idx, { productName, registeredAt: at(day) })
      transaction(db, () => upsertInspections(db, [item], 1, 'now'))
    }
    const expectListOrder = (): void => {
      for (const sort of ['latest', 'oldest'] as const) {
        expect(paged({ q: '샤넬', sort })).toEqual(sorted({ q: '샤넬', sort }))
      }
    }
    transaction(db, () => upsertInspections(db, items.slice().reverse(), 1, 'now'))
    expect(inIdxOrder(db, 'inspections')).toBe(true)
    expectListOrder()

    // A record registered out of order: the list sorts its matches instead.
    put(13, '샤넬 지갑', 2)
    expect(inIdxOrder(db, 'inspections')).toBe(false)
    expectListOrder()
    expect(paged({ q: '샤넬' }).slice(-4)).toEqual([3, 13, 2, 1])

    // Its date corrected: idx order again.
    put(13, '샤넬 지갑', 20)
    expect(inIdxOrder(db, 'inspections')).toBe(true)
    // A stored record's date moved out of order, then the record deleted.
    put(7, '샤넬 7', 25)
    expect(inIdxOrder(db, 'inspections')).toBe(false)
    expectListOrder()
    db.prepare('DELETE FROM inspections WHERE idx = 7').run()
    db.prepare('DELETE FROM inspections_fts WHERE rowid = 7').run()
    expect(inIdxOrder(db, 'inspections')).toBe(true)
    // A new record inserted between two others, out of order.
    put(7, '샤넬 7', 1)
    expect(inIdxOrder(db, 'inspections')).toBe(false)
    expectListOrder()
    put(7, '샤넬 7', 7)
    expect(inIdxOrder(db, 'inspections')).toBe(true)
    expect(paged({ q: '샤넬', sort: 'oldest' })).toEqual(sorted({ q: '샤넬', sort: 'oldest' }))
  })
})

describe('list order kept by the writer', () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection
  afterEach(() => {
    db.close()
    temp.remove()
  })

  /** Inversions counted the slow way, as migration 7 first counts them. */
  const recounted = (): number =>
    (
      db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT registered_at > lead(registered_at) OVER (ORDER BY idx) AS inverted FROM inspections) WHERE inverted`,
        )
        .get() as { n: number }
    ).n
  const stored = (): number =>
    (
      db.prepare("SELECT inversions FROM list_order WHERE resource = 'inspections'").get() as {
        inversions: number
      }
    ).inversions

  it('pages of new records between, beside and far from stored ones, times moved: the count equals a recount', () => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    // A small deterministic generator, so a failure can be replayed.
    let seed = 7
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const day = (d: number): string => `2025-0${1 + (d % 9)}-1${d % 10} 10:00:00`
    // Evens first: later pages land between stored rows (read in memory) or
    // spread over hundreds of them (counted per record), some with moved times.
    const evens = Array.from({ length: 300 }, (_, i) =>
      inspection(2 * i + 2, { registeredAt: day(i) }),
    )
    transaction(db, () => upsertInspections(db, evens, 1, 'now'))
    expect(stored()).toBe(recounted())
    for (let round = 0; round < 40; round += 1) {
      const size = 1 + next(12)
      const start = next(600)
      const spread = round % 3 === 0 ? 50 : 1
      const page = Array.from({ length: size }, (_, i) =>
        inspection(start + i * spread + 1, { registeredAt: day(next(30)) }),
      )
      transaction(db, () => upsertInspections(db, page, 2, 'later'))
      expect(stored()).toBe(recounted())
    }
  })
})

describe('counts after real syncs', () => {
  let h: Awaited<ReturnType<typeof startHarness>>
  afterEach(async () => {
    await h.close()
  })

  it('new, moved and gone records and review changes: stored counts equal COUNT(*)', async () => {
    h = await startHarness({ size: 300 })
    const hidden = new Set([7, 8, 9, 150])
    // First sync: a few records not there yet.
    h.proxy.fault = (_url, body) => ({
      ...body,
      total: body.total - hidden.size,
      data: body.data.filter((item) => !hidden.has(Number(item['idx']))),
    })
    await h.engine.run(['inspections', 'guarantees'], 'full')
    expect(h.count('inspections')).toBe(300 - hidden.size)
    expectCountsMatch(h.db, 'inspections')
    expectCountsMatch(h.db, 'guarantees')
    for (const idx of [10, 11, 12]) {
      await h.store.call('setReview', {
        resource: 'inspections',
        idx,
        mark: 'reviewed',
        by: null,
        at: 'x',
      })
    }
    await h.store.call('setReview', {
      resource: 'guarantees',
      idx: 20,
      mark: 'follow_up',
      by: null,
      at: 'x',
    })

    // Second full pass: the hidden ones are new, some move to another status, two are gone.
    h.proxy.fault = (_url, body) => {
      const data = body.data
        .filter((item) => item['idx'] !== 11 && item['idx'] !== 40)
        .map((item) =>
          Number(item['idx']) % 10 === 0
            ? { ...item, inspectionStatus: '감정반려', status: '발급취소' }
            : item,
        )
      return { ...body, total: body.total - 2, data }
    }
    const outcomes = await h.engine.run(['inspections', 'guarantees'], 'full')
    expect(outcomes.map((o) => o.phase)).toEqual(['done', 'done'])
    expect(h.count('inspections', 'gone_at IS NOT NULL')).toBe(2)
    await h.store.call('setReview', {
      resource: 'inspections',
      idx: 12,
      mark: 'follow_up',
      by: null,
      at: 'y',
    })
    await h.store.call('setReview', {
      resource: 'inspections',
      idx: 10,
      mark: 'none',
      by: null,
      at: 'y',
    })
    expectCountsMatch(h.db, 'inspections')
    expectCountsMatch(h.db, 'guarantees')
    const page = queryInspections(h.db, {})
    expect(page.total).toBe(h.count('inspections', 'gone_at IS NULL'))
    expect(page.reviewCounts).toMatchObject({ reviewed: 0, follow_up: 1 })
    expect(queryGuarantees(h.db, { state: 'cancel' }).total).toBe(
      h.count('guarantees', "gone_at IS NULL AND status = '발급취소'"),
    )
  })
})
