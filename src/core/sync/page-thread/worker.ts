import { parentPort, type MessagePort } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { movable } from '../../threads/transfer'
import { messageId, yieldToMainThread } from '../../threads/spawn'
import type { ParcelRows } from '../../store/write/page-write'
import { parsePageBody } from './parse-page'
import { readPageRequest, type FromPageThread, type PageRequest, type ParsedPage } from './protocol'
import type { PageParcel } from '../../owner/protocol'

/**
 * The page thread: parses and checks the sync's list answers and encodes
 * their records for the database owner (`parse-page.ts`), so neither the
 * main thread nor the owner (which writes) pays for it. The encoded
 * records go straight to the owner over a link (a `MessagePort` the main
 * thread made, one end here, the other at the owner); the main thread gets
 * the page's envelope and the chunks' names, never their bytes. One per
 * app; it holds no state between pages but its links.
 */
if (!parentPort) throw new Error('page-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
/** The owners this thread can send pages to, by link. */
const links = new Map<number, MessagePort>()
port.on('message', serve)

/** Answers request `id` with an `internal` error. */
function refuse(id: number, message: string): void {
  port.postMessage({ id, ok: false, error: { code: 'internal', message } } satisfies FromPageThread)
}

/** One request: a link to an owner, or a page to parse; one it cannot read is answered `internal`. */
function serve(raw: unknown): void {
  const request = readPageRequest(raw)
  if (request === null) {
    const id = messageId(raw)
    if (id !== null) refuse(id, 'The page thread received a malformed request.')
    return
  }
  if (!('id' in request)) {
    const { link, port: owner } = request
    links.set(link, owner)
    // The owner closed (its profile did): the link goes with it.
    owner.once('close', () => links.delete(link))
    return
  }
  parse(request)
}

function parse({ id, input, deliver }: PageRequest): void {
  let value: ParsedPage
  try {
    value = parsePageBody(input)
  } catch (error) {
    const typed = isAppError(error)
      ? error
      : new AppError('internal', 'A synced page could not be parsed.', { cause: error })
    port.postMessage({ id, ok: false, error: typed.toData() } satisfies FromPageThread)
    return
  }
  const chunks = value.encoded.map((rows) => rows.bytes)
  if (deliver === undefined) {
    // No owner named (a test, a tool): the encoded records move to the caller.
    port.postMessage({ id, ok: true, value } satisfies FromPageThread, movable(chunks))
    return
  }
  const owner = links.get(deliver.link)
  if (!owner) {
    refuse(id, 'The page thread has no link to the cache it was asked to write to.')
    return
  }
  // The records go to the owner first: its write, which the main thread sends once it has
  // this answer, then finds them there (or waits for them).
  owner.postMessage({ parcel: deliver.parcel, chunks } satisfies PageParcel, movable(chunks))
  const sent: ParsedPage<ParcelRows> = {
    ...value,
    encoded: value.encoded.map((rows, chunk) => ({
      count: rows.count,
      link: deliver.link,
      parcel: deliver.parcel,
      chunk,
    })),
  }
  port.postMessage({ id, ok: true, value: sent } satisfies FromPageThread)
}
