/**
 * A flag that turns on once `source` has stayed true for `delayMs`, and off
 * as soon as `source` is false again. For feedback that should only show
 * when a wait is long enough to notice (a list dimming its old rows while a
 * new filter loads): a fast answer then changes nothing on screen, so the
 * frame that draws a typed key repaints only what the key changed.
 * Construct it where effects may be created (a component's script).
 */
/** How long a list's answer may take before its old rows dim (a wait long enough to notice). */
export const STALE_AFTER_MS = 200

export class DelayedFlag {
  current = $state(false)

  constructor(source: () => boolean, delayMs: number) {
    $effect(() => {
      if (!source()) {
        this.current = false
        return
      }
      const timer = setTimeout(() => (this.current = true), delayMs)
      return () => clearTimeout(timer)
    })
  }
}
