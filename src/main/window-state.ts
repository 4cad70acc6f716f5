import type { Rectangle } from 'electron'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE } from '../core/fs-private'

/** The main window's size, position and maximised state, as remembered between runs. */
export interface WindowState {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  readonly maximized: boolean
}

/** Where and how large to open the window; no `x`/`y`: Electron centres it. */
export interface WindowPlacement {
  readonly x?: number
  readonly y?: number
  readonly width: number
  readonly height: number
  readonly maximized: boolean
}

/** The window's default and smallest sizes (`createMainWindow`). */
export const WINDOW_SIZE = { width: 1280, height: 820, minWidth: 960, minHeight: 600 } as const

/** How much of the window must lie on a display to reopen it there: enough to grab the title bar. */
const VISIBLE = 64

/**
 * Where to reopen the window. The remembered bounds are kept when enough of
 * the window (64 × 64 px) still lies on one of today's displays' work areas
 * (a display may have been unplugged or rearranged), with the size shrunk to
 * fit that display; otherwise the window opens centred on the primary
 * display at the remembered size, shrunk to fit it. Nothing remembered: the
 * default size, centred. The maximised state is kept either way.
 */
export function chooseWindowPlacement(
  saved: WindowState | null,
  displays: readonly Rectangle[],
  primary: Rectangle,
): WindowPlacement {
  if (!saved) return { width: WINDOW_SIZE.width, height: WINDOW_SIZE.height, maximized: false }
  const home = displays.find((area) => overlap(saved, area) >= VISIBLE)
  const area = home ?? primary
  const width = fit(saved.width, WINDOW_SIZE.minWidth, area.width)
  const height = fit(saved.height, WINDOW_SIZE.minHeight, area.height)
  if (!home) return { width, height, maximized: saved.maximized }
  // Moved back inside the display's work area where it sticks out.
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width)
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height)
  return { x, y, width, height, maximized: saved.maximized }
}

/** The smaller side of the overlap of two rectangles (0 when they do not meet). */
function overlap(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return Math.max(0, Math.min(width, height))
}

/** `value` within [min, max]; a display smaller than the minimum gets its own size. */
function fit(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(max, 1))
}

/**
 * Reads a remembered state; null when missing, unreadable or not a state (the defaults then apply).
 * @internal
 */
export function parseWindowState(text: string): WindowState | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  const numbers = ['x', 'y', 'width', 'height'].map((key) => record[key])
  if (!numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) return null
  const [x, y, width, height] = numbers as [number, number, number, number]
  if (width <= 0 || height <= 0 || typeof record['maximized'] !== 'boolean') return null
  return { x, y, width, height, maximized: record['maximized'] }
}

/** The state file in the data folder. */
export function windowStateFile(dataDir: string): string {
  return join(dataDir, 'window-state.json')
}

/** The remembered state, or null. */
export function loadWindowState(file: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/** Remembers the state (owner-only, like the rest of the data folder); a failure only loses it. */
export function saveWindowState(file: string, state: WindowState): void {
  try {
    writeFileSync(file, JSON.stringify(state), { mode: PRIVATE_FILE_MODE })
  } catch {
    // Not remembering the window's place is no reason to fail closing it.
  }
}
