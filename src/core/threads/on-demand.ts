import type { Worker } from 'node:worker_threads'
import { AppError } from '../app-error'
import type { ThreadAnswer } from '../plain-checks'

interface Waiter<T> {
  resolve(value: T): void
  reject(error: AppError): void
}

/**
 * The calls an {@link OnDemandThread} has sent to its worker and not yet had answered: each gets an id, and settles when the
 * worker's answer with that id arrives or when the handle fails them all.
 */
class PendingCalls<T> {
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
   * Reads `raw` (a message from the worker) with its protocol's `read` and
   * settles the call it answers; false when `raw` is no answer at all.
   */
  settleRaw(read: (raw: unknown) => ThreadAnswer<T> | null, raw: unknown): boolean {
    const answer = read(raw)
    if (answer !== null) this.settle(answer)
    return answer !== null
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

/** What {@link OnDemandThread} needs to run one kind of data thread. */
export interface OnDemandThreadOptions<T> {
  /** Starts a new worker (already `unref`ed or not: the handle unrefs it). */
  readonly spawn: () => Worker
  /** The protocol's reader of the thread's answers. */
  readonly answers: Parameters<PendingCalls<T>['settleRaw']>[0]
  /** How errors name the thread (`The page thread`, `The image index`). */
  readonly name: string
  /** How long the thread waits for the next call, once it has none, before it exits. */
  readonly idleMs: number
}

/**
 * A data thread that runs only while it has work (the page thread, the
 * image index): the first call (or {@link warm}) starts it, it exits once it
 * has had no call for `idleMs`, and the next call starts another. A thread
 * that crashes or sends something that is no answer is given up on: the
 * calls it held fail as `internal`, and the next call starts a new one.
 */
export class OnDemandThread<T> {
  readonly #options: OnDemandThreadOptions<T>
  readonly #idle: IdleTimer
  readonly #calls = new PendingCalls<T>()
  #worker: Worker | null = null
  #closed = false
  /** Threads given up on (crashed, babbling or idle) until they have exited. */
  readonly #ending = new Set<Promise<number>>()

  constructor(options: OnDemandThreadOptions<T>) {
    this.#options = options
    this.#idle = new IdleTimer(options.idleMs)
  }

  /** True while a thread is up (started and neither idle-ended, given up on nor closed). */
  get running(): boolean {
    return this.#worker !== null
  }

  /** Starts the thread ahead of a call; unless one comes within `idleMs`, it exits again. */
  warm(): void {
    if (this.#closed) return
    this.#start()
    if (this.#calls.size === 0) this.#idleLater()
  }

  /** Sends one call (`send` posts it with its id to the worker); resolves with its answer. */
  call(send: (worker: Worker, id: number) => void): Promise<T> {
    if (this.#closed) return Promise.reject(new AppError('cancelled', 'The app is closing.'))
    const worker = this.#start()
    this.#idle.clear()
    return this.#calls.open((id) => send(worker, id))
  }

  /** Stops the thread (and any it gave up on); calls still waiting fail as cancelled. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    this.#idle.clear()
    const worker = this.#worker
    this.#worker = null
    this.#calls.failAll(new AppError('cancelled', 'The app is closing.'))
    if (worker) this.#ending.add(worker.terminate())
    await Promise.all(this.#ending)
  }

  #start(): Worker {
    if (this.#worker) return this.#worker
    const { spawn, answers, name } = this.#options
    const worker = spawn()
    worker.unref()
    worker.on('message', (raw: unknown) => {
      if (this.#calls.settleRaw(answers, raw)) {
        if (this.#calls.size === 0) this.#idleLater()
        return
      }
      this.#stopped(worker, new AppError('internal', `${name} sent a malformed answer.`))
    })
    worker.on('error', (error) => {
      this.#stopped(worker, new AppError('internal', `${name} stopped.`, { cause: error }))
    })
    worker.on('exit', () => this.#stopped(worker, new AppError('internal', `${name} stopped.`)))
    this.#worker = worker
    return worker
  }

  /** Ends the thread once no call has come for `idleMs` (a new call cancels it). */
  #idleLater(): void {
    const worker = this.#worker
    if (!worker) return
    this.#idle.start(() => {
      if (this.#calls.size === 0 && this.#worker === worker) this.#retire(worker)
    })
  }

  /** The thread is gone or unusable: what it held fails, and the next call starts a new one. */
  #stopped(worker: Worker, error: AppError): void {
    if (this.#worker !== worker) return
    this.#calls.failAll(error)
    this.#retire(worker)
  }

  /** Ends `worker` (it holds no call). */
  #retire(worker: Worker): void {
    this.#worker = null
    this.#idle.clear()
    const ending = worker.terminate()
    this.#ending.add(ending)
    void ending.finally(() => this.#ending.delete(ending))
  }
}
