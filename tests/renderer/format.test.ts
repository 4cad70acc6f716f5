import { describe, expect, it } from 'vitest'
import { formatServiceTime, zonedServiceTime } from '../../src/renderer/src/lib/format'

describe('service timestamps', () => {
  it('are cut to minutes in a table and shown in full with the zone in a detail pane', () => {
    expect(formatServiceTime('2026-11-22 10:51:03')).toBe('2026-11-22 10:51')
    expect(zonedServiceTime('2026-11-22 10:51:03', 'Asia/Seoul')).toBe(
      '2026-11-22 10:51:03 (Asia/Seoul)',
    )
  })

  it('show a dash in a table and nothing in a detail pane when the service sent none', () => {
    expect(formatServiceTime(null)).toBe('—')
    expect(zonedServiceTime(null, 'Asia/Seoul')).toBeNull()
    expect(zonedServiceTime('', 'Asia/Seoul')).toBeNull()
  })
})
