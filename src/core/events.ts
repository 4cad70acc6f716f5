import type { EventName } from '../shared/channels'
import type { EventPayloads } from '../shared/contract'

/** A listener for every event; the hosts forward each to the renderer. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void

/** `data.changed` of one resource reaches the windows at most once per this many ms (the app's bus). */
export const DATA_CHANGED_MS = 400

/** Options of an {@link EventBus}. */
export interface EventBusOptions {
  /**
   * Events sent at most once per this many milliseconds for one payload:
   * the first at once, later ones within the window as one, at its end
   * (the last payload). The app coalesces `data.changed` this way, so a
   * sync that commits pages many times a second makes the renderer
   * re-query a few times a second, not once per page.
   */
  readonly coalesceMs?: Partial<Record<EventName, number>>
}

interface Slot {
  pending: { readonly event: EventName; readonly payload: unknown } | null
}

/** Typed fan-out of core events to the hosts (Electron window, web-host streams). */
export class EventBus {
  readonly #sinks = new Set<EventSink>()
  readonly #coalesceMs: Partial<Record<EventName, number>>
  readonly #slots = new Map<string, Slot>()

  constructor(options: EventBusOptions = {}) {
    this.#coalesceMs = options.coalesceMs ?? {}
  }

  /** Adds a sink; returns the function that removes it. */
  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink)
    return () => this.#sinks.delete(sink)
  }

  /**
   * Sends an event to every sink, or coalesces it (see {@link EventBusOptions})
   * unless `immediate` (what a user just did shows at once); a failing sink
   * does not stop the others.
   */
  emit<E extends EventName>(
    event: E,
    payload: EventPayloads[E],
    options: { readonly immediate?: boolean } = {},
  ): void {
    const windowMs = this.#coalesceMs[event]
    if (windowMs === undefined || windowMs <= 0 || options.immediate === true) {
      this.#deliver(event, payload)
      return
    }
    const key = `${event}\u0000${JSON.stringify(payload)}`
    const slot = this.#slots.get(key)
    if (slot) {
      slot.pending = { event, payload }
      return
    }
    this.#slots.set(key, { pending: null })
    this.#deliver(event, payload)
    this.#close(key, windowMs)
  }

  /** At the end of a window: sends what came meanwhile and opens the next one, or frees the slot. */
  #close(key: string, windowMs: number): void {
    setTimeout(() => {
      const slot = this.#slots.get(key)
      if (!slot?.pending) {
        this.#slots.delete(key)
        return
      }
      const { event, payload } = slot.pending
      slot.pending = null
      this.#deliver(event, payload as EventPayloads[typeof event])
      this.#close(key, windowMs)
    }, windowMs).unref()
  }

  #deliver<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const sink of this.#sinks) {
      try {
        sink(event, payload)
      } catch (error) {
        console.error(
          `[events] sink failed for ${event}:`,
          error instanceof Error ? error.message : error,
        )
      }
    }
  }
}
