import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { AppError, isAppError } from '../../app-error'
import { parseJsonBody } from '../../api/http'
import { readGuarantee, readInspection, readPage } from '../../api/read-records'
import { movable } from '../../threads/transfer'
import { messageId, yieldToMainThread } from '../../threads/spawn'
import { encodeRows } from '../../store/write/row-format'
import type { EncodedRows, ParcelRows } from '../../store/write/page-write'
import {
  idxFingerprint,
  PAGE_THREAD_DATA,
  readPageRequest,
  type FromPageThread,
  type PageBody,
  type PageRequest,
  type ParsedPage,
} from './protocol'
import type { PageParcel } from '../../owner/protocol'

/**
 * The page thread: parses and checks the sync's list answers and encodes
 * their records for the database owner ({@link parsePageBody}), so neither
 * the main thread nor the owner (which writes) pays for it. The encoded
 * records go straight to the owner over a link (a `MessagePort` the main
 * thread made, one end here, the other at the owner); the main thread gets
 * the page's envelope and the chunks' names, never their bytes. One per
 * app; it holds no state between pages but its links.
 *
 * It serves only when started as the page thread (with
 * {@link PAGE_THREAD_DATA}, `client.ts`). Loaded anywhere else (`parseHere`
 * in unit tests and tools), it starts nothing and only lends
 * {@link parsePageBody}.
 */
if (parentPort !== null && workerData === PAGE_THREAD_DATA) {
  yieldToMainThread()
  const port = parentPort
  port.on('message', (raw: unknown) => serve(port, raw))
}

/** The owners this thread can send pages to, by link. */
const links = new Map<number, MessagePort>()

/**
 * Decodes, parses and checks one list answer (`api/read-records.ts`) and
 * encodes its accepted records in chunks for the database owner. Runs in
 * the page thread in the app, so the main thread never holds a page's
 * records; bad answers fail with the same typed errors as anywhere.
 */
export function parsePageBody(input: PageBody): ParsedPage {
  const value = parseJsonBody(input.body)
  const page =
    input.resource === 'guarantees'
      ? readPage(value, input.page, readGuarantee)
      : readPage(value, input.page, readInspection)
  const size = Math.max(1, Math.floor(input.rowsPerChunk))
  const encoded: EncodedRows[] = []
  for (let i = 0; i < page.items.length; i += size) {
    encoded.push(encodeRows(input.resource, page.items.slice(i, i + size)))
  }
  // A page of refusals only still writes once: its refusals and checkpoint go with it.
  if (encoded.length === 0) encoded.push(encodeRows(input.resource, []))
  return {
    total: page.total,
    page: page.page,
    received: page.received,
    ...(page.pageSize === undefined ? {} : { pageSize: page.pageSize }),
    rejected: page.rejected,
    rejects: page.rejects,
    encoded,
    fingerprint: idxFingerprint(page.items),
  }
}

/** Answers request `id` with an `internal` error. */
function refuse(port: MessagePort, id: number, message: string): void {
  port.postMessage({ id, ok: false, error: { code: 'internal', message } } satisfies FromPageThread)
}

/** One request: a link to an owner, or a page to parse; one it cannot read is answered `internal`. */
function serve(port: MessagePort, raw: unknown): void {
  const request = readPageRequest(raw)
  if (request === null) {
    const id = messageId(raw)
    if (id !== null) refuse(port, id, 'The page thread received a malformed request.')
    return
  }
  if (!('id' in request)) {
    const { link, port: owner } = request
    links.set(link, owner)
    // The owner closed (its profile did): the link goes with it.
    owner.once('close', () => links.delete(link))
    return
  }
  parse(port, request)
}

function parse(port: MessagePort, { id, input, deliver }: PageRequest): void {
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
    refuse(port, id, 'The page thread has no link to the cache it was asked to write to.')
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
