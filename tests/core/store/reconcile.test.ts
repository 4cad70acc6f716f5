import { describe, expect, it } from 'vitest'
import type { StoreConnection } from '../../../src/core/store/connection'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { queryReconcile, reconcileGroups } from '../../../src/core/store/queries/reconcile'
import { insertWalletLink } from '../../../src/core/store/queries/wallet-history'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import type { GuaranteeRecord, InspectionRecord } from '../../../src/core/store/record-types'
import { RECONCILE_KINDS, type ReconcileKind } from '../../../src/shared/reconcile'
import { guarantee, insertAsStored, inspection, storePerTest, tempDir } from './fixtures'

const store = storePerTest()

const AUTHENTIC = '정품'
const CANCEL = '발급취소'

function writeInspections(db: StoreConnection, items: readonly InspectionRecord[]): void {
  transaction(db, () => upsertInspections(db, items, 1, 'now'))
}

function writeGuarantees(db: StoreConnection, items: readonly GuaranteeRecord[]): void {
  transaction(db, () => upsertGuarantees(db, items, 1, 'now'))
}

function completedLink(db: StoreConnection, member: string, outcome = 'completed' as const): void {
  transaction(db, () =>
    insertWalletLink(db, {
      flow: 'pre-sync',
      refUserId: member,
      guaranteeIdx: null,
      outcome,
      detail: null,
      startedAt: '2026-11-20T01:00:00.000Z',
      endedAt: '2026-11-20T01:01:00.000Z',
    }),
  )
}

/** `kind member order detail resource:idx` of every record the view lists, sorted. */
function listed(db: StoreConnection, kind?: ReconcileKind, member?: string): string[] {
  const lines: string[] = []
  for (const group of reconcileGroups(db, { kind, member })) {
    for (const record of group.records) {
      lines.push(
        `${group.kind} ${group.member ?? '-'} ${group.orderId ?? '-'} ${group.orderDetailId ?? '-'} ${record.resource}:${record.idx}`,
      )
    }
  }
  return lines.sort()
}

/** The same, computed the slow way from the tables, straight from the definitions. */
function expected(db: StoreConnection): string[] {
  const inspections = db.prepare('SELECT * FROM inspections WHERE gone_at IS NULL').all() as {
    idx: number
    result: string | null
    ref_user_id: string
    ref_order_id: string
    ref_order_detail_id: string
  }[]
  const guarantees = db.prepare('SELECT * FROM guarantees WHERE gone_at IS NULL').all() as {
    idx: number
    status: string
    ref_user_id: string | null
    ref_order_id: string | null
    ref_order_detail_id: string | null
  }[]
  const linked = new Set(
    (
      db.prepare(`SELECT ref_user_id FROM wallet_links WHERE outcome = 'completed'`).all() as {
        ref_user_id: string
      }[]
    ).map((row) => row.ref_user_id),
  )
  const line = (o: string | null, d: string | null) => (o && d ? `${o}\u0000${d}` : null)
  const guaranteedLines = new Set(
    guarantees.map((g) => line(g.ref_order_id, g.ref_order_detail_id)).filter(Boolean),
  )
  const out: string[] = []
  for (const i of inspections) {
    const key = line(i.ref_order_id, i.ref_order_detail_id)
    if (i.result === AUTHENTIC && key && !guaranteedLines.has(key)) {
      out.push(
        `unguaranteed ${i.ref_user_id || '-'} ${i.ref_order_id} ${i.ref_order_detail_id} inspections:${i.idx}`,
      )
    }
  }
  const perMemberLine = new Map<string, number>()
  for (const g of guarantees) {
    const key = line(g.ref_order_id, g.ref_order_detail_id)
    if (g.ref_user_id && key) {
      perMemberLine.set(
        `${g.ref_user_id}\u0000${key}`,
        (perMemberLine.get(`${g.ref_user_id}\u0000${key}`) ?? 0) + 1,
      )
    }
  }
  for (const g of guarantees) {
    const o = g.ref_order_id || '-'
    const d = g.ref_order_detail_id || '-'
    if (g.status === CANCEL)
      out.push(`cancelled ${g.ref_user_id || '-'} ${o} ${d} guarantees:${g.idx}`)
    if (g.ref_user_id && !linked.has(g.ref_user_id)) {
      out.push(`unlinked ${g.ref_user_id} - - guarantees:${g.idx}`)
    }
    const key = line(g.ref_order_id, g.ref_order_detail_id)
    if (g.ref_user_id && key && (perMemberLine.get(`${g.ref_user_id}\u0000${key}`) ?? 0) >= 2) {
      out.push(`duplicate ${g.ref_user_id} ${o} ${d} guarantees:${g.idx}`)
    }
  }
  return out.sort()
}

