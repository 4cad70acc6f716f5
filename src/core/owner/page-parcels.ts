import type { MessagePort } from 'node:worker_threads'
import { AppError } from '../app-error'
import { isFields, isPositiveInteger } from '../plain-checks'
import { readPageParcel } from './protocol'
import type { ParcelRows, PageWriteRequest } from '../store/write/page-write'

/** The chunks a write names, or null when it carries its records itself (or is no page write). */
function parcelOf(args: unknown): ParcelRows | null {
  if (!isFields(args) || !isFields(args['encoded'])) return null
  const { count, link, parcel, chunk } = args['encoded']
  if ('bytes' in args['encoded']) return null
  if (!Number.isSafeInteger(count) || !isPositiveInteger(link) || !isPositiveInteger(parcel)) {
    return null
  }
  if (!Number.isSafeInteger(chunk) || (chunk as number) < 0) return null
  return { count: count as number, link, parcel, chunk: chunk as number }
}

interface Link {
  open: boolean
  readonly parcels: Map<number, (Uint8Array | null)[]>
}

/**
 * The owner's side of its links from the page thread: each parsed page's
 * encoded chunks arrive here, sent by the page thread itself, and wait for
 * the main thread's write that names them ({@link take}). A link closes
 * when its page thread exits; a chunk it never sent is then lost, and the
 * write that names it fails. `changed` runs when a parcel arrives or a
 * link closes (a waiting write may go on).
 */
export class PageParcels {
  readonly #links = new Map<number, Link>()
  readonly #changed: () => void

  constructor(changed: () => void) {
    this.#changed = changed
  }

  /** Takes the owner's end of link `link`. */
  link(link: number, port: MessagePort): void {
    const entry: Link = { open: true, parcels: new Map() }
    this.#links.set(link, entry)
    port.on('message', (raw: unknown) => {
      const parcel = readPageParcel(raw)
      // Sent by this app's page thread: anything else is dropped, and the write naming it fails.
      if (!parcel) return
      entry.parcels.set(parcel.parcel, [...parcel.chunks])
      this.#changed()
    })
    port.on('close', () => {
      entry.open = false
      this.#changed()
    })
  }

  /** Whether a call's records are here (or it carries them), still on their way, or lost. */
  state(args: unknown): 'ready' | 'waiting' | 'lost' {
    const ref = parcelOf(args)
    if (!ref) return 'ready'
    const entry = this.#links.get(ref.link)
    const bytes = entry?.parcels.get(ref.parcel)?.[ref.chunk]
    if (bytes !== undefined && bytes !== null) return 'ready'
    return entry?.open === true ? 'waiting' : 'lost'
  }

  /**
   * The page write with its records' bytes in place of their name, taken
   * out of their parcel. Throws `internal` when they never arrived.
   */
  take(request: PageWriteRequest): PageWriteRequest {
    const ref = parcelOf(request)
    if (!ref) return request
    const entry = this.#links.get(ref.link)
    const chunks = entry?.parcels.get(ref.parcel)
    const bytes = chunks?.[ref.chunk]
    if (!entry || !chunks || bytes === undefined || bytes === null) {
      throw new AppError('internal', "A synced page's records never reached the cache.")
    }
    chunks[ref.chunk] = null
    if (chunks.every((chunk) => chunk === null)) entry.parcels.delete(ref.parcel)
    if (!entry.open && entry.parcels.size === 0) this.#links.delete(ref.link)
    return { ...request, encoded: { count: ref.count, bytes } }
  }

  /** Drops every parcel none of `calls` names (a run stopped after its pages were parsed). */
  keepOnly(calls: readonly unknown[]): void {
    const named = new Set<string>()
    for (const args of calls) {
      const ref = parcelOf(args)
      if (ref) named.add(`${ref.link}:${ref.parcel}`)
    }
    for (const [link, entry] of this.#links) {
      for (const parcel of entry.parcels.keys()) {
        if (!named.has(`${link}:${parcel}`)) entry.parcels.delete(parcel)
      }
      if (!entry.open && entry.parcels.size === 0) this.#links.delete(link)
    }
  }
}
