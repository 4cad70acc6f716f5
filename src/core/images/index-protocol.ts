import {
  isFields,
  isIntegerFrom,
  isPositiveInteger,
  readThreadAnswer,
  type ThreadAnswer,
} from '../plain-checks'

/**
 * The messages between the main thread's image cache (`index-client.ts`)
 * and the image-index thread (`index-worker.ts`), each direction with the
 * reader that checks it where it arrives. Checked by hand, as every data
 * thread's messages are: no data thread loads a schema library.
 */

/** One question or change for the index. */
export type ImageIndexCall =
  | { readonly op: 'totalBytes' }
  | { readonly op: 'nameOfUrl'; readonly url: string }
  /** The size of a stored file (null when unknown), marking it used now. */
  | { readonly op: 'use'; readonly name: string; readonly now: number }
  | {
      readonly op: 'store'
      readonly name: string
      readonly size: number
      readonly url: string
      readonly now: number
      readonly maxTotalBytes: number
    }

/** Main thread → image-index thread. */
export interface ToImageIndex {
  readonly id: number
  readonly call: ImageIndexCall
}

/** Image-index thread → main thread: the call's answer, of the shape its `op` answers. */
export type FromImageIndex = ThreadAnswer<unknown>

/** A stored file's name, as the cache makes them. */
const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= 200

const isTime = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** Any answered value: each `op` has its own, which its caller in `index-client.ts` knows. */
const anyValue = (_value: unknown): _value is unknown => true

/** A request as the image-index thread reads it, or null when it is not one. */
export function readToImageIndex(raw: unknown): ToImageIndex | null {
  if (!isFields(raw) || !isPositiveInteger(raw['id']) || !isFields(raw['call'])) return null
  const call = readCall(raw['call'])
  return call === null ? null : { id: raw['id'], call }
}

function readCall(raw: Readonly<Record<string, unknown>>): ImageIndexCall | null {
  const { op, url, name, now, size, maxTotalBytes } = raw
  switch (op) {
    case 'totalBytes':
      return { op }
    case 'nameOfUrl':
      return typeof url === 'string' ? { op, url } : null
    case 'use':
      return isName(name) && isTime(now) ? { op, name, now } : null
    case 'store':
      return isName(name) &&
        isIntegerFrom(size, 0) &&
        typeof url === 'string' &&
        isTime(now) &&
        typeof maxTotalBytes === 'number' &&
        maxTotalBytes >= 0
        ? { op, name, size, url, now, maxTotalBytes }
        : null
    default:
      return null
  }
}

/** The image-index thread's answer as the main thread reads it, or null when it is none. */
export function readFromImageIndex(raw: unknown): FromImageIndex | null {
  return readThreadAnswer(raw, anyValue)
}