/** The totals per kind, from the lines. */
function tally(lines: readonly string[]): Record<ReconcileKind, number> {
  const totals = Object.fromEntries(RECONCILE_KINDS.map((k) => [k, 0])) as Record<
    ReconcileKind,
    number
  >
  for (const line of lines) totals[line.split(' ')[0] as ReconcileKind] += 1
  return totals
}

/** A dataset whose answer is written out below. */
function known(db: StoreConnection): void {
  writeInspections(db, [
    // Authentic, its line guaranteed: not listed.
    inspection(1, {
      inspectionResult: AUTHENTIC,
      refUserId: 'kim01',
      refOrderId: '0000000000000240',
      refOrderDetailId: '0000000000000240-1',
    }),
    // Authentic, no guarantee on its line.
    inspection(2, {
      inspectionResult: AUTHENTIC,
      refUserId: 'lee02',
      refOrderId: 'B',
      refOrderDetailId: 'B-1',
    }),
    // Not authentic: not listed.
    inspection(3, {
      inspectionResult: null,
      refUserId: 'lee02',
      refOrderId: 'C',
      refOrderDetailId: 'C-1',
    }),
    // Authentic, its line held only by a cancelled guarantee: a guarantee all the same.
    inspection(4, {
      inspectionResult: AUTHENTIC,
      refUserId: 'lee02',
      refOrderId: 'E',
      refOrderDetailId: 'E-1',
    }),
    // Authentic, the same order but another line: not guaranteed.
    inspection(5, {
      inspectionResult: AUTHENTIC,
      refUserId: 'kim01',
      refOrderId: '0000000000000240',
      refOrderDetailId: '0000000000000240-2',
    }),
    // Authentic without a detail id: no order line to reconcile.
    inspection(6, {
      inspectionResult: AUTHENTIC,
      refUserId: 'kim01',
      refOrderId: 'F',
      refOrderDetailId: null,
    }),
  ])
  writeGuarantees(db, [
    guarantee(11, {
      refUserId: 'kim01',
      refOrderId: '0000000000000240',
      refOrderDetailId: '0000000000000240-1',
    }),
    guarantee(12, { status: CANCEL, refUserId: 'lee02', refOrderId: 'E', refOrderDetailId: 'E-1' }),
    guarantee(13, { refUserId: 'park03', refOrderId: 'G', refOrderDetailId: 'G-1' }),
    guarantee(14, { refUserId: 'park03', refOrderId: 'G', refOrderDetailId: 'G-1' }),
    // Another member on the same line: not a duplicate of park03's.
    guarantee(15, { refUserId: 'choi04', refOrderId: 'G', refOrderDetailId: 'G-1' }),
    // No member: neither unlinked nor a duplicate.
    guarantee(16, { refUserId: null, refOrderId: 'H', refOrderDetailId: 'H-1' }),
    guarantee(17, { refUserId: null, refOrderId: 'H', refOrderDetailId: 'H-1' }),
    // A member sent as '': no member either.
    guarantee(18, { refUserId: '', refOrderId: 'J', refOrderDetailId: 'J-1' }),
    guarantee(19, { refUserId: '', refOrderId: 'J', refOrderDetailId: 'J-1' }),
  ])
  completedLink(db, 'kim01')
  // A flow that did not complete leaves the member unlinked.
  completedLink(db, 'lee02', 'cancelled' as 'completed')
}

