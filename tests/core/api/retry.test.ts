import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/core/app-error'
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseRetryAfter,
  withRetries,
} from '../../../src/core/api/retry'
import { virtualTiming } from '../helpers/virtual-timing'

const NOW = Date.UTC(2025, 0, 1)

describe('Retry-After parsing', () => {
  it.each([
    ['7', 7000],
    [' 0 ', 0],
    ['120', 120_000],
    ['Wed, 01 Jan 2025 00:00:30 GMT', 30_000],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
  ])('%j → %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })

  it.each([null, '', 'soon', '-5', '1.5', 'May', '2025-01-01', 'Wed, 01 Jan 2025 00:00:30'])(
    'garbage %j → undefined (normal backoff)',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined()
    },
  )
})

describe('backoff', () => {
  it('is full jitter under a doubling ceiling', () => {
    const policy = DEFAULT_RETRY_POLICY
    expect(backoffDelay(1, policy, () => 0)).toBe(0)
    expect(backoffDelay(1, policy, () => 0.999999)).toBe(499)
    expect(backoffDelay(2, policy, () => 0.999999)).toBe(999)
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1000)
    expect(backoffDelay(30, policy, () => 0.999999)).toBe(9999)
  })

  it('retries exactly network, timeout, 429, 502, 503, 504', () => {
    const yes = [
      new AppError('network', 'x'),
      new AppError('timeout', 'x'),
      new AppError('rate_limited', 'x', { status: 429 }),
      new AppError('server', 'x', { status: 502 }),
      new AppError('server', 'x', { status: 503 }),
      new AppError('server', 'x', { status: 504 }),
    ]
    const no = [
      new AppError('server', 'x', { status: 500 }),
      new AppError('tls', 'x'),
      new AppError('auth', 'x', { status: 401 }),
      new AppError('forbidden', 'x', { status: 403 }),
      new AppError('bad_request', 'x', { status: 400 }),
      new AppError('bad_response', 'x'),
      new AppError('cancelled', 'x'),
      new AppError('too_large', 'x'),
      new Error('plain'),
    ]
    expect(yes.map(isRetryable)).toEqual(yes.map(() => true))
    expect(no.map(isRetryable)).toEqual(no.map(() => false))
  })
})

describe('withRetries on a virtual clock (docs/faults.md F2, F3)', () => {
  const failing = (error: AppError) => {
    let calls = 0
    return {
      get calls() {
        return calls
      },
      attempt: async () => {
        calls += 1
        throw error
      },
    }
  }

  it('stops after 4 attempts with delays inside the full-jitter bounds', async () => {
    const timing = virtualTiming(42)
    const op = failing(new AppError('server', 'Partner API unavailable (503)', { status: 503 }))
    await expect(withRetries(op.attempt, { timing })).rejects.toMatchObject({
      code: 'server',
      status: 503,
    })
    expect(op.calls).toBe(4)
    expect(timing.sleeps).toHaveLength(3)
    timing.sleeps.forEach((ms, k) => {
      expect(ms).toBeGreaterThanOrEqual(0)
      expect(ms).toBeLessThan(500 * 2 ** k)
    })
  })

  it('never allows more than 4 attempts, whatever is configured', async () => {
    const op = failing(new AppError('network', 'x'))
    await expect(
      withRetries(op.attempt, { timing: virtualTiming(), policy: { maxAttempts: 50 } }),
    ).rejects.toMatchObject({ code: 'network' })
    expect(op.calls).toBe(4)
  })

  it('does not retry what another attempt cannot cure', async () => {
    for (const error of [
      new AppError('tls', 'x'),
      new AppError('auth', 'x', { status: 401 }),
      new AppError('server', 'x', { status: 500 }),
      new AppError('bad_response', 'x'),
    ]) {
      const op = failing(error)
      await expect(withRetries(op.attempt, { timing: virtualTiming() })).rejects.toBe(error)
      expect(op.calls).toBe(1)
    }
  })

  it('waits at least Retry-After (plus jitter) and then succeeds', async () => {
    const timing = virtualTiming()
    let calls = 0
    const value = await withRetries(
      async () => {
        calls += 1
        if (calls === 1) {
          throw new AppError('rate_limited', 'x', {
            status: 429,
            retryAt: new Date(timing.now() + 7000).toISOString(),
          })
        }
        return 'ok'
      },
      { timing },
    )
    expect(value).toBe('ok')
    expect(timing.sleeps).toHaveLength(1)
    expect(timing.sleeps[0]).toBeGreaterThanOrEqual(7000)
    expect(timing.sleeps[0]).toBeLessThan(7500)
  })

  it('stops at once with "rate-limited until HH:MM" when Retry-After passes the 120 s cap', async () => {
    const timing = virtualTiming()
    const retryAt = new Date(timing.now() + 600_000).toISOString()
    const op = failing(new AppError('rate_limited', 'x', { status: 429, retryAt }))
    const error = (await withRetries(op.attempt, { timing }).catch((e: unknown) => e)) as AppError
    expect(op.calls).toBe(1)
    expect(timing.sleeps).toEqual([])
    expect(error.code).toBe('rate_limited')
    expect(error.retryAt).toBe(retryAt)
    const at = new Date(retryAt)
    const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
    expect(error.message).toBe(`Rate-limited by the partner API until ${hhmm}.`)
  })

  it('respects the overall deadline', async () => {
    const timing = virtualTiming()
    const op = {
      calls: 0,
      attempt: async (remainingMs: number) => {
        op.calls += 1
        expect(remainingMs).toBeLessThanOrEqual(3000)
        timing.advance(1500) // each attempt takes 1.5 s of the 3 s budget
        throw new AppError('network', 'x')
      },
    }
    await expect(
      withRetries(op.attempt, { timing, policy: { deadlineMs: 3000 } }),
    ).rejects.toMatchObject({ code: 'network' })
    expect(op.calls).toBeLessThanOrEqual(2)
  })

  it('is cancelled by the caller signal during a wait', async () => {
    const timing = virtualTiming()
    const controller = new AbortController()
    let calls = 0
    const error = await withRetries(
      async () => {
        calls += 1
        controller.abort()
        throw new AppError('server', 'x', { status: 502 })
      },
      { timing, signal: controller.signal },
    ).catch((e: unknown) => e)
    expect((error as AppError).code).toBe('cancelled')
    expect(calls).toBe(1)
  })
})
