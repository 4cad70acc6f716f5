import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { serialize } from 'node:v8'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { MessageChannel, Worker } from 'node:worker_threads'
import { build } from 'vite'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { Checkpointer } from '../../../src/core/owner/checkpointer'
import { openStore } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { encodeRows, storedColumns } from '../../../src/core/store/write/row-format'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'
import { RECORD_TABLES } from '../../../src/core/store/schema/stored-raw'
import { StoreOwner, type StoreThreads } from '../../../src/core/owner/store-owner'
import {
  liveStoreThreads,
  spawnStoreThread,
  stopThread,
  type ThreadEntry,
} from '../../../src/core/threads/spawn'
import { SOURCE_STORE_WORKER } from '../../support/store-worker'
import { inspection, tempDir } from './fixtures'
import { failure } from '../../support/failure'

let temp: ReturnType<typeof tempDir>
const owners: StoreOwner[] = []
beforeEach(() => {
  temp = tempDir()
})
afterEach(async () => {
  for (const owner of owners.splice(0)) await owner.close()
  temp.remove()
})

async function open(
  threads: StoreThreads = SOURCE_STORE_WORKER,
  options: { busyTimeoutMs?: number } = {},
): Promise<StoreOwner> {
  const owner = await StoreOwner.open({
    file: storeFileFor(temp.dir, 'sandbox'),
    threads,
    now: () => new Date('2026-01-02T03:04:05Z'),
    ...options,
  })
  owners.push(owner)
  return owner
}

/** Starts a checkpointer thread from `entry`, asks it for one checkpoint, stops it: its answer. */
async function checkpointOnce(entry: ThreadEntry, file: string): Promise<unknown> {
  const thread = spawnStoreThread(entry, { workerData: { file } })
  const answer = new Promise<unknown>((resolve) => thread.once('message', resolve))
  thread.postMessage('run')
  const value = await answer
  await stopThread(thread, 'close')
  return value
}

