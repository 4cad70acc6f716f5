import type { StoreConnection } from '../../../src/core/store/connection'
import { beforeEach, expect, it } from 'vitest'
import { listChanges } from '../../../src/core/store/queries/change-queries'
import { transaction } from '../../../src/core/store/schema/database'
import { applyPageWrite } from '../../../src/core/store/write/writes'
import type { GuaranteeRecord, InspectionRecord } from '../../../src/core/store/record-types'
import { guarantee, inspection, storePerTest } from './fixtures'

/**
 * Change detection in the write path, page by page: what each kind of
 * change logs, and that an unchanged or only re-indexed record logs nothing.
 */

const store = storePerTest()
let db: StoreConnection
let pass = 0
beforeEach(() => {
  db = store.db
  pass = 0
})

function write(
  resource: 'inspections' | 'guarantees',
  items: readonly (InspectionRecord | GuaranteeRecord)[],
  full = false,
): void {
  pass += 1
  const at = `2026-02-0${pass}T00:00:00.000Z`
  transaction(db, () =>
    applyPageWrite(db, {
      resource,
      items,
      pass,
      at,
      sync: { id: `s${pass}`, at },
      ...(full ? { markGone: true, state: { lastFullAt: at } } : {}),
    }),
  )
}

function feed(): unknown[] {
  return listChanges(db, { limit: 500 })
    .entries.map((e) => [e.resource, e.idx, e.detail, e.syncId])
    .reverse()
}

it('logs nothing per record before the baseline, then one entry for it', () => {
  write('inspections', [inspection(1), inspection(2)])
  expect(feed()).toEqual([])
  write('inspections', [inspection(1), inspection(2), inspection(3)], true)
  expect(feed()).toEqual([['inspections', null, { kind: 'baseline', records: 3 }, 's2']])
})

it('names each changed field with its old and new value, fields without a column too', () => {
  write('inspections', [inspection(1, { refEtcData1: 'a' } as Partial<InspectionRecord>)], true)
  write('inspections', [
    inspection(1, {
      productName: '새 이름',
      inspectionResult: '정품',
      refEtcData1: 'b',
    } as Partial<InspectionRecord>),
  ])
  expect(feed().slice(1)).toEqual([
    [
      'inspections',
      1,
      {
        kind: 'result',
        before: null,
        after: '정품',
        also: [
          {
            kind: 'fields',
            fields: [
              { field: 'productName', before: '상품 1', after: '새 이름' },
              { field: 'refEtcData1', before: 'a', after: 'b' },
            ],
          },
        ],
      },
      's2',
    ],
  ])
})

it("gives a record's changes of one sync as one entry, of its weightiest kind", () => {
  write(
    'inspections',
    [inspection(1, { inspectionStatus: '감정승인(배송중)' }), inspection(2)],
    true,
  )
  // A delivery: the status moves, the result arrives and the modification time changes together.
  write('inspections', [
    inspection(1, {
      inspectionStatus: '배송완료',
      inspectionResult: '가품',
      modifiedAt: '2026-11-25 10:00:00',
    }),
    inspection(2, { modifiedAt: '2026-11-25 11:00:00' }),
  ])
  const [delivered, touched] = feed().slice(1)
  expect(delivered).toEqual([
    'inspections',
    1,
    {
      kind: 'result',
      before: null,
      after: '가품',
      also: [
        { kind: 'status', before: '감정승인(배송중)', after: '배송완료' },
        {
          kind: 'fields',
          fields: [{ field: 'modifiedAt', before: null, after: '2026-11-25 10:00:00' }],
        },
      ],
    },
    's2',
  ])
  // Only another field: a `fields` entry of its own.
  expect(touched).toEqual([
    'inspections',
    2,
    {
      kind: 'fields',
      fields: [{ field: 'modifiedAt', before: null, after: '2026-11-25 11:00:00' }],
    },
    's2',
  ])
  expect(feed()).toHaveLength(3)
})

it('gives a guarantee state move as its states and labels; an unknown label as a status', () => {
  write('guarantees', [guarantee(1, { status: '발급대기' }), guarantee(2)], true)
  write('guarantees', [guarantee(1, { status: '발급취소' }), guarantee(2, { status: '보류' })])
  expect(feed().slice(1)).toEqual([
    [
      'guarantees',
      1,
      {
        kind: 'state',
        before: 'ready',
        after: 'cancel',
        beforeLabel: '발급대기',
        afterLabel: '발급취소',
      },
      's2',
    ],
    ['guarantees', 2, { kind: 'status', before: '발급완료', after: '보류' }, 's2'],
  ])
})

it('logs nothing for a record seen again unchanged or only indexed again', () => {
  write('inspections', [inspection(1), inspection(2)], true)
  db.prepare("UPDATE inspections SET search_key = '3.old' WHERE idx = 1").run()
  write('inspections', [inspection(1), inspection(2)], true)
  expect(feed()).toHaveLength(1)
  expect(db.prepare('SELECT search_key FROM inspections WHERE idx = 1').get()).not.toEqual({
    search_key: '3.old',
  })
})

it('logs gone after a complete full pass and back when seen again, with a new record', () => {
  write('inspections', [inspection(1), inspection(2)], true)
  write('inspections', [inspection(2)], true)
  write('inspections', [inspection(1), inspection(2), inspection(3)], true)
  expect(feed().slice(1)).toEqual([
    ['inspections', 1, { kind: 'gone' }, 's2'],
    ['inspections', 1, { kind: 'back' }, 's3'],
    ['inspections', 3, { kind: 'new', status: '배송완료' }, 's3'],
  ])
})
