import type { StoreConnection } from '../../../src/core/store/connection'
import { beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/core/app-error'
import { listChanges } from '../../../src/core/store/queries/change-queries'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { queryGuarantees } from '../../../src/core/store/queries/list-queries'
import { storeFileFor } from '../../../src/core/store/paths'
import type { GuaranteeRecord } from '../../../src/core/store/record-types'
import { expandRecord, RECORD_TABLES } from '../../../src/core/store/schema/stored-raw'
import { withCardUrl } from '../../../src/core/store/schema/card-urls'
import { upsertGuarantees } from '../../support/store-writes'
import { guarantee, LEFT_OUT, storePerTest, tempDir } from './fixtures'

/**
 * Card URLs are stored without their prefix (`card-urls.ts`): every way a
 * record is read back (listed rows, the whole record, the changes feed)
 * gives the URL as the service sent it, whatever the service sent.
 */

const store = storePerTest()
let db: StoreConnection
beforeEach(() => {
  db = store.db
})

/** The stored `card_url` column of a guarantee. */
function storedColumn(idx: number): string {
  return (
    db.prepare('SELECT card_url FROM guarantees WHERE idx = ?').get(idx) as { card_url: string }
  ).card_url
}

/** Every guarantee's listed card URL, by idx. */
function listed(): Map<number, string> {
  const rows = queryGuarantees(db, { limit: 500 }).rows
  return new Map(rows.map((row) => [row.idx, row.cardUrl]))
}

/** The whole record back from its row. */
function whole(idx: number): Record<string, unknown> {
  const row = db.prepare('SELECT * FROM guarantees WHERE idx = ?').get(idx) as Record<
    string,
    unknown
  >
  return expandRecord(RECORD_TABLES.guarantees, withCardUrl(db, row))
}

const ODD_URLS = [
  'https://static.example.com/nft/cards/a1.png',
  'https://static.example.com/nft/cards/',
  '\u0001not a url',
  '\u001fstarts with the escape',
  'no-slash.png',
  '/relative/card.png',
  '',
  // Decomposed: stored in NFC, listed so, given back whole as sent.
  'https://static.example.com/nft/카드/a\u0308.png',
]

describe('card URLs stored short', () => {
  it('keeps the common prefix once and gives back every URL as sent, odd ones included', () => {
    const records: GuaranteeRecord[] = [
      ...Array.from({ length: 20 }, (_, i) =>
        guarantee(i + 1, { nftCardImg: `https://static.example.com/nft/cards/${i + 1}.png` }),
      ),
      ...ODD_URLS.map((url, i) => guarantee(100 + i, { nftCardImg: url })),
    ]
    transaction(db, () => upsertGuarantees(db, records, 1, 'now'))
    // One character names the prefix; the file name follows.
    expect(storedColumn(1)).toBe('\u00011.png')
    expect(storedColumn(103)).toBe('\u001f\u001fstarts with the escape')
    const rows = listed()
    for (const record of records) {
      expect(rows.get(record.idx)).toBe(record.nftCardImg!.normalize('NFC'))
      expect(whole(record.idx)).toEqual({ ...LEFT_OUT, ...record })
    }
  })

  it('stores a URL of a 31st prefix whole, and reads it back', () => {
    const records = Array.from({ length: 31 }, (_, i) =>
      guarantee(i + 1, { nftCardImg: `https://host${i}.example.com/c/${i}.png` }),
    )
    transaction(db, () => upsertGuarantees(db, records, 1, 'now'))
    expect(storedColumn(30)).toBe('\u001e29.png')
    expect(storedColumn(31)).toBe('https://host30.example.com/c/30.png')
    const rows = listed()
    for (const record of records) expect(rows.get(record.idx)).toBe(record.nftCardImg)
  })

  it('forgets a prefix a rolled-back write added, so the next write stores it again', () => {
    expect(() =>
      transaction(db, () => {
        upsertGuarantees(db, [guarantee(1, { nftCardImg: 'https://a.example/x/1.png' })], 1, 'now')
        throw new Error('the page failed')
      }),
    ).toThrow()
    transaction(db, () =>
      upsertGuarantees(db, [guarantee(2, { nftCardImg: 'https://a.example/x/2.png' })], 1, 'now'),
    )
    expect(db.prepare('SELECT id, prefix FROM card_url_prefixes').all()).toEqual([
      { id: 1, prefix: 'https://a.example/x/' },
    ])
    expect(listed().get(2)).toBe('https://a.example/x/2.png')
  })

  it('names the URL as sent in the changes feed, and an unchanged re-sync rewrites nothing', () => {
    const first = guarantee(1, { nftCardImg: 'https://static.example.com/c/1.png' })
    transaction(db, () => upsertGuarantees(db, [first], 1, 'now'))
    db.prepare(
      `INSERT INTO change_baselines (resource, at, sync_id) VALUES ('guarantees', 'now', 's')`,
    ).run()
    const changes = (): number =>
      (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n
    const before = changes()
    transaction(db, () => upsertGuarantees(db, [first], 2, 'now'))
    // Only seen_pass moved: one row.
    expect(changes() - before).toBe(1)
    const moved = { ...first, nftCardImg: 'https://static.example.com/c/1b.png' }
    transaction(db, () => upsertGuarantees(db, [moved], 3, 'now'))
    const entry = listChanges(db, { limit: 10 }).entries.find((e) => e.kind === 'fields')
    expect(entry?.detail).toEqual({
      kind: 'fields',
      fields: [
        {
          field: 'nftCardImg',
          before: 'https://static.example.com/c/1.png',
          after: 'https://static.example.com/c/1b.png',
        },
      ],
    })
  })

  it('reads a card_url naming a prefix the store does not hold as store_corrupt for that record', () => {
    transaction(db, () =>
      upsertGuarantees(db, [guarantee(7, { nftCardImg: 'https://a.example/x/7.png' })], 1, 'now'),
    )
    db.prepare("UPDATE guarantees SET card_url = char(5) || 'x.png' WHERE idx = 7").run()
    let error: unknown
    try {
      queryGuarantees(db, {})
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('store_corrupt')
    expect((error as AppError).message).toContain('record 7')
  })

  it('reads and reuses prefixes another connection added', () => {
    const temp = tempDir()
    try {
      const file = storeFileFor(temp.dir, 'sandbox')
      const one = openStore(file).db
      const two = openStore(file).db
      const write = (to: StoreConnection, idx: number, url: string): void =>
        transaction(to, () => upsertGuarantees(to, [guarantee(idx, { nftCardImg: url })], 1, 'n'))
      // Each connection has read the prefixes before the other adds one.
      write(two, 1, 'https://a.example/x/1.png')
      write(one, 2, 'https://b.example/y/2.png')
      // Two writes a prefix one added, then reads one another one added.
      write(two, 3, 'https://b.example/y/3.png')
      write(one, 4, 'https://c.example/z/4.png')
      for (const connection of [two, one]) {
        expect(queryGuarantees(connection, {}).rows.map((row) => row.cardUrl)).toEqual([
          'https://c.example/z/4.png',
          'https://b.example/y/3.png',
          'https://b.example/y/2.png',
          'https://a.example/x/1.png',
        ])
      }
      expect(one.prepare('SELECT count(*) AS n FROM card_url_prefixes').get()).toEqual({ n: 3 })
      one.close()
      two.close()
    } finally {
      temp.remove()
    }
  })
})
