import { describe, expect, it } from 'vitest'
import { downscale } from '../../../scripts/icon-formats'

describe('icon downscale', () => {
  it('averages the area each pixel covers, colour weighted by alpha', () => {
    // 2×2: opaque red, transparent (its black colour must not darken the edge), opaque blue, opaque red.
    const data = Uint8Array.from([255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 255, 255, 0, 0, 255])
    expect([...downscale({ size: 2, data }, 1).data]).toEqual([170, 0, 85, 191])
  })

  it('weights partly covered pixels (3 → 2)', () => {
    const row = [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]
    const data = Uint8Array.from([...row, ...row, ...row])
    // Left target pixel: source 0 fully and half of 1 → (0 + 90 × 0.5) / 1.5 = 30.
    expect([...downscale({ size: 3, data }, 2).data.subarray(0, 4)]).toEqual([30, 30, 30, 255])
  })

  it('refuses to scale up', () => {
    expect(() => downscale({ size: 2, data: new Uint8Array(16) }, 4)).toThrow(/cannot scale/)
  })
})
