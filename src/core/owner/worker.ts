import type { StoreConnection } from '../store/connection'
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import type { ErrorData } from '../../shared/errors'
import { AppError } from '../app-error'
import { isFields, isPositiveInteger } from '../plain-checks'
import { advanceCellIndexes } from '../store/search/cell-index'
import { openStore, toStoreError } from '../store/schema/database'
import { readOwnerData, readPageParcel, readToOwner, type FromOwner } from './protocol'
import { readTeamLink, readTeamLinkCall } from './team-link'
import { rowsOf, type ParcelRows, type PageWriteRequest } from '../store/write/page-write'
import { writePageBatch } from '../store/write/writes'
import { isStoreOp, runStoreOp, type StoreArgs, type StoreOp } from './store-ops'
import { messageId, yieldToMainThread } from '../threads/spawn'
import { countWrite, threadMicros } from '../store/write/write-stats'

/**
 * The thread that owns one profile's database: it opens the file (rebuild
 * of a damaged one, migrations) and runs every read and write the app asks
 * for, in the order asked (see `store-owner.ts` for the main side).
 * Page writes that queue up while another runs commit together in one
 * transaction, each whole, in order, with its checkpoint; after a failed
 * page every later one is refused until the engine sends `reset`, so a
 * checkpoint can never skip a page.
 *
 * A page's encoded records come from the page thread itself, over a link
 * ({@link PageParcels}); the main thread's write names them. A write whose
 * records have not arrived yet waits for them, and every request after it
 * waits too, so the order asked is kept. The team worker's store requests
 * come on a link of their own (`team-link.ts`) into the same queue.
 */
if (!parentPort) throw new Error('owner-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort

function send(message: FromOwner): void {
  port.postMessage(message)
}

function errorData(error: unknown): ErrorData {
  return toStoreError(error).toData()
}

const data = readOwnerData(workerData)
if (data === null) throw new Error('owner-worker was started without its file')
let db: StoreConnection
try {
  const opened = openStore(data.file, {
    autoCheckpoint: false,
    // The checkpointer reads every page in the background instead (seconds at a million records).
    deferDeepCheck: true,
    now: () => new Date(data.openedAt),
    ...(data.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: data.busyTimeoutMs }),
  })
  db = opened.db
  send({ type: 'ready', notice: opened.notice })
} catch (error) {
  send({ type: 'failed', error: errorData(error) })
  process.exit(0)
}

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

/** A request; `reply` is the team link it came on (`team-link.ts`), else the main thread asked. */
type Call = { id: number; op: StoreOp; args: unknown; reply?: MessagePort }
let inbox: Call[] = []
/** The pages' records the page thread sent; a parcel's arrival lets waiting writes through. */
const parcels = new PageParcels(() => {
  if (!scheduled && parcelWait) {
    scheduled = true
    setImmediate(drain)
  }
})
/** The inbox's head waits for a parcel. */
let parcelWait = false
let scheduled = false
let pageFailure: ErrorData | null = null

/**
 * How long a page write waits for more to commit with, unless
 * {@link WRITE_BATCH_RECORDS} are queued or another request comes (which
 * runs at once, after the pages queued before it). A sync's pages arrive a
 * few milliseconds apart, and each commit writes every database page it
 * changed to the log: the tails of the indexes and the small tables keyed
 * by member (`reconcile_members`, `reconcile_items`), whose every page a
 * commit of a few hundred records touches. A 100,000-record sync made
 * about 200 commits and 190 MB of log; with batches of about 800 records
 * it makes about 90 and 140 MB, for about 0.5–1 µs/record less CPU. Batches
 * of 1,500 (16 pages pending) saved about 0.5 µs more but raised the peak
 * memory of a sync by about 6 MB, too close to its 200 MB bound.
 */
const WRITE_BATCH_MS = 30
/** Records queued in page writes that are committed without waiting for more. */
const WRITE_BATCH_RECORDS = 800
let queuedRecords = 0
let batchTimer: ReturnType<typeof setTimeout> | null = null

/** The records a page write holds; one that is not a page write counts as a full batch (it fails at once). */
function queuedRowsOf(args: unknown): number {
  try {
    const rows = rowsOf(args as PageWriteRequest)
    return Number.isFinite(rows) ? rows : WRITE_BATCH_RECORDS
  } catch {
    return WRITE_BATCH_RECORDS
  }
}

/** Commits consecutive page writes in one transaction; answers each. */
function writePages(batch: Call[]): void {
  if (!pageFailure) {
    try {
      // Built by the main thread's typed `call('writePage', …)`; cloning keeps its shape. Encoded
      // records are read page by page inside the batch, so the write step's time includes that.
      // Records the page thread sent are taken from their parcels (a lost one fails the batch).
      const pages = batch.map((call) => parcels.take(call.args as PageWriteRequest))
      const started = threadMicros()
      // Answered before any compaction: the sync is done; requests sent meanwhile wait for it.
      writePageBatch(db, pages, () => {
        const records = pages.reduce((sum, page) => sum + rowsOf(page), 0)
        countWrite(records, pages.length, threadMicros() - started)
        // One message for the batch: each one the main thread receives is a wake-up and a lock.
        send({ type: 'pagesDone', ids: batch.map((call) => call.id) })
      })
      return
    } catch (error) {
      pageFailure = errorData(error)
    }
  }
  for (const call of batch) send({ type: 'error', id: call.id, error: pageFailure })
}

