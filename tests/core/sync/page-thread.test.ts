import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { build } from 'vite'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { JsonBody } from '../../../src/core/api/http'
import { MAX_RAW_DEPTH, readGuarantee, readPage } from '../../../src/core/api/read-records'
import { isAppError } from '../../../src/core/app-error'
import { decodePageWrite } from '../../../src/core/store/write/row-format'
import { prepareRows } from '../../../src/core/store/schema/stored-raw'
import { liveStoreThreads, spawnStoreThread } from '../../../src/core/threads/spawn'
import {
  PAGE_THREAD_DATA,
  type PageBody,
  type ParsedPage,
} from '../../../src/core/sync/page-thread/protocol'
import { parseHere, PageThread } from '../../../src/core/sync/page-thread/client'
import { Dataset } from '../../../src/sandbox/dataset'
import { encodeEucKr } from '../../../src/sandbox/echo'
import { SOURCE_PAGE_WORKER } from '../../support/store-worker'
import { failure } from '../../support/failure'
import { SANDBOX_ANCHOR } from '../../support/anchor'

const dataset = new Dataset({
  seed: 3,
  size: 400,
  staticUrl: 'http://127.0.0.1:1',
  anchor: SANDBOX_ANCHOR,
})
const threads: PageThread[] = []
const cleanups: (() => void)[] = []
afterEach(async () => {
  for (const thread of threads.splice(0)) await thread.close()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function thread(entry = SOURCE_PAGE_WORKER): PageThread {
  const started = new PageThread(entry)
  threads.push(started)
  return started
}

/** A stand-in page thread that runs `onMessage` (JavaScript of the message `m`) for each message. */
function standIn(onMessage: string): PageThread {
  const source = `import { parentPort } from 'node:worker_threads'; parentPort.on('message', (m) => ${onMessage})`
  return thread({ url: new URL(`data:text/javascript,${encodeURIComponent(source)}`) })
}

/** A page of `count` guarantees to parse: the first page, in chunks of 10. */
function pageInput(count: number): PageBody {
  return { resource: 'guarantees', body: body(envelope(count)), page: 1, rowsPerChunk: 10 }
}

/** The error a one-record page fails with on `pages`. */
function pageFailure(pages: PageThread): Promise<unknown> {
  return failure(pages.parse(pageInput(1)))
}

/** A list answer as the service sends it, in UTF-8 unless told. */
function body(value: unknown, contentType = 'application/json; charset=utf-8'): JsonBody {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return { bytes: new Uint8Array(Buffer.from(text)), contentType, status: 200 }
}

function envelope(count: number, page = 1): { total: number; page: number; data: unknown[] } {
  return {
    total: 400,
    page,
    data: Array.from({ length: count }, (_, i) => dataset.guarantee(i)),
  }
}

/** The rows a parsed page's chunks hold, decoded as the owner does. */
function rowsOf(parsed: ParsedPage): unknown[] {
  return parsed.encoded.flatMap((encoded) => {
    const page = decodePageWrite({ resource: 'guarantees', encoded, pass: 1, at: 'now' })
    return 'rows' in page ? page.rows : []
  })
}

describe('the page thread', () => {
  it('parses a list answer into the same records as the main thread would, cut into chunks', async () => {
    const sent = envelope(250)
    // One refused item: kept with why and as sent, not among the records.
    sent.data.push({ idx: 999_999 })
    const parsed = await thread().parse({
      resource: 'guarantees',
      body: body(sent),
      page: 1,
      rowsPerChunk: 100,
    })
    const here = readPage(sent, 1, readGuarantee)
    expect(parsed).toMatchObject({ total: 400, page: 1, received: 251, rejected: 1 })
    expect(parsed.rejects).toEqual(here.rejects)
    expect(parsed.encoded.map((chunk) => chunk.count)).toEqual([100, 100, 50])
    expect(rowsOf(parsed)).toEqual(prepareRows('guarantees', here.items))
    expect(parsed.fingerprint).toBe(here.items.map((item) => item.idx).join(','))
    // Parsing here gives the same answer (unit tests and tools use it).
    const local = await parseHere.parse({
      resource: 'guarantees',
      body: body(sent),
      page: 1,
      rowsPerChunk: 100,
    })
    expect(rowsOf(local)).toEqual(prepareRows('guarantees', here.items))
    expect({ ...local, encoded: null }).toEqual({ ...parsed, encoded: null })
  })

  it('moves the answer bytes to the thread instead of copying them, so this thread does not keep them', async () => {
    const answer = body(envelope(20))
    expect(answer.bytes.byteLength).toBeGreaterThan(0)
    const pending = thread().parse({
      resource: 'guarantees',
      body: answer,
      page: 1,
      rowsPerChunk: 50,
    })
    expect(answer.bytes.byteLength).toBe(0)
    expect(rowsOf(await pending)).toHaveLength(20)
  })

  it('a page of refusals only still has one (empty) chunk, so its refusals and checkpoint are written', async () => {
    const parsed = await thread().parse({
      resource: 'guarantees',
      body: body({ total: 2, page: 1, data: [{ idx: 1 }, 'nonsense'] }),
      page: 1,
      rowsPerChunk: 100,
    })
    expect(parsed).toMatchObject({ received: 2, rejected: 2, fingerprint: '' })
    expect(parsed.encoded.map((chunk) => chunk.count)).toEqual([0])
  })

  it('answers bad input with the typed errors of the main thread, and keeps working', async () => {
    const pages = thread()
    const cases: [JsonBody, RegExp][] = [
      [body('{"total": 1, "data": ['), /malformed JSON/],
      [body([1, 2]), /not an object/],
      [body({ total: 'many', data: [] }), /total is not a whole number/],
      [body({ total: 1 }, 'application/json; charset=klingon'), /character set/],
    ]
    for (const [answer, message] of cases) {
      const error = await failure(
        pages.parse({ resource: 'inspections', body: answer, page: 1, rowsPerChunk: 10 }),
      )
      expect(isAppError(error, 'bad_response')).toBe(true)
      expect((error as Error).message).toMatch(message)
    }
    const parsed = await pages.parse(pageInput(3))
    expect(parsed.received).toBe(3)
  })

  it('refuses a record whose fields nest thousands deep, with why, and parses the rest of its page (fuzz seed 42)', async () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000)
    const [first, second, third] = envelope(3).data.map((item) => JSON.stringify(item))
    // An unknown field (kept as JSON in `raw`) and a timestamp (quoted in a warning), both nested deep.
    const withField = `${second!.slice(0, -1)},"extra":${deep}}`
    const withTimestamp = `${third!.replace(/"modifiedAt":(null|"[^"]*")/, `"modifiedAt":${deep}`)}`
    expect(withTimestamp).not.toBe(third)
    const text = `{"total":3,"page":1,"data":[${first},${withField},${withTimestamp}]}`
    for (const parse of [thread(), parseHere]) {
      const parsed = await parse.parse({
        resource: 'guarantees',
        body: body(text),
        page: 1,
        rowsPerChunk: 10,
      })
      expect(parsed).toMatchObject({ received: 3, rejected: 1 })
      expect(parsed.rejects[0]).toMatchObject({
        position: 1,
        field: 'extra',
        reason: `nested more than ${MAX_RAW_DEPTH} levels deep`,
        raw: '(an object nested too deeply to show)',
      })
      expect(parsed.encoded.map((chunk) => chunk.count)).toEqual([2])
      // The record whose timestamp is no date is kept (the timestamp reads as none).
      const rows = rowsOf(parsed) as { idx: number; raw: string }[]
      expect(rows.map((row) => row.idx)).toEqual([
        dataset.guarantee(0).idx,
        dataset.guarantee(2).idx,
      ])
    }
  })

  it('lends its parser to another thread without serving there', async () => {
    // A worker of another kind that loads the entry: the entry must not answer its messages too.
    const worker = new Worker(new URL('./parser-host.ts', import.meta.url), {
      execArgv: [...(SOURCE_PAGE_WORKER.execArgv ?? [])],
    })
    const answers: unknown[] = []
    const answered = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (answers.length >= count) {
            worker.off('message', check)
            resolve()
          }
        }
        worker.on('message', check)
        check()
      })
    worker.on('message', (answer: unknown) => answers.push(answer))
    try {
      worker.postMessage({ id: 1, input: pageInput(3) })
      await answered(1)
      // Messages on a port arrive in order: a second answer to the first would come before this one's.
      worker.postMessage({ id: 2, input: pageInput(2) })
      await answered(2)
      expect(answers).toEqual([
        { id: 1, host: true, received: 3 },
        { id: 2, host: true, received: 2 },
      ])
    } finally {
      await worker.terminate()
    }
  })

  it('answers a malformed request as internal, drops one without an id, and keeps working', async () => {
    const worker = spawnStoreThread(SOURCE_PAGE_WORKER, { workerData: PAGE_THREAD_DATA })
    const answers: unknown[] = []
    worker.on('message', (answer: unknown) => answers.push(answer))
    try {
      const input = pageInput(2)
      const malformed = [
        { id: 1, input: { ...input, resource: 'brands' } },
        { id: 2, input: { ...input, page: 0 } },
        { id: 3, input: { ...input, body: { ...input.body, bytes: 'not bytes' } } },
        { id: 4, input: null },
        { id: 5, input: { ...input, rowsPerChunk: 1.5 } },
        { id: 6, input: { ...input, body: { ...input.body, status: '200' } } },
      ]
      for (const request of malformed) worker.postMessage(request)
      // Nobody to answer: dropped.
      worker.postMessage({ input })
      worker.postMessage({ id: 7, input })
      await vi.waitFor(() => expect(answers).toHaveLength(7), { timeout: 10_000 })
      expect(answers.slice(0, 6)).toEqual(
        malformed.map(({ id }) => ({
          id,
          ok: false,
          error: { code: 'internal', message: 'The page thread received a malformed request.' },
        })),
      )
      expect(answers[6]).toMatchObject({ id: 7, ok: true, value: { received: 2 } })
    } finally {
      await worker.terminate()
    }
  })

  it('decodes an answer in its declared legacy charset (EUC-KR) there too', async () => {
    const sent = envelope(2)
    const text = JSON.stringify(sent)
    const parsed = await thread().parse({
      resource: 'guarantees',
      body: {
        bytes: new Uint8Array(encodeEucKr(text)),
        contentType: 'application/json; charset=euc-kr',
        status: 200,
      },
      page: 1,
      rowsPerChunk: 10,
    })
    expect(rowsOf(parsed)).toEqual(
      prepareRows('guarantees', readPage(sent, 1, readGuarantee).items),
    )
  })

  it('a thread that dies fails what it held as internal, and the next page starts a new one', async () => {
    // A page thread that exits on its first message, then one that answers nonsense.
    const dying = standIn('process.exit(3)')
    expect(isAppError(await pageFailure(dying), 'internal')).toBe(true)
    expect(isAppError(await pageFailure(dying), 'internal')).toBe(true)

    const babbling = standIn('parentPort.postMessage({ id: m.id, ok: true, value: { total: -1 } })')
    const malformed = await pageFailure(babbling)
    expect(isAppError(malformed, 'internal')).toBe(true)
    expect((malformed as Error).message).toMatch(/malformed answer/)
  })

  it('starts no thread until a page is on its way, and ends it once no page has come for a while', async () => {
    const before = liveStoreThreads()
    const pages = new PageThread(SOURCE_PAGE_WORKER, { idleMs: 0 })
    threads.push(pages)
    expect(liveStoreThreads()).toBe(before)
    // A request went out: the thread starts while the service answers.
    pages.warm()
    expect(liveStoreThreads()).toBe(before + 1)
    const parsed = await pages.parse(pageInput(5))
    expect(parsed.received).toBe(5)
    // No page since: the thread exits; the next page starts a new one.
    await vi.waitFor(() => expect(liveStoreThreads()).toBe(before), { timeout: 10_000 })
    const next = await pages.parse({
      resource: 'guarantees',
      body: body(envelope(2)),
      page: 2,
      rowsPerChunk: 10,
    })
    expect(next.received).toBe(2)
  })

  it('close stops the thread, fails pages in flight as cancelled and refuses later ones', async () => {
    const before = liveStoreThreads()
    const pages = new PageThread(SOURCE_PAGE_WORKER)
    const pending = pages.parse(pageInput(50))
    const failed = failure(pending)
    expect(liveStoreThreads()).toBe(before + 1)
    await Promise.all([pages.close(), pages.close()])
    expect(isAppError(await failed, 'cancelled')).toBe(true)
    await vi.waitFor(() => expect(liveStoreThreads()).toBe(before))
    const later = pages.parse(pageInput(1))
    expect(isAppError(await failure(later), 'cancelled')).toBe(true)
  })

  it('parses pages only: anything else is answered as malformed, and it keeps working', async () => {
    const worker = spawnStoreThread(SOURCE_PAGE_WORKER, { workerData: PAGE_THREAD_DATA })
    const answers: unknown[] = []
    worker.on('message', (answer: unknown) => answers.push(answer))
    try {
      const input = pageInput(2)
      worker.postMessage({ id: 1, checkpoint: '/tmp/some.sqlite' })
      worker.postMessage({ id: 2, role: 'image-index', dir: '/tmp' })
      worker.postMessage({ id: 3, checkpoint: 'x', input })
      worker.postMessage({ id: 4, input })
      await vi.waitFor(() => expect(answers).toHaveLength(4), { timeout: 10_000 })
      const byId = new Map(answers.map((answer) => [(answer as { id: number }).id, answer]))
      for (const id of [1, 2]) {
        expect(byId.get(id)).toEqual({
          id,
          ok: false,
          error: { code: 'internal', message: 'The page thread received a malformed request.' },
        })
      }
      // A page with a stray field is still a page.
      expect(byId.get(3)).toMatchObject({ ok: true, value: { received: 2 } })
      expect(byId.get(4)).toMatchObject({ ok: true, value: { received: 2 } })
    } finally {
      await worker.terminate()
    }
  })

  it('loads as a bundled JavaScript entry too, the way electron-vite builds it for the app', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url))
    const dir = mkdtempSync(join(root, 'node_modules', '.page-worker-'))
    try {
      await build({
        configFile: false,
        logLevel: 'silent',
        build: {
          ssr: join(root, 'src/core/sync/page-thread/worker.ts'),
          outDir: dir,
          emptyOutDir: false,
          rollupOptions: { output: { format: 'es', entryFileNames: 'page-worker.js' } },
        },
      })
      const pages = thread({ url: pathToFileURL(join(dir, 'page-worker.js')) })
      const parsed = await pages.parse(pageInput(5))
      expect(rowsOf(parsed)).toHaveLength(5)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
