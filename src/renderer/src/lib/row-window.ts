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
