import { afterEach, describe, expect, it } from 'vitest'
import type { StoreConnection } from '../../../src/core/store/connection'
import { openStore } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import type { PageWrite } from '../../../src/core/store/write/page-write'
import { writePageBatch } from '../../../src/core/store/write/writes'
import { inspection, tempDir } from './fixtures'

/** `PRAGMA temp_store`: 0 is SQLite's default (files), 2 memory. */
const tempStore = (db: StoreConnection): number =>
  (db.prepare('PRAGMA temp_store').get() as { temp_store: number }).temp_store

const page = (pass: number, idx: number[], extra: Partial<PageWrite> = {}): PageWrite => ({
  resource: 'inspections',
  items: idx.map((i) => inspection(i)),
  pass,
  at: '2026-01-01T00:00:00Z',
  ...extra,
})

describe("a batch of sync pages and SQLite's temporary files", () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection
  let sql: string[]
  afterEach(() => {
    db.close()
    temp.remove()
  })

  function open(): void {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    sql = []
    const exec = db.exec.bind(db)
    db.exec = (text: string) => {
      sql.push(text)
      exec(text)
    }
  }

  it('keeps them in memory for the whole transaction, then gives the default back', () => {
    open()
    writePageBatch(db, [page(1, [1, 2]), page(1, [3])], () => {
      // Answered once committed: the setting is already back.
      expect(tempStore(db)).toBe(0)
    })
    expect(sql).toEqual([
      'PRAGMA temp_store = MEMORY',
      'BEGIN IMMEDIATE',
      'COMMIT',
      'PRAGMA temp_store = DEFAULT',
    ])
  })

  it('leaves them on disk for the end of a full pass, which may change every page', () => {
    open()
    writePageBatch(db, [page(1, [1, 2])])
    sql.length = 0
    writePageBatch(db, [page(1, [], { markGone: true })])
    expect(sql).not.toContain('PRAGMA temp_store = MEMORY')
    expect(tempStore(db)).toBe(0)
  })

  it('gives the default back when a page fails, and the batch writes nothing', () => {
    open()
    // No product name: the column is NOT NULL, so the second page's insert fails.
    const broken = inspection(2, { productName: null as unknown as string })
    expect(() => writePageBatch(db, [page(1, [1]), { ...page(1, []), items: [broken] }])).toThrow()
    expect(tempStore(db)).toBe(0)
    expect(sql.at(-1)).toBe('PRAGMA temp_store = DEFAULT')
    expect(db.prepare('SELECT count(*) AS n FROM inspections').get()).toEqual({ n: 0 })
  })
})
