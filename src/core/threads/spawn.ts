import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * A data thread's entry file: the bundled file in the app (`out/main/*.js`,
 * built by electron-vite), the TypeScript source with
 * `execArgv: ['--import', 'tsx']` in tests and the web host.
 */
export interface ThreadEntry {
  readonly url: URL
  readonly execArgv?: readonly string[]
}

/** Data threads started and not yet exited, with the entry each runs. */
const live = new Map<Worker, string>()

/**
 * The old generation of a data thread's heap, in MB, unless its handle
 * says otherwise. A bound, not a budget: V8 sizes how far a heap may grow
 * past its live objects before the next full collection by this figure (up
 * to 4 times the live objects for a heap allowed 2 GB or more, which a
 * thread gets by default; about 1.6 times at 1 GB). The threads' garbage
 * (a page's records, a query's rows) then stops piling up to several times
 * what they hold, which is most of a sync's resident memory, while an
 * export of a large list still has room.
 * @internal
 */
export const DATA_THREAD_OLD_GENERATION_MB = 1024

/**
 * The young generation of a data thread's heap, in MB, unless its handle
 * says otherwise (the owner's is larger: its objects are many, and a
 * query's rows may live through a few collections). Every data thread has one: the process
 * starts each young generation at its bound, which it never grows past
 * (`heap-sizing.ts`); without a bound a thread would start at V8's largest.
 * @internal
 */
export const DATA_THREAD_YOUNG_GENERATION_MB = 4

/**
 * Starts a worker thread of the data path (a database owner, a
 * checkpointer, the sync's page thread) and keeps count of it until it
 * exits, so tests (and shutdown) can prove no thread is left behind.
 */
export function spawnStoreThread(entry: ThreadEntry, options: WorkerOptions = {}): Worker {
  const worker = new Worker(entry.url, {
    ...options,
    resourceLimits: {
      maxOldGenerationSizeMb: DATA_THREAD_OLD_GENERATION_MB,
      maxYoungGenerationSizeMb: DATA_THREAD_YOUNG_GENERATION_MB,
      ...options.resourceLimits,
    },
    execArgv: [...(entry.execArgv ?? [])],
  })
  live.set(worker, entry.url.href)
  worker.once('exit', () => live.delete(worker))
  return worker
}

/**
 * The request id a message to a data thread carries (a positive integer),
 * or null: lets a thread answer a request it could not read with an error.
 */
export function messageId(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return null
  return typeof raw.id === 'number' && Number.isInteger(raw.id) && raw.id > 0 ? raw.id : null
}

/**
 * Data threads (owners, checkpointers, the page thread) started and not yet
 * exited; with `entry`, only those started from it.
 * @internal
 */
export function liveStoreThreads(entry?: ThreadEntry): number {
  if (!entry) return live.size
  let n = 0
  for (const href of live.values()) if (href === entry.url.href) n += 1
  return n
}

/**
 * Resolves once `worker` has exited: asks it to stop with `message`, and
 * terminates it when it has not exited after `graceMs`. Safe to call on a
 * worker that already exited.
 */
export function stopThread(worker: Worker, message: unknown, graceMs = 5000): Promise<void> {
  if (!live.has(worker)) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => void worker.terminate(), graceMs)
    worker.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    worker.postMessage(message)
  })
}

/**
 * How many nice steps the data threads run below the thread that started them.
 * @internal
 */
export const DATA_THREAD_NICE_STEPS = 10

/** What {@link yieldToMainThread} needs of the system: Node's own, or fakes in tests. */
export interface ThreadPriorityDeps {
  readonly platform: NodeJS.Platform
  /** The calling thread's kernel id (`/proc/thread-self` names it). */
  threadId(): number
  getPriority(tid: number): number
  setPriority(tid: number, priority: number): void
}

const systemThreads: ThreadPriorityDeps = {
  platform: process.platform,
  threadId: () => Number(readlinkSync('/proc/thread-self').split('/').pop()),
  getPriority,
  setPriority,
}

/**
 * The highest nice value (the lowest priority) Linux knows.
 * @internal
 */
export const NICE_MAX = 19

/**
 * Lowers the calling thread's scheduling priority by
 * {@link DATA_THREAD_NICE_STEPS} nice steps, so the data threads' CPU-bound
 * work (writing pages, parsing them) gives way to the main thread, which
 * in Electron answers every IPC call of the window. On a machine whose
 * cores a sync keeps busy, the main thread otherwise waits in the run
 * queue behind them. Only Linux sets a nice value per thread; elsewhere
 * (macOS, Windows: per process) it does nothing. Lowering needs no
 * privilege, and a thread can never raise it again, so it is done once, as
 * the thread starts. Returns the nice value set, or null when none was
 * (another system, or the system refused): a thread at normal priority
 * works the same, only competes harder.
 */
export function yieldToMainThread(deps: ThreadPriorityDeps = systemThreads): number | null {
  if (deps.platform !== 'linux') return null
  try {
    const tid = deps.threadId()
    if (!Number.isInteger(tid) || tid <= 0) return null
    const nice = Math.min(NICE_MAX, deps.getPriority(tid) + DATA_THREAD_NICE_STEPS)
    deps.setPriority(tid, nice)
    return nice
  } catch {
    return null
  }
}
