import { describe, expect, it } from 'vitest'
import { readToImageIndex, readFromImageIndex } from '../../../src/core/images/index-protocol'
import { readFromOwner, readPageParcel } from '../../../src/core/owner/protocol'
import { readFromPageThread } from '../../../src/core/sync/page-thread/protocol'
import { readFromTeamLink } from '../../../src/core/team/team-protocol'

/**
 * The data threads' answers, as their handles on the main thread read them
 * (docs/architecture.md "Threads"): what each thread sends is read back as
 * sent; anything else is no answer, which the handle treats as a broken thread.
 */

const error = { code: 'internal', message: 'm' }

describe("the owner's answers", () => {
  it('reads each kind the owner sends', () => {
    const answers = [
      { type: 'ready', notice: null },
      {
        type: 'ready',
        notice: { code: 'store_corrupt', message: 'm', movedTo: '/p/x.bad', at: 't' },
      },
      { type: 'failed', error },
      { type: 'done', id: 4, value: { rows: [] } },
      { type: 'done', id: 4, value: undefined },
      { type: 'pagesDone', ids: [1, 2] },
      { type: 'error', id: 9, error: { ...error, values: { idx: 7 } } },
    ]
    for (const answer of answers) expect(readFromOwner(answer)).toEqual(answer)
  })

  it('refuses what the owner never sends', () => {
    for (const bad of [
      null,
      { type: 'ready' },
      { type: 'ready', notice: { code: 'other', message: 'm', movedTo: 'x', at: 't' } },
      { type: 'failed', error: { code: 'nope', message: 'm' } },
      { type: 'done', id: 0, value: 1 },
      { type: 'pagesDone', ids: [] },
      { type: 'pagesDone', ids: [1, '2'] },
      { type: 'error', id: 1 },
      { type: 'hello' },
    ]) {
      expect(readFromOwner(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe("the page thread's parcels to the owner", () => {
  it("reads a page's chunks, and nothing else as them", () => {
    const chunks = [new Uint8Array([1]), new Uint8Array([2, 3])]
    expect(readPageParcel({ parcel: 3, chunks })).toEqual({ parcel: 3, chunks })
    for (const bad of [
      { parcel: 0, chunks },
      { parcel: 3 },
      { parcel: 3, chunks: [[1, 2]] },
      { parcel: '3', chunks },
    ]) {
      expect(readPageParcel(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe("the page thread's answers", () => {
  const page = {
    total: 3,
    page: 1,
    received: 3,
    rejected: 1,
    rejects: [
      {
        position: 2,
        idx: null,
        problems: ['data[2].idx: missing'],
        field: 'idx',
        reason: 'missing',
        raw: '{}',
        rawTruncated: false,
      },
    ],
    encoded: [{ count: 2, link: 1, parcel: 5, chunk: 0 }],
    fingerprint: '10,11',
  }

  it('reads a parsed page, with its chunks encoded or named, and an error', () => {
    expect(readFromPageThread({ id: 1, ok: true, value: page })).toEqual({
      id: 1,
      ok: true,
      value: page,
    })
    const encoded = { ...page, encoded: [{ count: 2, bytes: new Uint8Array([1, 2]) }] }
    expect(readFromPageThread({ id: 2, ok: true, value: encoded })?.ok).toBe(true)
    expect(readFromPageThread({ id: 3, ok: false, error })).toEqual({ id: 3, ok: false, error })
  })

  it('refuses a page that is not one', () => {
    for (const value of [
      null,
      { ...page, encoded: [] },
      { ...page, encoded: [{ count: 2 }] },
      { ...page, total: -1 },
      { ...page, fingerprint: 5 },
      { ...page, rejects: [{ position: 0 }] },
      { ...page, pageSize: '50' },
    ]) {
      expect(readFromPageThread({ id: 1, ok: true, value }), JSON.stringify(value)).toBeNull()
    }
    expect(readFromPageThread({ id: 1, ok: false, error: { message: 'm' } })).toBeNull()
    expect(readFromPageThread({ ok: true, value: page })).toBeNull()
  })
})

describe("the image index's messages", () => {
  it('reads each call, and refuses one that is not', () => {
    const calls = [
      { op: 'totalBytes' },
      { op: 'nameOfUrl', url: 'https://x/y.png' },
      { op: 'use', name: 'ab.png', now: 5 },
      { op: 'store', name: 'ab.png', size: 10, url: 'u', now: 5, maxTotalBytes: 100 },
    ]
    for (const call of calls) expect(readToImageIndex({ id: 1, call })).toEqual({ id: 1, call })
    for (const call of [
      { op: 'drop' },
      { op: 'use', name: '', now: 5 },
      { op: 'use', name: 'x'.repeat(201), now: 5 },
      { op: 'store', name: 'ab.png', size: -1, url: 'u', now: 5, maxTotalBytes: 100 },
      { op: 'nameOfUrl' },
    ]) {
      expect(readToImageIndex({ id: 1, call }), JSON.stringify(call)).toBeNull()
    }
    expect(readToImageIndex({ call: calls[0] })).toBeNull()
  })

  it('reads an answer of any value, null included, and an error', () => {
    expect(readFromImageIndex({ id: 1, ok: true, value: null })).toEqual({
      id: 1,
      ok: true,
      value: null,
    })
    expect(readFromImageIndex({ id: 1, ok: false, error })).toEqual({ id: 1, ok: false, error })
    expect(readFromImageIndex({ id: 1, ok: 'yes' })).toBeNull()
  })
})

describe("the owner's answers on the team worker's link", () => {
  it('reads an answer and an error, the error by the same reader the data threads use', () => {
    expect(readFromTeamLink({ type: 'done', id: 3, value: { n: 1 } })).toEqual({
      type: 'done',
      id: 3,
      value: { n: 1 },
    })
    const sent = { ...error, reason: 'team_no_answer', values: { host: 'db' }, stack: 'x' }
    expect(readFromTeamLink({ type: 'error', id: 2, error: sent })).toEqual({
      type: 'error',
      id: 2,
      error: { ...error, reason: 'team_no_answer', values: { host: 'db' } },
    })
  })

  it('refuses an error that is none', () => {
    for (const bad of [
      { type: 'error', id: 2 },
      { type: 'error', id: 2, error: { code: 'nope', message: 'm' } },
      { type: 'error', id: 2, error: { ...error, values: { a: [] } } },
      { type: 'error', id: 0, error },
    ]) {
      expect(readFromTeamLink(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})
