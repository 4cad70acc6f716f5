import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EventBus } from '../../src/core/events'

describe('event bus', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('coalesces data.changed per resource: the first at once, then at most one per window, the last one kept', () => {
    const bus = new EventBus({ coalesceMs: { 'data.changed': 400 } })
    const seen: string[] = []
    bus.subscribe((event, payload) => seen.push(`${event}:${JSON.stringify(payload)}`))
    // A sync committing a page every 10 ms for two seconds, and one brand list in between.
    for (let t = 0; t < 2000; t += 10) {
      bus.emit('data.changed', { resource: 'inspections' })
      if (t === 500) bus.emit('data.changed', { resource: 'brands' })
      vi.advanceTimersByTime(10)
    }
    const inspections = seen.filter((s) => s.includes('inspections'))
    // At once, then at 400, 800, 1200, 1600 and 2000 ms: six, not two hundred.
    expect(inspections).toHaveLength(6)
    expect(seen.filter((s) => s.includes('brands'))).toHaveLength(1)
    // The sync ends: the window closes with nothing new, and a later change is sent at once.
    vi.advanceTimersByTime(1000)
    expect(seen.filter((s) => s.includes('inspections'))).toHaveLength(6)
    bus.emit('data.changed', { resource: 'inspections' })
    expect(seen.filter((s) => s.includes('inspections'))).toHaveLength(7)
  })

  it('the last change of a burst always arrives, after the window', () => {
    const bus = new EventBus({ coalesceMs: { 'data.changed': 400 } })
    let count = 0
    bus.subscribe(() => (count += 1))
    bus.emit('data.changed', { resource: 'guarantees' })
    bus.emit('data.changed', { resource: 'guarantees' })
    expect(count).toBe(1)
    vi.advanceTimersByTime(399)
    expect(count).toBe(1)
    vi.advanceTimersByTime(1)
    expect(count).toBe(2)
  })

  it('an immediate data.changed (a review mark just set) is sent even inside a window', () => {
    const bus = new EventBus({ coalesceMs: { 'data.changed': 400 } })
    let count = 0
    bus.subscribe(() => (count += 1))
    bus.emit('data.changed', { resource: 'inspections' })
    bus.emit('data.changed', { resource: 'inspections' }, { immediate: true })
    expect(count).toBe(2)
  })

  it('other events pass through as they come; a failing sink does not stop the others', () => {
    const bus = new EventBus({ coalesceMs: { 'data.changed': 400 } })
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    let count = 0
    bus.subscribe(() => {
      throw new Error('broken window')
    })
    bus.subscribe(() => (count += 1))
    for (let i = 0; i < 5; i += 1) bus.emit('profiles.changed', { activeId: 'sandbox' })
    expect(count).toBe(5)
    expect(errors).toHaveBeenCalledTimes(5)
    errors.mockRestore()
  })
})
