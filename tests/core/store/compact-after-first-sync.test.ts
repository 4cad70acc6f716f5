import type { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { applyPageWrite, compactStore } from '../../../src/core/store/write/writes'
import type { PageWrite } from '../../../src/core/store/write/page-write'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import { STORE_OPS } from '../../../src/core/owner/store-ops'
import { inspection, tempDir } from './fixtures'

const pageCount = (db: StoreConnection): number =>
  (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count

/** The last page of a full pass that saw every record: marks the rest gone and ends the pass. */
const lastPage = (pass: number, at: string): PageWrite => ({
  resource: 'inspections',
  items: [],
  pass,
  at,
  markGone: true,
  state: { status: 'idle', checkpoint: null, lastSuccessAt: at, lastFullAt: at },
})

describe('compacting after the first full sync', () => {
  let temp: ReturnType<typeof tempDir>
  let db: StoreConnection
  afterEach(() => {
    db.close()
    temp.remove()
  })

  it('only the end of the first complete full pass asks for it; a later one does not', () => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    const page: PageWrite = {
      resource: 'inspections',
      items: [inspection(1), inspection(2)],
      pass: 1,
      at: '2026-01-01T00:00:00Z',
    }
    expect(transaction(db, () => applyPageWrite(db, page))).toBe(false)
    expect(transaction(db, () => applyPageWrite(db, lastPage(1, '2026-01-01T00:00:01Z')))).toBe(
      true,
    )
    expect(transaction(db, () => applyPageWrite(db, { ...page, pass: 2 }))).toBe(false)
    expect(transaction(db, () => applyPageWrite(db, lastPage(2, '2026-01-02T00:00:01Z')))).toBe(
      false,
    )
    // A pass that ended early (nothing marked gone) is no complete full pass.
    expect(
      transaction(db, () => applyPageWrite(db, { ...lastPage(3, 'x'), markGone: false })),
    ).toBe(false)
  })

  it('rebuilds a file left with half-empty pages: smaller, every record still listed and found', () => {
    temp = tempDir()
    db = openStore(storeFileFor(temp.dir, 'sandbox')).db
    // Many small commits of records in scattered order leave half-empty index pages.
    for (let round = 0; round < 60; round += 1) {
      const items = Array.from({ length: 50 }, (_, i) =>
        inspection(1 + (((round * 50 + i) * 7919) % 3001), {
          productName: `샤넬 클래식 ${round} ${i}`,
        }),
      )
      transaction(db, () =>
        applyPageWrite(db, { resource: 'inspections', items, pass: 1, at: 'then' }),
      )
    }
    const before = pageCount(db)
    const listed = queryInspections(db, { q: '클래식' }).total
    STORE_OPS.writePage(db, lastPage(1, '2026-01-01T00:00:00Z'))
    expect(pageCount(db)).toBeLessThan(before)
    expect(queryInspections(db, { q: '클래식' }).total).toBe(listed)
    expect(queryInspections(db, {}).total).toBe(listed)
    // Running it again is harmless.
    compactStore(db)
    expect(queryInspections(db, { q: '클래식' }).total).toBe(listed)
  })
})
