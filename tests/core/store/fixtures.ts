import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import type { SQLInputValue } from 'node:sqlite'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import type { GuaranteeRecord, InspectionRecord } from '../../../src/core/store/record-types'
import { RECORD_TABLES, rowValues } from '../../../src/core/store/schema/stored-raw'
import { upsertInspections } from '../../support/store-writes'

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'store-test-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A fresh store for every test of the file that calls it (at its top
 * level): opened before each test, closed and removed after it.
 */
export function storePerTest(): { readonly db: StoreConnection } {
  let temp: ReturnType<typeof tempDir> | null = null
  let db: StoreConnection | null = null
  beforeEach(() => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
  })
  afterEach(() => {
    db?.close()
    temp?.remove()
  })
  return {
    get db() {
      if (!db) throw new Error('storePerTest: no test is running')
      return db
    },
  }
}

/** An inspection record with sensible defaults. */
export function inspection(idx: number, patch: Partial<InspectionRecord> = {}): InspectionRecord {
  const base = {
    idx,
    inspectionNum: String(100000000000 + idx),
    inspectionStatus: '배송완료' as string | null,
    inspectionResult: null as string | null,
    productName: `상품 ${idx}`,
    refUserId: `member${idx % 10}`,
    refOrderId: `ORD-${idx}`,
    refOrderDetailId: `ORD-${idx}-1`,
    refProductCode: `P${idx}`,
    registeredAt: `2025-01-${String((idx % 28) + 1).padStart(2, '0')} 10:00:00`,
    modifiedAt: null,
    ...patch,
  }
  return { ...base, raw: { extraField: 'kept' } }
}

/** What a whole guarantee read back (`expandRecord`) holds for the fields {@link guarantee} leaves out. */
export const LEFT_OUT = {
  refEtcData1: null,
  refEtcData2: null,
  refEtcData3: null,
  guaranteeToken: null,
  warnings: [],
}

/** A guarantee record with sensible defaults. */
export function guarantee(idx: number, patch: Partial<GuaranteeRecord> = {}): GuaranteeRecord {
  const base = {
    idx,
    status: '발급완료',
    productName: `상품 ${idx}`,
    nftCardImg: `http://127.0.0.1:1/card/${idx}.png`,
    refUserId: `member${idx % 10}` as string | null,
    refOrderId: null as string | null,
    refOrderDetailId: null as string | null,
    refProductCode: null as string | null,
    refCategoryCode: null as string | null,
    refBrandCode: null as string | null,
    registeredAt: `2025-02-${String((idx % 28) + 1).padStart(2, '0')} 09:00:00`,
    modifiedAt: null,
    ...patch,
  }
  return { ...base, raw: {} }
}

/**
 * Inserts records by plain SQL, as a database of an older schema (3 to 7)
 * holds them: today's row values, no search key (indexed on the next open),
 * counted only by that schema's own triggers. Today's writer is for today's
 * schema: it counts new records itself (schema 8).
 */
export function insertAsStored(
  db: StoreConnection,
  table: 'guarantees' | 'inspections',
  records: readonly object[],
  storedAt = 'then',
): void {
  const have = new Set(
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name),
  )
  for (const record of records) {
    const { values } = rowValues(RECORD_TABLES[table], record)
    const stored = have.has('raw') ? { ...values, raw: rawBefore17(have, values, record) } : values
    const row = Object.entries({ ...stored, seen_pass: 1, stored_at: storedAt }).filter(([name]) =>
      have.has(name),
    )
    db.prepare(
      `INSERT INTO ${table} (${row.map(([n]) => n).join(', ')}) VALUES (${row.map(() => '?').join(', ')})`,
    ).run(...row.map(([, value]) => value))
  }
}

/**
 * `raw` as a file without the `refEtcData` columns (before version 17) kept
 * it: those fields, when not null, in `raw` as sent.
 */
function rawBefore17(
  have: ReadonlySet<string>,
  values: Readonly<Record<string, SQLInputValue>>,
  record: object,
): SQLInputValue {
  if (have.has('ref_etc_data1') || !('ref_etc_data1' in values)) return values['raw']!
  const sent = record as Readonly<Record<string, unknown>>
  const raw = JSON.parse(values['raw'] as string) as Record<string, unknown>
  for (const key of ['refEtcData1', 'refEtcData2', 'refEtcData3']) {
    if (sent[key] != null) raw[key] = sent[key]
  }
  return JSON.stringify(raw)
}

/** The sandbox profile's store in `dir`: 300 inspections, one page in the middle overwritten by garbage. */
export function damagedStoreFile(dir: string): string {
  const file = storeFileFor(dir, 'sandbox')
  const first = openStore(file)
  transaction(first.db, () =>
    upsertInspections(
      first.db,
      Array.from({ length: 300 }, (_, i) => inspection(i + 1)),
      1,
      'now',
    ),
  )
  first.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  first.db.close()
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, 4096 * 2)
  closeSync(fd)
  return file
}
