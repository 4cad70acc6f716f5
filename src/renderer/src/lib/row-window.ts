/**
 * How long a list's rows stay unchanged before it loads its next page
 * without a scroll (a short first page, or rows that do not fill the
 * view). Each key typed in a search changes the rows sooner than this, so
 * the next page of a text still being typed is never asked: it would make
 * the next key's answer wait behind it in the store, and its rows behind
 * it in the window. A scroll near the end still asks at once.
 */
export const LOAD_ON_DELAY_MS = 250

/** The slice `[start, end)` of a fixed-height list to keep in the DOM. */
export interface RowWindow {
  readonly start: number
  readonly end: number
}

/**
 * The rows of a list of `count` rows, each `rowHeight` px tall, that a
 * viewport of `viewport` px scrolled to `scrollTop` shows, plus `overscan`
 * rows either side. Pure arithmetic: fixed heights mean nothing is measured.
 */
export function rowWindow(
  scrollTop: number,
  viewport: number,
  rowHeight: number,
  count: number,
  overscan: number,
): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 }
  const top = Math.max(0, scrollTop)
  const first = Math.min(count - 1, Math.floor(top / rowHeight))
  const last = Math.ceil((top + Math.max(0, viewport)) / rowHeight)
  return {
    start: Math.max(0, first - overscan),
    end: Math.min(count, Math.max(first + 1, last) + overscan),
  }
}

/**
 * Where to scroll so row `index` is fully in view, moving as little as
 * possible; null when it already is.
 */
export function revealOffset(
  index: number,
  rowHeight: number,
  scrollTop: number,
  viewport: number,
): number | null {
  if (index < 0) return null
  const top = index * rowHeight
  if (top < scrollTop) return top
  if (top + rowHeight > scrollTop + viewport) return Math.max(0, top + rowHeight - viewport)
  return null
}
