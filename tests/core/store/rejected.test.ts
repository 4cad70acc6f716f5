import { afterEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import {
  listRejected,
  REJECTED_KEEP,
  storeRejected,
} from '../../../src/core/store/queries/rejected'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import type { RejectedItem } from '../../../src/shared/domain'
import { bootForTest, call } from '../helpers/core'
import { startHarness } from '../sync/harness'
import { tempDir } from './fixtures'

let cleanup: (() => Promise<void> | void) | null = null
afterEach(async () => {
  await cleanup?.()
  cleanup = null
})

const pageOf = (url: URL): number => Number(url.searchParams.get('page'))

describe('refused records are kept (sync.rejected)', () => {
  it('keeps each refused record with its page, field, reason and JSON, and clears it when it comes back valid', async () => {
    const h = await startHarness({ size: 150 })
    cleanup = () => h.close()
    let broken: number[] = []
    h.proxy.fault = (url, body) => {
      if (pageOf(url) !== 2) return undefined
      broken = body.data.slice(0, 2).map((item) => Number(item['idx']))
      return {
        ...body,
        data: body.data.map((item, i) =>
          i === 0
            ? { ...item, productName: undefined }
            : i === 1
              ? { ...item, idx: 'not a number' }
              : item,
        ),
      }
    }
    const [first] = await h.engine.run(['inspections'])
    expect(first).toMatchObject({ phase: 'done', rejected: 2 })
    // The sandbox caps pages at 100: page 2 holds records 101..150.
    const kept = await h.store.call('listRejected', { limit: 10 })
    expect(kept.total).toBe(2)
    expect(kept.items.map((r) => [r.resource, r.page, r.position, r.field, r.reason])).toEqual([
      ['inspections', 2, 1, 'idx', 'missing or not an integer'],
      ['inspections', 2, 0, 'productName', 'missing'],
    ])
    const [noIdx, noName] = kept.items
    expect(noName!.idx).toBe(broken[0])
    expect(noIdx!.idx).toBeNull()
    expect(noName!.problems).toEqual(['data[0].productName: missing'])
    const sent = JSON.parse(noName!.raw) as Record<string, unknown>
    expect(sent['idx']).toBe(broken[0])
    expect(sent).not.toHaveProperty('productName')
    expect(JSON.parse(noIdx!.raw)).toMatchObject({ idx: 'not a number' })
    expect(noName!.rawTruncated).toBe(false)
    expect(Date.parse(noName!.rejectedAt)).not.toBeNaN()
    expect((await h.store.call('listRejected', { resource: 'guarantees', limit: 10 })).total).toBe(
      0,
    )

    // The service sends them right again: the entry whose idx was readable is cleared.
    h.proxy.fault = null
    const [second] = await h.engine.run(['inspections'], 'full')
    expect(second).toMatchObject({ phase: 'done', rejected: 0 })
    const left = await h.store.call('listRejected', { limit: 10 })
    expect(left.items.map((r) => r.field)).toEqual(['idx'])
  })

  it('a record refused again replaces its entry; past the cap the oldest go; pages newest first', () => {
    const temp = tempDir()
    const { db } = openStore(storeFileFor(temp.dir, 'sandbox'))
    cleanup = () => {
      db.close()
      temp.remove()
    }
    const item = (idx: number | null, position: number): RejectedItem => ({
      position,
      idx,
      problems: [`data[${position}].productName: missing`],
      field: 'productName',
      reason: 'missing',
      raw: JSON.stringify({ idx, position }),
      rawTruncated: false,
    })
    const many = Array.from({ length: REJECTED_KEEP + 5 }, (_, i) => item(i + 1, i))
    transaction(db, () => {
      storeRejected(db, 'guarantees', { page: 1, items: many }, '2026-01-01T00:00:00.000Z')
      storeRejected(db, 'guarantees', { page: 3, items: [item(7, 0)] }, '2026-01-02T00:00:00.000Z')
    })
    const first = listRejected(db, { resource: 'guarantees', limit: 3 })
    expect(first.total).toBe(REJECTED_KEEP)
    expect(first.items.map((r) => [r.idx, r.page])).toEqual([
      [7, 3],
      [REJECTED_KEEP + 5, 1],
      [REJECTED_KEEP + 4, 1],
    ])
    const next = listRejected(db, { resource: 'guarantees', limit: 3, before: first.nextBefore! })
    expect(next.items.map((r) => r.idx)).toEqual([
      REJECTED_KEEP + 3,
      REJECTED_KEEP + 2,
      REJECTED_KEEP + 1,
    ])
    // The oldest five went, and record 7 is kept once.
    const all = listRejected(db, { limit: 200, before: 7 })
    expect(all.items.some((r) => r.idx !== null && r.idx <= 5)).toBe(false)
  })

  it('a damaged stored entry is a clear store_corrupt error, not a crash', () => {
    const temp = tempDir()
    const { db } = openStore(storeFileFor(temp.dir, 'sandbox'))
    cleanup = () => {
      db.close()
      temp.remove()
    }
    db.prepare(
      `INSERT INTO rejected_records (resource, idx, page, position, field, reason, problems, raw,
         raw_truncated, rejected_at) VALUES ('guarantees', 1, 1, 0, 'x', 'y', '{oops', '{}', 0, 't')`,
    ).run()
    expect(() => listRejected(db, { limit: 5 })).toThrow(
      expect.objectContaining({
        code: 'store_corrupt',
        message: expect.stringMatching(/problems/),
      }),
    )
  })

  it('is a channel: arguments checked, answers the page', async () => {
    const core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'rejected' })
    cleanup = () => core.close()
    const empty = await call(core, 'sync.rejected', {})
    expect(empty).toEqual({ items: [], total: 0, nextBefore: null })
    for (const args of [{ limit: 0 }, { resource: 'brands' }, { before: -1 }, { extra: 1 }]) {
      const answer = await core.router.dispatch('sync.rejected', args)
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    }
  })
})
