import { flushSync } from 'svelte'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DelayedFlag } from '../../src/renderer/src/lib/delayed-flag.svelte'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function setup() {
  const source = $state({ loading: false })
  let flag!: DelayedFlag
  const stop = $effect.root(() => {
    flag = new DelayedFlag(() => source.loading, 200)
  })
  flushSync()
  return { source, flag, stop }
}

describe('a flag for waits long enough to notice', () => {
  it('stays off through a short wait', () => {
    const { source, flag, stop } = setup()
    source.loading = true
    flushSync()
    vi.advanceTimersByTime(150)
    source.loading = false
    flushSync()
    vi.advanceTimersByTime(500)
    flushSync()
    expect(flag.current).toBe(false)
    stop()
  })

  it('turns on after the delay and off at once when the wait ends', () => {
    const { source, flag, stop } = setup()
    source.loading = true
    flushSync()
    vi.advanceTimersByTime(199)
    flushSync()
    expect(flag.current).toBe(false)
    vi.advanceTimersByTime(1)
    flushSync()
    expect(flag.current).toBe(true)
    source.loading = false
    flushSync()
    expect(flag.current).toBe(false)
    stop()
  })
})