describe('the database owner thread', () => {
  it('runs writes and reads for the main thread, pages batched with their checkpoint', async () => {
    const owner = await open()
    expect(owner.notice).toBeNull()
    const writes = [1, 2, 3].map((n) =>
      owner.call('writePage', {
        resource: 'inspections',
        items: [inspection(n * 10), inspection(n * 10 + 1)],
        pass: 1,
        at: '2026-01-01T00:00:00Z',
        state: { checkpoint: { nextPage: n + 1, pageSize: 2, total: 6, fetched: n * 2 } },
      }),
    )
    await Promise.all(writes)
    const page = await owner.call('queryInspections', { limit: 10 })
    expect(page.total).toBe(6)
    expect(page.rows.map((row) => row.idx).sort((a, b) => a - b)).toEqual([10, 11, 20, 21, 30, 31])
    expect((await owner.call('readSyncState', 'inspections')).checkpoint?.nextPage).toBe(4)
    const snapshot = await owner.call('syncSnapshot')
    expect(snapshot.counts).toEqual({ brands: 0, inspections: 6, guarantees: 0 })
  })

  it('commits page writes sent together in one commit; another request runs at once, after them', async () => {
    const owner = await open()
    const write = (idx: number) =>
      owner.call('writePage', {
        resource: 'inspections',
        items: [inspection(idx)],
        pass: 1,
        at: 'now',
      })
    // Sent in one task, they reach the owner before its batch window (30 ms) can close.
    const first = [write(1), write(2), write(3)]
    await Promise.all(first)
    expect(await owner.call('writeStats')).toMatchObject({ records: 3, pages: 3, commits: 1 })

    // A read behind a page write does not wait for more pages: it runs after the page is written.
    const later = write(4)
    const page = await owner.call('queryInspections', {})
    expect(page.total).toBe(4)
    await later
    expect(await owner.call('writeStats')).toMatchObject({ records: 4, pages: 4, commits: 2 })
  })

  it('refuses every later page after a failed one until reset, so a checkpoint never skips a page', async () => {
    const owner = await open()
    const bad = owner.call('writePage', {
      resource: 'inspections',
      // A record without its required number makes the upsert fail inside the transaction.
      items: [{ ...inspection(1), inspectionNum: null as unknown as string }],
      pass: 1,
      at: 'now',
      state: { checkpoint: { nextPage: 2, pageSize: 1, total: 2, fetched: 1 } },
    })
    const next = owner.call('writePage', {
      resource: 'inspections',
      items: [inspection(2)],
      pass: 1,
      at: 'now',
      state: { checkpoint: { nextPage: 3, pageSize: 1, total: 2, fetched: 2 } },
    })
    expect(isAppError(await failure(bad))).toBe(true)
    expect(isAppError(await failure(next))).toBe(true)
    expect((await owner.call('readSyncState', 'inspections')).checkpoint).toBeNull()
    expect((await owner.call('queryInspections', {})).total).toBe(0)
    owner.resetWrites()
    await owner.call('writePage', {
      resource: 'inspections',
      items: [inspection(2)],
      pass: 1,
      at: 'now',
    })
    expect((await owner.call('queryInspections', {})).total).toBe(1)
  })

  it('writes records encoded by the page thread, and fails bytes that do not decode as internal, storing nothing', async () => {
    const owner = await open()
    const encoded = encodeRows('inspections', [inspection(1), inspection(2), inspection(3)])
    await owner.call('writePage', { resource: 'inspections', encoded, pass: 1, at: 'now' })
    // Moved to the owner, not copied: this thread no longer holds the bytes.
    expect(encoded.bytes.byteLength).toBe(0)
    expect((await owner.call('queryInspections', {})).total).toBe(3)

    const columns = storedColumns(RECORD_TABLES.inspections)
    const broken = [
      [{ count: 2, bytes: new Uint8Array([1, 2, 3]) }, /could not be read back/],
      // Claims more records than it holds.
      [{ ...encodeRows('inspections', [inspection(4)]), count: 2 }, /wrong number of records/],
      // Records, not rows (what the page thread sent before it prepared them).
      [{ count: 1, bytes: new Uint8Array(serialize([inspection(5)])) }, /not rows/],
      // A row's slots, but a column holds an object.
      [
        { count: 1, bytes: new Uint8Array(serialize([6, '5.', 'x', ...columns.map(() => ({}))])) },
        /not rows/,
      ],
      // A row's slots, but its idx is text.
      [
        {
          count: 1,
          bytes: new Uint8Array(serialize(['7', '5.', 'x', ...columns.map(() => null)])),
        },
        /not rows/,
      ],
    ] as const
    for (const [bad, why] of broken) {
      const error = await failure(
        owner.call('writePage', {
          resource: 'inspections',
          encoded: bad,
          pass: 1,
          at: 'now',
          state: { checkpoint: { nextPage: 9, pageSize: 1, total: 9, fetched: 9 } },
        }),
      )
      expect(isAppError(error, 'internal')).toBe(true)
      expect((error as Error).message).toMatch(why)
      owner.resetWrites()
    }
    expect((await owner.call('queryInspections', {})).total).toBe(3)
    expect((await owner.call('readSyncState', 'inspections')).checkpoint).toBeNull()
  })

  it('a write while another connection holds the lock answers store_busy, and the next one succeeds (docs/faults.md F28)', async () => {
    const owner = await open(SOURCE_STORE_WORKER, { busyTimeoutMs: 50 })
    const other = new DatabaseSync(owner.file)
    other.exec('BEGIN IMMEDIATE')
    const write = () =>
      owner.call('writePage', {
        resource: 'inspections',
        items: [inspection(1)],
        pass: 1,
        at: 'now',
      })
    const error = await failure(write())
    expect(isAppError(error, 'store_busy')).toBe(true)
    other.exec('ROLLBACK')
    other.close()
    owner.resetWrites()
    await write()
    expect((await owner.call('queryInspections', {})).total).toBe(1)
  })

  it('an unreadable file is moved aside and rebuilt, and the owner says so (docs/faults.md F23)', async () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    mkdirSync(join(temp.dir, 'cache'), { recursive: true })
    writeFileSync(file, 'this is not a database'.repeat(200))
    const owner = await open()
    expect(owner.notice).toMatchObject({ code: 'store_corrupt', at: '2026-01-02T03:04:05.000Z' })
    expect(existsSync(owner.notice!.movedTo)).toBe(true)
    expect((await owner.call('queryInspections', {})).total).toBe(0)
  })

  it('a file written by a newer app version is kept aside, never migrated down (docs/faults.md F29)', async () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    mkdirSync(join(temp.dir, 'cache'), { recursive: true })
    const newer = new DatabaseSync(file)
    newer.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`)
    newer.close()
    const owner = await open()
    expect(owner.notice?.code).toBe('store_corrupt')
    expect(existsSync(owner.notice!.movedTo)).toBe(true)
  })

  it('takes requests sent before the file is open, in order, so the app starts without waiting', async () => {
    const owner = new StoreOwner({
      file: storeFileFor(temp.dir, 'sandbox'),
      threads: SOURCE_STORE_WORKER,
    })
    owners.push(owner)
    const write = owner.call('writePage', {
      resource: 'inspections',
      items: [inspection(1), inspection(2)],
      pass: 1,
      at: 'now',
    })
    const read = owner.call('queryInspections', {})
    await write
    expect((await read).total).toBe(2)
    await owner.ready
    expect(owner.notice).toBeNull()
  })

  it('requests sent to an owner that cannot open are refused with its error, not left waiting', async () => {
    mkdirSync(join(temp.dir, 'cache', 'sandbox.sqlite'), { recursive: true })
    const owner = new StoreOwner({
      file: storeFileFor(temp.dir, 'sandbox'),
      threads: SOURCE_STORE_WORKER,
    })
    owners.push(owner)
    const early = failure(owner.call('queryInspections', {}))
    expect(isAppError(await failure(owner.ready))).toBe(true)
    expect(isAppError(await early)).toBe(true)
    expect(isAppError(await failure(owner.call('queryInspections', {})))).toBe(true)
  })

  it('a thread that cannot start rejects the open with a typed error and is not left running', async () => {
    const before = liveStoreThreads()
    const error = await failure(StoreOwner.open({ file: '', threads: SOURCE_STORE_WORKER }))
    expect(isAppError(error, 'internal')).toBe(true)
    await vi.waitFor(() => expect(liveStoreThreads()).toBe(before), { timeout: 5000 })
  })

  it('a thread that dies after opening fails its callers as internal, and says why in the log', async () => {
    // A stand-in owner: it opens, then throws on its next turn.
    const dying = `import { parentPort } from 'node:worker_threads'
      parentPort.postMessage({ type: 'ready', notice: null })
      setTimeout(() => { throw new Error('the owner ran out of luck') }, 50)`
    const log: string[] = []
    const owner = new StoreOwner({
      file: storeFileFor(temp.dir, 'sandbox'),
      threads: {
        ...SOURCE_STORE_WORKER,
        owner: { url: new URL(`data:text/javascript,${encodeURIComponent(dying)}`) },
      },
      log: (message) => log.push(message),
    })
    owners.push(owner)
    await owner.ready
    const waiting = failure(owner.call('queryInspections', {}))
    expect(isAppError(await waiting, 'internal')).toBe(true)
    expect(log).toEqual([expect.stringContaining('the owner ran out of luck')])
    expect(log[0]).toMatch(/^\[store\] the cache thread stopped: /)
  })

  it('answers a malformed message with an error instead of leaving the caller waiting', async () => {
    mkdirSync(join(temp.dir, 'cache'), { recursive: true })
    const worker = new Worker(SOURCE_STORE_WORKER.owner.url, {
      execArgv: [...(SOURCE_STORE_WORKER.owner.execArgv ?? [])],
      workerData: { file: storeFileFor(temp.dir, 'raw'), openedAt: new Date().toISOString() },
    })
    const messages: unknown[] = []
    const answered = new Promise<void>((resolve) => {
      worker.on('message', (message: unknown) => {
        messages.push(message)
        if (messages.length === 3) resolve()
      })
    })
    worker.postMessage({ type: 'call', id: 7, op: 'DROP TABLE inspections', args: null })
    worker.postMessage({ type: 'call', id: 8, op: 'readSyncState', args: 'inspections' })
    await answered
    expect(messages[0]).toMatchObject({ type: 'ready' })
    expect(messages[1]).toMatchObject({ type: 'error', id: 7, error: { code: 'internal' } })
    expect(messages[2]).toMatchObject({
      type: 'done',
      id: 8,
      value: { resource: 'inspections', pass: 0 },
    })
    await worker.terminate()
  })

  it('answers the team worker on its own link, only the team operations, and closes a link offered after close', async () => {
    const owner = await open()
    const link = new MessageChannel()
    owner.linkTeam(link.port1)
    const answers: unknown[] = []
    link.port2.on('message', (message: unknown) => answers.push(message))
    link.port2.postMessage({ type: 'call', id: 1, op: 'teamLastSeq' })
    link.port2.postMessage({ type: 'call', id: 2, op: 'teamCountOutbox' })
    // A store operation of the main thread's is refused on the link, as is a malformed call.
    link.port2.postMessage({ type: 'call', id: 3, op: 'queryInspections', args: {} })
    link.port2.postMessage({ type: 'call', id: 4 })
    await vi.waitFor(() => expect(answers).toHaveLength(4))
    const byId = new Map(answers.map((answer) => [(answer as { id: number }).id, answer]))
    expect(byId.get(1)).toEqual({ type: 'done', id: 1, value: 0 })
    expect(byId.get(2)).toMatchObject({ type: 'done', id: 2 })
    expect(byId.get(3)).toMatchObject({ type: 'error', id: 3, error: { code: 'internal' } })
    expect(byId.get(4)).toMatchObject({ type: 'error', id: 4, error: { code: 'internal' } })
    // The main thread's own calls go on as before, answered to it, not on the link.
    expect(await owner.call('teamLastSeq')).toBe(0)
    expect(answers).toHaveLength(4)
    link.port2.close()

    await owner.close()
    const late = new MessageChannel()
    const closed = new Promise<void>((resolve) => late.port2.once('close', resolve))
    owner.linkTeam(late.port1)
    await closed
  })

  it('answers the page writes of a committed batch in one message, each id once', async () => {
    mkdirSync(join(temp.dir, 'cache'), { recursive: true })
    const worker = new Worker(SOURCE_STORE_WORKER.owner.url, {
      execArgv: [...(SOURCE_STORE_WORKER.owner.execArgv ?? [])],
      workerData: { file: storeFileFor(temp.dir, 'raw'), openedAt: new Date().toISOString() },
    })
    type Answer = { type: string; ids?: number[]; id?: number }
    const messages: Answer[] = []
    const answered = new Promise<void>((resolve) => {
      worker.on('message', (message: Answer) => {
        messages.push(message)
        if (message.type === 'done' && message.id === 9) resolve()
      })
    })
    // Sent before the owner listens (it opens the file first): all of them wait in its port
    // and arrive together, as pages queued behind a running write do.
    for (const n of [1, 2, 3]) {
      worker.postMessage({
        type: 'call',
        id: n,
        op: 'writePage',
        args: {
          resource: 'inspections',
          items: [inspection(n * 10)],
          pass: 1,
          at: '2026-01-01T00:00:00Z',
          state: { checkpoint: { nextPage: n + 1, pageSize: 1, total: 3, fetched: n } },
        },
      })
    }
    worker.postMessage({ type: 'call', id: 9, op: 'syncSnapshot', args: undefined })
    await answered
    expect(messages[0]).toMatchObject({ type: 'ready' })
    // One transaction, one answer naming each page once, in order.
    expect(messages.slice(1, -1)).toEqual([{ type: 'pagesDone', ids: [1, 2, 3] }])
    expect(messages.at(-1)).toMatchObject({
      type: 'done',
      id: 9,
      value: { counts: { inspections: 3 } },
    })
    await worker.terminate()
  })

  it('close is idempotent, always resolves, stops its threads, and later calls are refused', async () => {
    const before = liveStoreThreads()
    const owner = await open()
    // The owner's, and its checkpointer's while it checks the file.
    expect(liveStoreThreads()).toBeGreaterThan(before)
    const pending = owner.call('queryInspections', {})
    await Promise.all([owner.close(), owner.close()])
    // A request sent before the close is still answered.
    expect((await pending).total).toBe(0)
    expect(liveStoreThreads()).toBe(before)
    expect(isAppError(await failure(owner.call('queryInspections', {})), 'cancelled')).toBe(true)
    await owner.close()
  })

  it('closing leaves no log behind, even right after the compaction of a first full sync', async () => {
    const owner = await open()
    for (let page = 0; page < 10; page += 1) {
      await owner.call('writePage', {
        resource: 'inspections',
        items: Array.from({ length: 200 }, (_, i) => inspection(10_000 - page * 200 - i)),
        pass: 1,
        at: '2026-01-01T00:00:00Z',
      })
    }
    // The end of the first full pass: the owner compacts (VACUUM, into the log) after answering.
    await owner.call('writePage', {
      resource: 'inspections',
      items: [],
      pass: 1,
      at: '2026-01-01T00:00:01Z',
      markGone: true,
      state: { status: 'idle', checkpoint: null, lastFullAt: '2026-01-01T00:00:01Z' },
    })
    await owner.close()
    // The owner's connection closed last, so SQLite copied the log into the file and deleted it.
    expect(existsSync(`${owner.file}-wal`)).toBe(false)
    const db = new DatabaseSync(owner.file, { readOnly: true })
    expect(db.prepare('SELECT count(*) AS n FROM inspections').get()).toEqual({ n: 2000 })
    db.close()
  })

  it('the checkpointer copies the log into the database file, beside a connection that holds it open', async () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const writer = openStore(file, { autoCheckpoint: false }).db
    try {
      writer.exec('CREATE TABLE filler (x BLOB)')
      const insert = writer.prepare('INSERT INTO filler VALUES (randomblob(4000))')
      for (let i = 0; i < 200; i += 1) insert.run()
      const before = statSync(file).size
      expect(await checkpointOnce(SOURCE_STORE_WORKER.checkpointer, file)).toBe('done')
      // The 800 kB written went to the log only; the checkpoint copied them into the file.
      expect(statSync(file).size).toBeGreaterThan(before + 700_000)
    } finally {
      writer.close()
    }
  })

  it('the checkpointer thread ends after its deep check; a request starts one that copies the log, and it ends when idle', async () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const writer = openStore(file, { autoCheckpoint: false }).db
    const before = liveStoreThreads()
    const checkpointer = new Checkpointer(file, SOURCE_STORE_WORKER.checkpointer, undefined, {
      idleMs: 0,
    })
    try {
      expect(liveStoreThreads()).toBe(before + 1)
      // Nothing asked while it checked the file: its thread exits.
      await vi.waitFor(() => expect(liveStoreThreads()).toBe(before), {
        timeout: 10_000,
        interval: 20,
      })
      writer.exec('CREATE TABLE filler (x BLOB)')
      const insert = writer.prepare('INSERT INTO filler VALUES (randomblob(4000))')
      for (let i = 0; i < 200; i += 1) insert.run()
      const size = statSync(file).size
      checkpointer.request()
      expect(liveStoreThreads()).toBe(before + 1)
      // The 800 kB in the log reach the file, then the thread, idle, exits again.
      await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(size + 700_000), {
        timeout: 10_000,
        interval: 20,
      })
      await vi.waitFor(() => expect(liveStoreThreads()).toBe(before), {
        timeout: 10_000,
        interval: 20,
      })
    } finally {
      await checkpointer.close()
      writer.close()
    }
  })

  it('the checkpointer closes twice without hanging', async () => {
    const owner = await open()
    const checkpointer = new Checkpointer(owner.file, SOURCE_STORE_WORKER.checkpointer)
    checkpointer.request()
    await Promise.all([checkpointer.close(), checkpointer.close()])
    await checkpointer.close()
    checkpointer.request()
  })

  it('loads as a bundled JavaScript entry too, the way electron-vite builds it for the app', async () => {
    // Like the app's main bundle: our code inlined, packages resolved from node_modules at run
    // time (so the file lives under the project, as out/main/owner-worker.js does).
    const root = fileURLToPath(new URL('../../..', import.meta.url))
    const dir = mkdtempSync(join(root, 'node_modules', '.owner-worker-'))
    try {
      // Vite's server-side build, as electron-vite uses for the main process: packages stay external.
      await build({
        configFile: false,
        logLevel: 'silent',
        build: {
          ssr: true,
          outDir: dir,
          emptyOutDir: false,
          rollupOptions: {
            input: {
              'owner-worker': join(root, 'src/core/owner/worker.ts'),
              'checkpoint-worker': join(root, 'src/core/owner/checkpoint-worker.ts'),
            },
            output: { format: 'es', entryFileNames: '[name].js' },
          },
        },
      })
      const bundled = {
        owner: { url: pathToFileURL(join(dir, 'owner-worker.js')) },
        checkpointer: { url: pathToFileURL(join(dir, 'checkpoint-worker.js')) },
      }
      const owner = await open(bundled)
      await owner.call('writePage', {
        resource: 'inspections',
        items: [inspection(5)],
        pass: 1,
        at: 'now',
      })
      expect((await owner.call('queryInspections', {})).total).toBe(1)
      expect(await checkpointOnce(bundled.checkpointer, owner.file)).toBe('done')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