const KNOWN = [
  'cancelled lee02 E E-1 guarantees:12',
  'duplicate park03 G G-1 guarantees:13',
  'duplicate park03 G G-1 guarantees:14',
  'unguaranteed kim01 0000000000000240 0000000000000240-2 inspections:5',
  'unguaranteed lee02 B B-1 inspections:2',
  'unlinked choi04 - - guarantees:15',
  'unlinked lee02 - - guarantees:12',
  'unlinked park03 - - guarantees:13',
  'unlinked park03 - - guarantees:14',
]

describe('reconciliation', () => {
  it('lists exactly the records of each kind of a known dataset, with their totals', () => {
    const db = store.db
    known(db)
    expect(listed(db)).toEqual(KNOWN)
    expect(expected(db)).toEqual(KNOWN)
    const page = queryReconcile(db, {})
    expect(page.totals).toEqual({ unguaranteed: 2, cancelled: 1, unlinked: 4, duplicate: 2 })
    expect(page.total).toBe(9)
    // One group per member and order line; unlinked grouped by member.
    const duplicates = queryReconcile(db, { kind: 'duplicate' })
    expect(duplicates.rows).toEqual([
      {
        kind: 'duplicate',
        member: 'park03',
        orderId: 'G',
        orderDetailId: 'G-1',
        count: 2,
        records: [
          { resource: 'guarantees', idx: 13 },
          { resource: 'guarantees', idx: 14 },
        ],
      },
    ])
    expect(duplicates.total).toBe(2)
    const unlinked = queryReconcile(db, { kind: 'unlinked', member: 'park03' })
    expect(unlinked.rows).toMatchObject([{ member: 'park03', orderId: null, count: 2 }])
  })

  it('follows every change: a guarantee arrives, a link completes, a record goes and comes back', () => {
    const db = store.db
    known(db)
    // A guarantee for inspection 2's line settles it.
    writeGuarantees(db, [
      guarantee(18, { refUserId: 'kim01', refOrderId: 'B', refOrderDetailId: 'B-1' }),
    ])
    expect(listed(db, 'unguaranteed')).toEqual([
      'unguaranteed kim01 0000000000000240 0000000000000240-2 inspections:5',
    ])
    // park03 completes a wallet link: their guarantees leave `unlinked`.
    completedLink(db, 'park03')
    expect(listed(db, 'unlinked')).toEqual([
      'unlinked choi04 - - guarantees:15',
      'unlinked lee02 - - guarantees:12',
    ])
    // Guarantee 14 moves to another line: no duplicate left.
    writeGuarantees(db, [
      guarantee(14, { refUserId: 'park03', refOrderId: 'G', refOrderDetailId: 'G-2' }),
    ])
    expect(listed(db, 'duplicate')).toEqual([])
    // Guarantee 11 is gone from the service: inspection 1 lacks a guarantee again; back, it has one.
    db.prepare(`UPDATE guarantees SET gone_at = 'now' WHERE idx = 11`).run()
    expect(listed(db, 'unguaranteed')).toContain(
      'unguaranteed kim01 0000000000000240 0000000000000240-1 inspections:1',
    )
    db.prepare('UPDATE guarantees SET gone_at = NULL WHERE idx = 11').run()
    // The cancelled guarantee completes.
    writeGuarantees(db, [
      guarantee(12, { refUserId: 'lee02', refOrderId: 'E', refOrderDetailId: 'E-1' }),
    ])
    expect(listed(db, 'cancelled')).toEqual([])
    // A member who completed a link before their first guarantee is never unlinked.
    completedLink(db, 'jung05')
    writeGuarantees(db, [
      guarantee(19, { refUserId: 'jung05', refOrderId: 'J', refOrderDetailId: 'J-1' }),
    ])
    expect(listed(db, 'unlinked')).toEqual([
      'unlinked choi04 - - guarantees:15',
      'unlinked lee02 - - guarantees:12',
    ])
    expect(listed(db)).toEqual(expected(db))
    expect(queryReconcile(db, {}).totals).toEqual(tally(expected(db)))
    // A member filter is the ids that start with the text: its groups and its totals both.
    for (const prefix of ['k', 'kim01', 'p', 'park03x', 'choi', 'l', 'zz']) {
      const mine = expected(db).filter((line) => line.split(' ')[1]!.startsWith(prefix))
      expect(listed(db, undefined, prefix)).toEqual(mine)
      const page = queryReconcile(db, { member: prefix })
      expect(page.totals).toEqual(tally(mine))
      expect(page.total).toBe(mine.length)
    }
  })

  it('counts a page of 250 members, some linked before their first guarantee', () => {
    const db = store.db
    const members = Array.from({ length: 250 }, (_, i) => `m${String(i).padStart(3, '0')}`)
    // Linked before their first guarantee: the first, one past the first hundred, the last.
    for (const member of ['m000', 'm101', 'm249']) completedLink(db, member)
    writeGuarantees(
      db,
      members.flatMap((member, i) => [
        guarantee(1 + 2 * i, {
          refUserId: member,
          refOrderId: `O${i}`,
          refOrderDetailId: `O${i}-1`,
        }),
        guarantee(2 + 2 * i, {
          refUserId: member,
          refOrderId: `P${i}`,
          refOrderDetailId: `P${i}-1`,
        }),
      ]),
    )
    expect(queryReconcile(db, {}).totals.unlinked).toBe(2 * 247)
    expect(listed(db)).toEqual(expected(db))
    // m101 already has a row: a new guarantee of theirs stays linked.
    writeGuarantees(db, [
      guarantee(600, { refUserId: 'm101', refOrderId: 'Q', refOrderDetailId: 'Q-1' }),
      guarantee(601, { refUserId: 'm102', refOrderId: 'R', refOrderDetailId: 'R-1' }),
    ])
    expect(queryReconcile(db, {}).totals.unlinked).toBe(2 * 247 + 1)
    expect(queryReconcile(db, {}).totals).toEqual(tally(expected(db)))
  })

  it('agrees with the definitions after many seeded random writes', () => {
    const db = store.db
    let seed = 7
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const members = ['kim01', 'lee02', 'park03', 'choi04', null]
    const lines = ['A', 'B', 'C', 'D']
    for (let step = 0; step < 300; step += 1) {
      const order = lines[random(lines.length)]!
      const detail = random(5) === 0 ? null : `${order}-${random(2)}`
      const member = members[random(members.length)] ?? null
      switch (random(5)) {
        case 0:
          writeInspections(db, [
            inspection(1 + random(30), {
              inspectionResult: random(2) === 0 ? AUTHENTIC : null,
              refUserId: member ?? 'kim01',
              refOrderId: order,
              refOrderDetailId: detail,
            }),
          ])
          break
        case 1:
        case 2: {
          // Up to three in one page, sharing its member and line (a page's duplicates).
          const size = 1 + random(3)
          writeGuarantees(
            db,
            Array.from({ length: size }, () =>
              guarantee(100 + random(30), {
                status: random(4) === 0 ? CANCEL : '발급완료',
                refUserId: member,
                refOrderId: random(6) === 0 ? null : order,
                refOrderDetailId: detail,
              }),
            ),
          )
          break
        }
        case 3: {
          const table = random(2) === 0 ? 'inspections' : 'guarantees'
          const gone = random(2) === 0 ? `'now'` : 'NULL'
          db.prepare(`UPDATE ${table} SET gone_at = ${gone} WHERE idx = ?`).run(
            table === 'inspections' ? 1 + random(30) : 100 + random(30),
          )
          break
        }
        default:
          if (member)
            completedLink(db, member, random(2) === 0 ? 'completed' : ('failed' as 'completed'))
      }
      if (step % 25 === 24) expect(listed(db)).toEqual(expected(db))
    }
    expect(listed(db)).toEqual(expected(db))
    expect(queryReconcile(db, {}).totals).toEqual(tally(expected(db)))
  })

  it('pages by member and order line with a cursor, kind by kind', () => {
    const db = store.db
    known(db)
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = queryReconcile(db, { limit: 1, ...(cursor ? { cursor } : {}) })
      expect(page.rows.length).toBeLessThanOrEqual(1)
      for (const row of page.rows)
        seen.push(`${row.kind} ${row.member} ${row.orderId} ${row.orderDetailId}`)
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual([
      'cancelled lee02 E E-1',
      'duplicate park03 G G-1',
      'unguaranteed kim01 0000000000000240 0000000000000240-2',
      'unguaranteed lee02 B B-1',
      'unlinked choi04 null null',
      'unlinked lee02 null null',
      'unlinked park03 null null',
    ])
    expect(() => queryReconcile(db, { cursor: 'not-a-cursor' })).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    )
  })
})

