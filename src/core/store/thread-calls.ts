import type { z } from 'zod'
import { AppError, type errorDataSchema } from '../app-error'

/** A data thread's answer to one call, as its protocol's schema reads it. */
export type ThreadAnswer<T> =
  | { readonly id: number; readonly ok: true; readonly value: T }
  | { readonly id: number; readonly ok: false; readonly error: z.infer<typeof errorDataSchema> }

interface Waiter<T> {
  resolve(value: T): void
  reject(error: AppError): void
}

/**
 * The calls a thread handle (the page thread, the image index) has sent to
 * its worker and not yet had answered: each gets an id, and settles when the
 * worker's answer with that id arrives or when the handle fails them all.
 */
export class PendingCalls<T> {
  readonly #waiters = new Map<number, Waiter<T>>()
  #nextId = 1

  /** Calls sent and not yet settled. */
  get size(): number {
    return this.#waiters.size
  }

  /** Registers a call under a new id and hands that id to `send`; resolves with the answer. */
  open(send: (id: number) => void): Promise<T> {
    const id = this.#nextId
    this.#nextId += 1
    return new Promise<T>((resolve, reject) => {
      this.#waiters.set(id, { resolve, reject })
      send(id)
    })
  }

  /** Settles the call `answer` belongs to; an answer to no waiting call is dropped. */
  settle(answer: ThreadAnswer<T>): void {
    const waiter = this.#waiters.get(answer.id)
    this.#waiters.delete(answer.id)
    if (answer.ok) waiter?.resolve(answer.value)
    else waiter?.reject(AppError.fromData(answer.error))
  }

  /**
   * Reads `raw` (a message from the worker) with its protocol's `schema` and
   * settles the call it answers; false when `raw` is no answer at all.
   */
  settleRaw(
    schema: {
      safeParse(raw: unknown): { success: true; data: ThreadAnswer<T> } | { success: false }
    },
    raw: unknown,
  ): boolean {
    const parsed = schema.safeParse(raw)
    if (parsed.success) this.settle(parsed.data)
    return parsed.success
  }

  /** Fails every waiting call with `error`. */
  failAll(error: AppError): void {
    for (const waiter of this.#waiters.values()) waiter.reject(error)
    this.#waiters.clear()
  }
}

/**
 * The timer that ends an idle data thread: {@link start}ed when the thread
 * has nothing left to do, {@link clear}ed when work comes; after `ms` it
 * runs `stop` (the next call starts a new thread).
 */
export class IdleTimer {
  readonly #ms: number
  #timer: ReturnType<typeof setTimeout> | null = null

  constructor(ms: number) {
    this.#ms = Math.max(0, ms)
  }

  start(stop: () => void): void {
    this.clear()
    this.#timer = setTimeout(() => {
      this.#timer = null
      stop()
    }, this.#ms)
    // An idle thread's timer never keeps the process alive.
    this.#timer.unref()
  }

  clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }
}
