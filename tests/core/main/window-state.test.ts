import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  chooseWindowPlacement,
  loadWindowState,
  parseWindowState,
  saveWindowState,
  WINDOW_SIZE,
  windowStateFile,
} from '../../../src/main/window-state'

const laptop = { x: 0, y: 0, width: 1440, height: 875 }
const monitor = { x: 1440, y: -200, width: 2560, height: 1400 }

describe('where the window reopens', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(chooseWindowPlacement(null, [laptop], laptop)).toEqual({
      width: WINDOW_SIZE.width,
      height: WINDOW_SIZE.height,
      maximized: false,
    })
  })

  it('reopens where it was on a display that is still there, maximised or not', () => {
    const saved = { x: 1600, y: 0, width: 1500, height: 1000, maximized: true }
    expect(chooseWindowPlacement(saved, [laptop, monitor], laptop)).toEqual(saved)
  })

  it('centres on the primary display when its display is gone, shrunk to fit', () => {
    const saved = { x: 1600, y: 0, width: 2000, height: 1200, maximized: false }
    expect(chooseWindowPlacement(saved, [laptop], laptop)).toEqual({
      width: 1440,
      height: 875,
      maximized: false,
    })
  })

  it('does not count a sliver on a display as being on it', () => {
    // Only its right 40 px reach the monitor, the laptop it was on is gone.
    const saved = { x: 1440 + 40 - 1000, y: 100, width: 1000, height: 700, maximized: false }
    const onlyMonitor = [{ x: 1440, y: 0, width: 1920, height: 1080 }]
    expect(chooseWindowPlacement(saved, onlyMonitor, laptop)).not.toHaveProperty('x')
  })

  it('pulls a window that sticks out back inside its display and keeps the minimum size', () => {
    const saved = { x: 1200, y: 700, width: 500, height: 300, maximized: false }
    expect(chooseWindowPlacement(saved, [laptop], laptop)).toEqual({
      x: 1440 - WINDOW_SIZE.minWidth,
      y: 875 - WINDOW_SIZE.minHeight,
      width: WINDOW_SIZE.minWidth,
      height: WINDOW_SIZE.minHeight,
      maximized: false,
    })
  })
})

describe('the remembered state', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ad-window-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('round-trips through its file', () => {
    const file = windowStateFile(dir)
    expect(loadWindowState(file)).toBeNull()
    const state = { x: -10, y: 20, width: 1300, height: 900, maximized: false }
    saveWindowState(file, state)
    expect(loadWindowState(file)).toEqual(state)
  })

  it.each([
    ['not JSON', '{'],
    ['not an object', '[1,2]'],
    ['a missing field', '{"x":0,"y":0,"width":100,"maximized":false}'],
    ['a string size', '{"x":0,"y":0,"width":"100","height":100,"maximized":false}'],
    ['a zero size', '{"x":0,"y":0,"width":0,"height":100,"maximized":false}'],
    ['no maximised flag', '{"x":0,"y":0,"width":100,"height":100}'],
  ])('ignores %s', (_name, text) => {
    expect(parseWindowState(text)).toBeNull()
  })
})