/** The records both migration tests store: every kind but `unlinked` linked away. */
const STORED_BEFORE = [
  'cancelled park03 G G-1 guarantees:14',
  'duplicate park03 G G-1 guarantees:13',
  'duplicate park03 G G-1 guarantees:14',
  'unguaranteed lee02 B B-1 inspections:2',
  'unlinked park03 - - guarantees:13',
  'unlinked park03 - - guarantees:14',
]

/**
 * A file at `version` holding an authentic inspection without a guarantee,
 * park03's two guarantees on one line (one cancelled) and the `extra`
 * guarantees, as that version stored them; `before` runs on it, then
 * `check` on the file opened (migrated) by today's code.
 */
function migratedFrom(
  version: number,
  extra: readonly GuaranteeRecord[],
  before: (db: StoreConnection) => void,
  check: (db: StoreConnection) => void,
): void {
  const temp = tempDir()
  try {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: version })
    transaction(old.db, () => {
      insertAsStored(old.db, 'inspections', [
        inspection(2, {
          inspectionResult: AUTHENTIC,
          refUserId: 'lee02',
          refOrderId: 'B',
          refOrderDetailId: 'B-1',
        }),
      ])
      insertAsStored(old.db, 'guarantees', [
        guarantee(13, { refUserId: 'park03', refOrderId: 'G', refOrderDetailId: 'G-1' }),
        guarantee(14, {
          status: CANCEL,
          refUserId: 'park03',
          refOrderId: 'G',
          refOrderDetailId: 'G-1',
        }),
        ...extra,
      ])
    })
    before(old.db)
    old.db.close()
    const { db } = openStore(file)
    try {
      check(db)
    } finally {
      db.close()
    }
  } finally {
    temp.remove()
  }
}

describe('migration 13', () => {
  it('fills the view from the rows stored before it', () => {
    migratedFrom(
      11,
      [],
      () => undefined,
      (db) => {
        expect(listed(db)).toEqual(STORED_BEFORE)
        expect(queryReconcile(db, {}).totals).toEqual(tally(expected(db)))
      },
    )
  })
})

describe('migration 15', () => {
  it('keeps the view of a file kept per record: unlinked members, links and every other kind', () => {
    migratedFrom(
      14,
      [guarantee(15, { refUserId: 'kim01', refOrderId: 'K', refOrderDetailId: 'K-1' })],
      (db) => completedLink(db, 'kim01'),
      (db) => {
        expect(listed(db)).toEqual(STORED_BEFORE)
        expect(queryReconcile(db, {}).totals).toEqual(tally(STORED_BEFORE))
        // Kept up from there: park03 links, a guarantee settles lee02's line.
        completedLink(db, 'park03')
        writeGuarantees(db, [
          guarantee(16, { refUserId: 'lee02', refOrderId: 'B', refOrderDetailId: 'B-1' }),
        ])
        expect(listed(db)).toEqual(expected(db))
        expect(queryReconcile(db, {}).totals).toEqual(tally(expected(db)))
      },
    )
  })
})