function runOne(call: Call): void {
  const answer = (message: FromOwner): void =>
    call.reply ? call.reply.postMessage(message) : send(message)
  try {
    // Built by the caller's typed `call(op, args)`; cloning keeps its shape.
    const value: unknown = runStoreOp(db, call.op, call.args as StoreArgs<StoreOp>)
    if (value instanceof Promise) {
      // Its reads are done; what is left (a workbook's zipping) lets the next requests run.
      value.then(
        (done: unknown) => answer({ type: 'done', id: call.id, value: done }),
        (error: unknown) => answer({ type: 'error', id: call.id, error: errorData(error) }),
      )
      return
    }
    answer({ type: 'done', id: call.id, value })
  } catch (error) {
    answer({ type: 'error', id: call.id, error: errorData(error) })
  }
}

/** Owner time per idle step on the cell indexes (`cell-index.ts`): requests wait at most this. */
const IDLE_STEP_MS = 10
let idleScheduled = false

/** Builds and catches up the cell indexes while no request waits. */
function idle(): void {
  idleScheduled = false
  if (scheduled) return
  let more = false
  try {
    more = advanceCellIndexes(db, IDLE_STEP_MS)
  } catch {
    // An accelerator only: counts fall back to SQL; the next write tries again.
  }
  if (more) scheduleIdle()
}

function scheduleIdle(): void {
  if (idleScheduled) return
  idleScheduled = true
  setImmediate(idle)
}

function drain(): void {
  scheduled = false
  if (batchTimer !== null) clearTimeout(batchTimer)
  batchTimer = null
  queuedRecords = 0
  // Up to the first write whose records have not arrived: it and what follows wait.
  const waiting = inbox.findIndex(
    (call) => call.op === 'writePage' && parcels.state(call.args) === 'waiting',
  )
  parcelWait = waiting !== -1
  const calls = parcelWait ? inbox.slice(0, waiting) : inbox
  inbox = parcelWait ? inbox.slice(waiting) : []
  for (const call of inbox) if (call.op === 'writePage') queuedRecords += queuedRowsOf(call.args)
  for (let i = 0; i < calls.length;) {
    if (calls[i]!.op !== 'writePage') {
      runOne(calls[i]!)
      i += 1
      continue
    }
    let end = i
    while (end < calls.length && calls[end]!.op === 'writePage') end += 1
    writePages(calls.slice(i, end))
    i = end
  }
  scheduleIdle()
}

/** Queues a request: at once, or with the page writes it may batch with. */
function enqueue(call: Call): void {
  inbox.push(call)
  // Behind a write that waits for its records: runs once they are in.
  if (parcelWait) return
  if (call.op === 'writePage') {
    queuedRecords += queuedRowsOf(call.args)
    if (queuedRecords < WRITE_BATCH_RECORDS) {
      if (!scheduled && batchTimer === null) batchTimer = setTimeout(drain, WRITE_BATCH_MS)
      return
    }
  }
  if (!scheduled) {
    scheduled = true
    setImmediate(drain)
  }
}

/** The team worker's requests come on its own link and are answered there, in the same queue. */
function linkTeam(link: MessagePort): void {
  link.on('message', (raw: unknown) => {
    const call = readTeamLinkCall(raw)
    if (call === null) {
      const id = messageId(raw)
      const error = {
        code: 'internal' as const,
        message: 'The cache received a malformed request.',
      }
      if (id !== null) link.postMessage({ type: 'error', id, error } satisfies FromOwner)
      return
    }
    enqueue({ id: call.id, op: call.op, args: call.args, reply: link })
  })
}

port.on('message', (raw: unknown) => {
  const team = readTeamLink(raw)
  if (team !== null) {
    linkTeam(team.port)
    return
  }
  const message = readToOwner(raw)
  if (message === null || (message.type === 'call' && !isStoreOp(message.op))) {
    const id = messageId(raw)
    const error = { code: 'internal' as const, message: 'The cache received a malformed request.' }
    if (id !== null) send({ type: 'error', id, error })
    return
  }
  if (message.type === 'close') {
    drain()
    db.close()
    process.exit(0)
  }
  if (message.type === 'reset') {
    // Queued pages of the failed run are answered (refused) before the reset applies.
    drain()
    pageFailure = null
    // Parcels no write named (a run stopped after parsing them) go.
    parcels.keepOnly(inbox.map((call) => call.args))
    return
  }
  if (message.type === 'pages') {
    parcels.link(message.link, message.port)
    return
  }
  enqueue({ id: message.id, op: message.op as StoreOp, args: message.args })
})

// Build the cell indexes while the profile is new and idle.
scheduleIdle()
