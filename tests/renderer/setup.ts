import { cleanup } from '@testing-library/svelte'
import { afterEach } from 'vitest'

/**
 * jsdom has no layout. Virtualized lists learn their viewport from a
 * ResizeObserver, so this one reports every observed element as 800×400
 * (a typical list pane) once, on the next microtask, as a browser would.
 */
class FixedSizeResizeObserver {
  readonly #callback: ResizeObserverCallback

  constructor(callback: ResizeObserverCallback) {
    this.#callback = callback
  }

  observe(target: Element): void {
    queueMicrotask(() =>
      this.#callback(
        [{ target, contentRect: { width: 800, height: 400 } } as unknown as ResizeObserverEntry],
        this as unknown as ResizeObserver,
      ),
    )
  }

  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = FixedSizeResizeObserver as unknown as typeof ResizeObserver
globalThis.ResizeObserver = window.ResizeObserver

afterEach(() => cleanup())
