import { OnDemandThread } from '../threads/on-demand'
import { spawnStoreThread, type ThreadEntry } from '../threads/spawn'
import { readFromImageIndex, type ImageIndexCall, type ToImageIndex } from './index-protocol'

/** How long the image-index thread waits for the next call, once it has none, before it exits. */
const IMAGE_INDEX_IDLE_MS = 30_000

/**
 * The main thread's handle on the image-index thread (`index-worker.ts`):
 * the image cache's SQL runs there, never on the main thread. The thread
 * starts with the first call (an app that shows no card image never starts
 * it), exits once it has had no call for `idleMs`, and starts again with
 * the next call or after a crash; the calls a crashed thread held fail as
 * `internal`.
 */
export class ImageIndex {
  readonly #thread: OnDemandThread<unknown>

  /** `entry` is the image-index thread's (`index-worker.ts`); `dir` the folder of its file. */
  constructor(entry: ThreadEntry, dir: string, options: { readonly idleMs?: number } = {}) {
    this.#thread = new OnDemandThread({
      spawn: () => spawnStoreThread(entry, { workerData: { dir } }),
      answers: readFromImageIndex,
      name: 'The image index',
      idleMs: options.idleMs ?? IMAGE_INDEX_IDLE_MS,
    })
  }

  totalBytes(): Promise<number> {
    return this.#call({ op: 'totalBytes' }) as Promise<number>
  }

  /** The stored file's name `url` resolved to, or null. */
  nameOfUrl(url: string): Promise<string | null> {
    return this.#call({ op: 'nameOfUrl', url }) as Promise<string | null>
  }

  /** The size of the stored file `name`, marked used at `now`; null when the index does not know it. */
  use(name: string, now: number): Promise<number | null> {
    return this.#call({ op: 'use', name, now }) as Promise<number | null>
  }

  /** Records a stored file for `url`; answers the names evicted to keep the total under the cap. */
  store(call: Omit<Extract<ImageIndexCall, { op: 'store' }>, 'op'>): Promise<string[]> {
    return this.#call({ op: 'store', ...call }) as Promise<string[]>
  }

  /** Stops the thread; calls still waiting fail as cancelled. Idempotent. */
  close(): Promise<void> {
    return this.#thread.close()
  }

  #call(call: ImageIndexCall): Promise<unknown> {
    return this.#thread.call((worker, id) =>
      worker.postMessage({ id, call } satisfies ToImageIndex),
    )
  }
}
