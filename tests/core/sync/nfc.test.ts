import { afterEach, describe, expect, it } from 'vitest'
import { queryGuarantees, queryInspections } from '../../../src/core/store/queries/list-queries'
import { expandRecord, RECORD_TABLES } from '../../../src/core/store/schema/stored-raw'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

const nfd = (value: unknown): unknown =>
  typeof value === 'string' ? value.normalize('NFD') : value

describe('Korean sent decomposed (NFD) through the sandbox', () => {
  it('is stored and listed composed (NFC), found by search, and kept as sent in raw', async () => {
    h = await startHarness({ size: 60 })
    // The service sends every text field of every item decomposed.
    h.proxy.fault = (_url, body) => ({
      ...body,
      data: body.data.map((item) =>
        Object.fromEntries(Object.entries(item).map(([key, value]) => [key, nfd(value)])),
      ),
    })
    const outcomes = await h.engine.run(['inspections', 'guarantees'])
    expect(outcomes.map((o) => o.phase)).toEqual(['done', 'done'])

    for (const [table, query] of [
      ['inspections', queryInspections],
      ['guarantees', queryGuarantees],
    ] as const) {
      const page = query(h.db, { limit: 500 })
      expect(page.total).toBe(60)
      const hangul = page.rows.find((row) => /[가-힣]/.test(row.productName))!
      expect(hangul).toBeDefined()
      for (const row of page.rows) {
        expect(row.productName).toBe(row.productName.normalize('NFC'))
        if (row.status !== null) expect(row.status).toBe(row.status.normalize('NFC'))
      }
      // Search finds it by its composed text and by the decomposed text alike.
      const word = hangul.productName.split(' ').find((w) => /[가-힣]{2}/.test(w))!
      for (const q of [word, word.normalize('NFD')]) {
        expect(query(h.db, { q, limit: 500 }).rows.map((r) => r.idx)).toContain(hangul.idx)
      }
      // The record as sent is in raw: expanding gives the decomposed text back.
      const stored = h.db.prepare(`SELECT * FROM ${table} WHERE idx = ?`).get(hangul.idx)
      const sent = expandRecord(RECORD_TABLES[table], stored as Record<string, unknown>)
      expect(sent['productName']).toBe(hangul.productName.normalize('NFD'))
    }
  })
})
