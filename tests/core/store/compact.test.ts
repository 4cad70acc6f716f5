import { fillStatusBounds } from '../../../src/core/store/write/changes'
import { createHash } from 'node:crypto'
import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readGuarantee, readInspection } from '../../../src/core/api/read-records'
import { openStore, transaction, userVersion } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import type { GuaranteeRecord, InspectionRecord } from '../../../src/core/store/record-types'
import { searchDocument } from '../../../src/core/store/search/search-text'
import { expandRecord, RECORD_TABLES, rowValues } from '../../../src/core/store/schema/stored-raw'
import { withCardUrl } from '../../../src/core/store/schema/card-urls'
import { markUnseenGone } from '../../../src/core/store/write/writes'
import { upsertGuarantees, upsertInspections } from '../../support/store-writes'
import { Dataset } from '../../../src/sandbox/dataset'
import { guarantee, inspection, tempDir } from './fixtures'
import { SANDBOX_ANCHOR } from '../../support/anchor'

let temp: ReturnType<typeof tempDir>
beforeEach(() => {
  temp = tempDir()
})
afterEach(() => temp.remove())

const quickCheck = (db: StoreConnection): string =>
  (db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check

const ftsRows = (db: StoreConnection, table: string): number =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}_fts`).get() as { n: number }).n

type Row = Record<string, unknown>

/** A stored guarantee, its card URL read back (`card-urls.ts`). */
const guaranteeRow = (db: StoreConnection, idx: number): Row =>
  withCardUrl(db, db.prepare('SELECT * FROM guarantees WHERE idx = ?').get(idx) as Row)

const inspectionRow = (db: StoreConnection, idx: number): Row =>
  db.prepare('SELECT * FROM inspections WHERE idx = ?').get(idx) as Row

const expandGuarantee = (row: Row) => expandRecord(RECORD_TABLES.guarantees, row)
const expandInspection = (row: Row) => expandRecord(RECORD_TABLES.inspections, row)
const guaranteeRaw = (g: GuaranteeRecord) => rowValues(RECORD_TABLES.guarantees, g).values['raw']
const inspectionRaw = (i: InspectionRecord) =>
  String(rowValues(RECORD_TABLES.inspections, i).values['raw'])

const foundGuarantees = (db: StoreConnection, q: string): number[] =>
  queryGuarantees(db, { q }).rows.map((row) => row.idx)

const foundInspections = (db: StoreConnection, q: string): number[] =>
  queryInspections(db, { q }).rows.map((row) => row.idx)

/** A parsed guarantee as the API client returns it: every field, extras and warnings. */
function fullGuarantee(idx: number, patch: Record<string, unknown> = {}): GuaranteeRecord {
  return {
    ...guarantee(idx),
    refOrderId: `ORD-${idx}`,
    refOrderDetailId: `ORD-${idx}-1`,
    refProductCode: `P${idx}`,
    refCategoryCode: 'BAG',
    refBrandCode: 'CHANEL',
    refEtcData1: null,
    refEtcData2: null,
    refEtcData3: null,
    guaranteeToken: null,
    raw: {},
    warnings: [],
    ...patch,
  } as GuaranteeRecord
}

function fullInspection(idx: number, patch: Record<string, unknown> = {}): InspectionRecord {
  return {
    ...inspection(idx),
    inspectionResult: null,
    raw: {},
    warnings: [],
    ...patch,
  } as InspectionRecord
}

/** Unknown fields with a `__proto__` key, built the way the API reader builds them. */
const unknownFields = (): Record<string, unknown> =>
  Object.fromEntries([
    ['extraNote', 'x'],
    ['__proto__', { polluted: 1 }],
    ['nested', { a: [1, 2] }],
  ])

/**
 * Writes records the way version 2 did (raw = the whole record as JSON, FTS
 * rows in the content table): an old cache for the migration to upgrade.
 */
function writeOldGuarantees(db: StoreConnection, items: readonly GuaranteeRecord[]): void {
  const insert = db.prepare(`
    INSERT INTO guarantees (idx, status, product_name, card_url, ref_user_id, ref_order_id,
      ref_order_detail_id, ref_product_code, ref_category_code, ref_brand_code, registered_at,
      modified_at, raw, seen_pass, gone_at, stored_at, search_key)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, NULL, 'then', ?)`)
  const fts = db.prepare('INSERT INTO guarantees_fts (rowid, t, c) VALUES (?, ?, ?)')
  for (const g of items) {
    const doc = searchDocument([
      g.productName,
      g.refUserId,
      g.refOrderId,
      g.refOrderDetailId,
      g.refProductCode,
      g.refCategoryCode,
      g.refBrandCode,
    ])
    const key = createHash('md5').update(`${doc.t}\u0001${doc.c}`).digest('base64url')
    insert.run(
      g.idx,
      g.status,
      g.productName,
      g.nftCardImg ?? '',
      g.refUserId ?? null,
      g.refOrderId ?? null,
      g.refOrderDetailId ?? null,
      g.refProductCode ?? null,
      g.refCategoryCode ?? null,
      g.refBrandCode ?? null,
      g.registeredAt ?? '',
      g.modifiedAt,
      JSON.stringify(g),
      key,
    )
    fts.run(g.idx, doc.t, doc.c)
  }
}

function writeOldInspections(db: StoreConnection, items: readonly InspectionRecord[]): void {
  const insert = db.prepare(`
    INSERT INTO inspections (idx, inspection_num, status, result, product_name, ref_user_id,
      ref_order_id, ref_order_detail_id, ref_product_code, registered_at, modified_at, raw,
      seen_pass, gone_at, stored_at, search_key)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, NULL, 'then', ?)`)
  const fts = db.prepare('INSERT INTO inspections_fts (rowid, t, c) VALUES (?, ?, ?)')
  for (const i of items) {
    const doc = searchDocument([
      i.productName,
      i.inspectionNum,
      i.refUserId,
      i.refOrderId,
      i.refOrderDetailId,
      i.refProductCode,
    ])
    const key = createHash('md5').update(`${doc.t}\u0001${doc.c}`).digest('base64url')
    insert.run(
      i.idx,
      i.inspectionNum,
      i.inspectionStatus ?? null,
      i.inspectionResult ?? null,
      i.productName,
      i.refUserId ?? '',
      i.refOrderId ?? '',
      i.refOrderDetailId ?? '',
      i.refProductCode ?? '',
      i.registeredAt ?? '',
      i.modifiedAt,
      JSON.stringify(i),
      key,
    )
    fts.run(i.idx, doc.t, doc.c)
  }
}

const OLD_GUARANTEES = [
  fullGuarantee(1, { productName: '루이비통 네버풀 MM' }),
  fullGuarantee(2, {
    productName: '샤넬 클래식 플랩백',
    refEtcData1: '매장: 명동본점',
    refEtcData3: '구성품: 더스트백',
    guaranteeToken: 'tok-2',
    raw: unknownFields(),
  }),
  fullGuarantee(3, {
    productName: 'Hermès Birkin 30',
    nftCardImg: null,
    registeredAt: null,
    refUserId: null,
    warnings: ['nftCardImg: absent though the spec says always', 'registeredAt: not a date (x)'],
  }),
  // More than one migration chunk (1000 rows), so the chunked rewrite is exercised.
  ...Array.from({ length: 1200 }, (_, i) => fullGuarantee(100 + i, { productName: `구찌 ${i}` })),
]

const OLD_INSPECTIONS = [
  fullInspection(1, { productName: '프라다 리나일론 백팩', raw: unknownFields() }),
  fullInspection(2, {
    productName: '에르메스 켈리 지갑',
    inspectionStatus: null,
    refOrderId: null,
    registeredAt: null,
    warnings: ['refOrderId: absent though the spec says always'],
  }),
]

describe('migration 3 (compact) on a version-2 cache written by the old code', () => {
  function oldCache(): string {
    const file = storeFileFor(temp.dir, 'sandbox')
    const old = openStore(file, { targetVersion: 2 })
    expect(userVersion(old.db)).toBe(2)
    transaction(old.db, () => {
      writeOldGuarantees(old.db, OLD_GUARANTEES)
      writeOldInspections(old.db, OLD_INSPECTIONS)
    })
    old.db.close()
    return file
  }

  it('keeps every record whole, searchable and counted, in the compact format', () => {
    const { db } = openStore(oldCache())
    expect(userVersion(db)).toBe(LATEST_VERSION)
    expect(quickCheck(db)).toBe('ok')
    // Rebuilt after the migration: no free pages left behind.
    expect(db.prepare('PRAGMA freelist_count').get()).toEqual({ freelist_count: 0 })

    const schema = db
      .prepare("SELECT sql FROM sqlite_master WHERE name IN ('guarantees_fts', 'inspections_fts')")
      .all() as { sql: string }[]
    expect(schema).toHaveLength(2)
    for (const { sql } of schema) expect(sql).toMatch(/content = '', contentless_delete = 1/)
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%_fts_content'").all() as {
        name: string
      }[]
    ).map((row) => row.name)
    expect(tables).toEqual([])

    // Counts and search, from the re-built index.
    expect(queryGuarantees(db, {}).total).toBe(OLD_GUARANTEES.length)
    expect(queryInspections(db, {}).total).toBe(OLD_INSPECTIONS.length)
    expect(ftsRows(db, 'guarantees')).toBe(OLD_GUARANTEES.length)
    expect(foundGuarantees(db, '루이비')).toEqual([1])
    expect(foundGuarantees(db, 'ㅅㄴ')).toEqual([2])
    expect(foundGuarantees(db, 'hermes')).toEqual([3])
    expect(foundGuarantees(db, '구찌 1199')).toEqual([1299])
    expect(queryGuarantees(db, { q: '구찌' }).total).toBe(1200)
    expect(foundInspections(db, '리나일론')).toEqual([1])
    expect(foundInspections(db, 'ㅋㄹ')).toEqual([2])

    // raw: only what the columns do not hold, the rest given back by the columns.
    expect(guaranteeRow(db, 1).raw).toBe('{}')
    const second = JSON.parse(String(guaranteeRow(db, 2).raw)) as Record<string, unknown>
    // refEtcData1..3 have columns since migration 17.
    expect(second).toEqual({ guaranteeToken: 'tok-2', raw: unknownFields() })
    expect(guaranteeRow(db, 2)).toMatchObject({
      ref_etc_data1: '매장: 명동본점',
      ref_etc_data2: null,
      ref_etc_data3: '구성품: 더스트백',
    })
    expect(Object.hasOwn(second['raw'] as object, '__proto__')).toBe(true)
    expect(JSON.parse(String(guaranteeRow(db, 3).raw))).toEqual({
      nftCardImg: null,
      registeredAt: null,
      warnings: ['nftCardImg: absent though the spec says always', 'registeredAt: not a date (x)'],
    })
    for (const g of OLD_GUARANTEES.slice(0, 3)) {
      expect(expandGuarantee(guaranteeRow(db, g.idx))).toEqual(JSON.parse(JSON.stringify(g)))
    }
    for (const i of OLD_INSPECTIONS) {
      expect(expandInspection(inspectionRow(db, i.idx))).toEqual(JSON.parse(JSON.stringify(i)))
    }
    expect(JSON.parse(String(inspectionRow(db, 1).raw))).toEqual({ raw: unknownFields() })
    expect(JSON.parse(String(inspectionRow(db, 2).raw))).toMatchObject({
      refOrderId: null,
      registeredAt: null,
    })
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    db.close()
  })

  it('sets search_key as a write would, so a re-sync of the same records leaves the index alone, and a changed one is re-indexed', () => {
    const { db } = openStore(oldCache())
    const keys = db.prepare('SELECT idx, search_key FROM guarantees ORDER BY idx').all()
    const changes = (): number =>
      (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n
    // The app fills an older store's aging rows when it opens it (`fillStatusBounds`).
    transaction(db, () => fillStatusBounds(db, 'Asia/Seoul'))
    const before = changes()
    transaction(db, () => upsertGuarantees(db, OLD_GUARANTEES.slice(0, 3), 2, 'now'))
    // Three row upserts and no FTS delete/insert.
    expect(changes() - before).toBe(3)
    expect(db.prepare('SELECT idx, search_key FROM guarantees ORDER BY idx').all()).toEqual(keys)
    expect(guaranteeRow(db, 2).raw).toBe(guaranteeRaw(OLD_GUARANTEES[1]!))

    transaction(db, () =>
      upsertGuarantees(db, [fullGuarantee(1, { productName: '디올 새들백' })], 3, 'now'),
    )
    expect(foundGuarantees(db, '루이비')).toEqual([])
    expect(foundGuarantees(db, '새들')).toEqual([1])
    expect(ftsRows(db, 'guarantees')).toBe(OLD_GUARANTEES.length)
    expect(quickCheck(db)).toBe('ok')
    db.close()
  })
})

describe('the compact format on a fresh cache', () => {
  let db: StoreConnection
  beforeEach(() => {
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
  })
  afterEach(() => db.close())

  it('gives back every parsed sandbox record exactly, from columns plus raw', () => {
    const dataset = new Dataset({
      seed: 7,
      size: 300,
      staticUrl: 'http://127.0.0.1:1',
      anchor: SANDBOX_ANCHOR,
    })
    const guarantees = Array.from({ length: 300 }, (_, i) => {
      const read = readGuarantee(JSON.parse(JSON.stringify(dataset.guarantee(i))), i)
      if (!read.ok) throw new Error('sandbox guarantee rejected')
      return read.value
    })
    const inspections = Array.from({ length: 300 }, (_, i) => {
      const read = readInspection(JSON.parse(JSON.stringify(dataset.inspection(i))), i)
      if (!read.ok) throw new Error('sandbox inspection rejected')
      return read.value
    })
    transaction(db, () => {
      upsertGuarantees(db, guarantees, 1, 'now')
      upsertInspections(db, inspections, 1, 'now')
    })
    for (const g of guarantees) {
      expect(expandGuarantee(guaranteeRow(db, g.idx))).toEqual(JSON.parse(JSON.stringify(g)))
    }
    for (const i of inspections) {
      expect(expandInspection(inspectionRow(db, i.idx))).toEqual(JSON.parse(JSON.stringify(i)))
    }
    // Most rows hold nothing beyond their columns.
    const empty = db.prepare("SELECT count(*) AS n FROM guarantees WHERE raw = '{}'").get() as {
      n: number
    }
    expect(empty.n).toBeGreaterThan(50)
    expect(inspectionRaw(inspections[0]!)).not.toContain('productName')
  })

  it('a re-sync of unchanged records keeps one FTS row each; a changed record replaces its row', () => {
    const items = [
      fullInspection(1, { productName: '루이비통 네버풀' }),
      fullInspection(2, { productName: '샤넬 보이백' }),
    ]
    transaction(db, () => upsertInspections(db, items, 1, 'now'))
    transaction(db, () => upsertInspections(db, items, 2, 'now'))
    expect(ftsRows(db, 'inspections')).toBe(2)
    expect(foundInspections(db, '네버풀')).toEqual([1])

    transaction(db, () =>
      upsertInspections(db, [fullInspection(1, { productName: '고야드 생루이' })], 3, 'now'),
    )
    expect(ftsRows(db, 'inspections')).toBe(2)
    expect(foundInspections(db, '네버풀')).toEqual([])
    expect(foundInspections(db, 'ㄴㅂㅍ')).toEqual([])
    expect(foundInspections(db, '생루')).toEqual([1])
    expect(foundInspections(db, '루이')).toEqual([1])
    expect(foundInspections(db, '보이백')).toEqual([2])
    expect(quickCheck(db)).toBe('ok')
  })

  it('a re-sync rewrites only what changed: status, extras, or the indexed text', () => {
    const first = fullGuarantee(1, { productName: '샤넬 보이백', status: '발급대기' })
    transaction(db, () => upsertGuarantees(db, [first], 1, 'then'))
    const key = guaranteeRow(db, 1).search_key
    const changes = (): number =>
      (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n

    // Unchanged: only marked seen (one row change, no FTS write).
    let before = changes()
    transaction(db, () => upsertGuarantees(db, [first], 2, 'now'))
    expect(changes() - before).toBe(1)
    expect(db.prepare('SELECT seen_pass FROM guarantees WHERE idx = 1').get()).toEqual({
      seen_pass: 2,
    })

    // Status and extras changed, indexed text not: the row is rewritten, the FTS row kept.
    const second = fullGuarantee(1, {
      productName: '샤넬 보이백',
      status: '발급완료',
      refEtcData2: '보증서 재발급',
      raw: { newField: 1 },
    })
    before = changes()
    transaction(db, () => upsertGuarantees(db, [second], 3, 'later'))
    // The row, its status moving in the stored counts (−1 and +1 in list_counts and
    // list_day_counts), since when it holds the new one (status_since), and the number of a
    // status text the store had not seen before (status_codes, once per text).
    expect(changes() - before).toBe(1 + 4 + 1 + 1)
    expect(guaranteeRow(db, 1)).toMatchObject({ status: '발급완료', search_key: key })
    expect(expandGuarantee(guaranteeRow(db, 1))).toEqual(JSON.parse(JSON.stringify(second)))
    expect(foundGuarantees(db, '보이백')).toEqual([1])
    expect(ftsRows(db, 'guarantees')).toBe(1)

    // A search_key of another format is never trusted: the record is indexed again.
    db.prepare('DELETE FROM guarantees_fts WHERE rowid = 1').run()
    db.prepare("UPDATE guarantees SET search_key = 'old-format' WHERE idx = 1").run()
    expect(foundGuarantees(db, '보이백')).toEqual([])
    transaction(db, () => upsertGuarantees(db, [second], 4, 'later'))
    expect(foundGuarantees(db, '보이백')).toEqual([1])
    expect(guaranteeRow(db, 1).search_key).toBe(key)
  })

  it('a record gone from the service drops out of search; its FTS row can be deleted', () => {
    transaction(db, () =>
      upsertGuarantees(
        db,
        [
          fullGuarantee(1, { productName: '샤넬 보이백' }),
          fullGuarantee(2, { productName: '샤넬 WOC' }),
        ],
        1,
        'now',
      ),
    )
    transaction(db, () => {
      upsertGuarantees(db, [fullGuarantee(2, { productName: '샤넬 WOC' })], 2, 'now')
      markUnseenGone(db, 'guarantees', 2, 'later')
    })
    expect(foundGuarantees(db, '샤넬')).toEqual([2])
    expect(queryGuarantees(db, {}).total).toBe(1)

    // Seen again: back in search without a second FTS row.
    transaction(db, () =>
      upsertGuarantees(db, [fullGuarantee(1, { productName: '샤넬 보이백' })], 3, 'now'),
    )
    expect(foundGuarantees(db, '보이')).toEqual([1])
    expect(ftsRows(db, 'guarantees')).toBe(2)

    // Contentless with deletes: a row really goes.
    db.prepare('DELETE FROM guarantees_fts WHERE rowid = ?').run(1)
    expect(foundGuarantees(db, '보이')).toEqual([])
    expect(ftsRows(db, 'guarantees')).toBe(1)
    expect(quickCheck(db)).toBe('ok')
  })
})
