/**
 * The scroll position and height of a windowed list's scroller (DataGrid,
 * CardGrid), kept current for `rowWindow` in `row-window.ts`.
 */
export class ScrollViewport {
  /** The scroller's `scrollTop`, in px. */
  top = $state(0)
  // Until the pane is measured, the window's height is a good upper bound, so
  // the first rows go into the first layout instead of waiting a frame for it.
  /** The scroller's visible height, in px. */
  height = $state(globalThis.innerHeight ?? 0)

  /** Reads the scroll position of `element` (call it from `onscroll`). */
  read(element: HTMLElement): void {
    this.top = element.scrollTop
  }

  /** Follows the height of `element`; returns the cleanup (for `$effect`). */
  observe(element: HTMLElement): () => void {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) this.height = entry.contentRect.height
    })
    observer.observe(element)
    return () => observer.disconnect()
  }
}
