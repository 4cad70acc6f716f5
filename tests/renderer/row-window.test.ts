import { describe, expect, it } from 'vitest'
import { revealOffset, rowWindow } from '../../src/renderer/src/lib/row-window'

describe('row window of a fixed-height grid', () => {
  it('keeps the rows in view plus the overscan either side', () => {
    // 400 px of 40 px rows, scrolled to row 100.
    expect(rowWindow(4000, 400, 40, 100_000, 4)).toEqual({ start: 96, end: 114 })
    expect(rowWindow(0, 400, 40, 100_000, 4)).toEqual({ start: 0, end: 14 })
  })

  it('counts a row cut by the top or bottom edge as shown', () => {
    expect(rowWindow(20, 400, 40, 1000, 0)).toEqual({ start: 0, end: 11 })
  })

  it('stays inside the list at both ends and when the list is shorter than the view', () => {
    expect(rowWindow(39_600, 400, 40, 1000, 4)).toEqual({ start: 986, end: 1000 })
    expect(rowWindow(0, 400, 40, 3, 4)).toEqual({ start: 0, end: 3 })
    // Scrolled past the end (the list just shrank): the last rows, not nothing.
    expect(rowWindow(80_000, 400, 40, 10, 2)).toEqual({ start: 7, end: 10 })
  })

  it('is empty for an empty list, and survives a viewport not yet measured', () => {
    expect(rowWindow(0, 400, 40, 0, 4)).toEqual({ start: 0, end: 0 })
    expect(rowWindow(0, 0, 40, 50, 4)).toEqual({ start: 0, end: 5 })
    expect(rowWindow(-30, 400, 40, 50, 0)).toEqual({ start: 0, end: 10 })
  })
})

describe('revealing a row', () => {
  it('scrolls up to a row above the view and down to one below it, as little as needed', () => {
    expect(revealOffset(5, 40, 400, 400)).toBe(200)
    expect(revealOffset(25, 40, 400, 400)).toBe(640)
  })

  it('leaves the scroll alone for a row already fully in view', () => {
    expect(revealOffset(12, 40, 400, 400)).toBeNull()
    expect(revealOffset(-1, 40, 400, 400)).toBeNull()
  })
})
