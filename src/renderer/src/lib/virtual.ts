import type { VListHandle } from 'virtua/svelte'

/** The part of a virtua list the grids use to page and to keep the selection in view. */
type ListHandle = Pick<
  VListHandle,
  'getScrollOffset' | 'getViewportSize' | 'findItemIndex' | 'getItemOffset' | 'scrollToIndex'
>

/** True when the last `margin` items of `count` are in view or close to it. */
export function nearEnd(list: ListHandle | undefined, count: number, margin: number): boolean {
  if (!list || count === 0) return false
  const bottom = list.getScrollOffset() + list.getViewportSize()
  return list.findItemIndex(bottom) >= count - margin
}

/** Scrolls item `index` (of height `size`) into view, only as far as needed. */
export function revealItem(list: ListHandle | undefined, index: number, size: number): void {
  if (!list || index < 0) return
  const top = list.getScrollOffset()
  const offset = list.getItemOffset(index)
  if (offset < top) list.scrollToIndex(index, { align: 'start' })
  else if (offset + size > top + list.getViewportSize()) list.scrollToIndex(index, { align: 'end' })
}
