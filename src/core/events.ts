import type { EventName } from '../shared/channels'
import type { EventPayloads } from '../shared/contract'

/** A listener for every event; the hosts forward each to the renderer. */
export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void

/** Typed fan-out of core events to the hosts (Electron window, web-host streams). */
export class EventBus {
  readonly #sinks = new Set<EventSink>()

  /** Adds a sink; returns the function that removes it. */
  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink)
    return () => this.#sinks.delete(sink)
  }

  /** Sends an event to every sink; a failing sink does not stop the others. */
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
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
