import { describe, expect, it } from 'vitest'
import { readOwnerData, readToOwner } from '../../../src/core/owner/protocol'
import { readErrorData } from '../../../src/core/plain-checks'

describe("the owner's checks of what the main thread sends", () => {
  it('reads its start data, and nothing else as such', () => {
    const openedAt = new Date('2026-01-02T03:04:05.678Z').toISOString()
    expect(readOwnerData({ file: '/a/b.sqlite', openedAt })).toEqual({
      file: '/a/b.sqlite',
      openedAt,
    })
    expect(readOwnerData({ file: 'f', openedAt, busyTimeoutMs: 250, extra: 1 })).toEqual({
      file: 'f',
      openedAt,
      busyTimeoutMs: 250,
    })
    for (const bad of [
      null,
      'f',
      [],
      { file: '', openedAt },
      { file: 1, openedAt },
      { file: 'f' },
      { file: 'f', openedAt: '2026-01-02 03:04:05' },
      { file: 'f', openedAt: '2026-01-02T03:04:05+09:00' },
      { file: 'f', openedAt, busyTimeoutMs: 0 },
      { file: 'f', openedAt, busyTimeoutMs: 1.5 },
    ]) {
      expect(readOwnerData(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('reads a call, a reset and a close; anything else is null', () => {
    expect(
      readToOwner({ type: 'call', id: 3, op: 'queryInspections', args: { limit: 5 } }),
    ).toEqual({
      type: 'call',
      id: 3,
      op: 'queryInspections',
      args: { limit: 5 },
    })
    expect(readToOwner({ type: 'reset', junk: true })).toEqual({ type: 'reset' })
    expect(readToOwner({ type: 'close' })).toEqual({ type: 'close' })
    for (const bad of [
      undefined,
      { type: 'call', id: 0, op: 'x' },
      { type: 'call', id: '1', op: 'x' },
      { type: 'call', id: 1 },
      { type: 'call', id: 1, op: 7 },
      { type: 'drop', id: 1 },
      [{ type: 'close' }],
    ]) {
      expect(readToOwner(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('reads back a stored error, and nothing else as one', () => {
    expect(readErrorData({ code: 'timeout', message: 'm' })).toEqual({
      code: 'timeout',
      message: 'm',
    })
    expect(
      readErrorData({ code: 'rate_limited', message: 'm', status: 429, retryAt: 'x' }),
    ).toEqual({ code: 'rate_limited', message: 'm', status: 429, retryAt: 'x' })
    for (const bad of [
      null,
      'timeout',
      { code: 'no_such_code', message: 'm' },
      { code: 'timeout' },
      { code: 'timeout', message: 'm', status: '429' },
      { code: 'timeout', message: 'm', retryAt: 5 },
    ]) {
      expect(readErrorData(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})
