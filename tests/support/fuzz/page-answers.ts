import fc from 'fast-check'
import { expect } from 'vitest'
import { PartnerClient } from '../../../src/core/api/client'
import type { FetchLike, JsonBody } from '../../../src/core/api/http'
import { isAppError } from '../../../src/core/app-error'
import { parsePageBody } from '../../../src/core/sync/page-thread/worker'
import type { ParsedPage } from '../../../src/core/sync/page-thread/protocol'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import { REJECTED_RAW_MAX, type ListPage } from '../../../src/shared/domain'
import type { Sandbox } from '../../../src/sandbox'
import { SOURCE_PAGE_WORKER } from '../store-worker'
import { deepNesting, setOwn } from './mutate'

/**
 * The page reader fed mutated partner answers: real sandbox answers of each
 * list and of the brand list, mutated as JSON (fields dropped, duplicated,
 * retyped; records repeated; huge numbers; deep nesting; prototype keys) and
 * as bytes (cut short, invalid UTF-8, another declared charset). Each answer
 * is read in turn by the client (`PartnerClient`), by the page parser on
 * this thread, and by the real page thread. Every one must be read with its
 * refused records explained, or fail with `bad_response`; the page thread
 * must keep answering. Answers how many answers were read.
 */
export async function fuzzPageAnswers(options: {
  readonly sandbox: Sandbox
  readonly seed: number
  readonly budgetMs: number
}): Promise<number> {
  const originals = await captureAnswers(options.sandbox)
  const thread = new PageThread(SOURCE_PAGE_WORKER)
  let read = 0
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...originals.keys()),
        fc.array(jsonMutation, { minLength: 0, maxLength: 3 }),
        fc.option(byteMutation, { freq: 3 }),
        fc.constantFrom('client', 'here', 'thread'),
        async (which, jsonOps, byteOp, reader) => {
          const original = originals[which]!
          const answer = mutateAnswer(original, jsonOps, byteOp)
          read += 1
          if (original.kind === 'brands') {
            await checkBrands(answer)
          } else if (reader === 'client') {
            await checkClientList(original.kind, answer)
          } else {
            await checkParsedPage(original.kind, answer, reader === 'thread' ? thread : null)
          }
        },
      ),
      {
        seed: options.seed,
        numRuns: Number.MAX_SAFE_INTEGER,
        endOnFailure: true,
        plugins: [fc.interruptAfterTimeLimit(Math.max(1000, options.budgetMs))],
      },
    )
    // The page thread still parses an answer as sent.
    const list = originals.find((answer) => answer.kind === 'guarantees')!
    const parsed = await thread.parse(pageBody('guarantees', list))
    expect(parsed.rejected).toBe(0)
    expect(parsed.received).toBeGreaterThan(0)
  } finally {
    await thread.close()
  }
  return read
}

type AnswerKind = 'guarantees' | 'inspections' | 'brands'

/** An answer as the service sent it: its kind, bytes and content type. */
interface Answer {
  readonly kind: AnswerKind
  readonly bytes: Uint8Array
  readonly contentType: string
}

/** One page of each list and the brand list, as the sandbox sends them. */
async function captureAnswers(sandbox: Sandbox): Promise<Answer[]> {
  const answers: Answer[] = []
  let kind: AnswerKind = 'brands'
  const recording: FetchLike = async (input, init) => {
    const response = await globalThis.fetch(input, init)
    const bytes = new Uint8Array(await response.arrayBuffer())
    const contentType = response.headers.get('content-type') ?? ''
    answers.push({ kind, bytes, contentType })
    return new Response(bytes, { status: response.status, headers: response.headers })
  }
  const client = clientWith(sandbox, recording)
  kind = 'brands'
  await client.listBrands()
  kind = 'guarantees'
  await client.listGuarantees({ page: 1, pageSize: 8 })
  kind = 'inspections'
  await client.listInspections({ page: 1, pageSize: 8 })
  expect(answers.map((answer) => answer.kind)).toEqual(['brands', 'guarantees', 'inspections'])
  return answers
}

function clientWith(sandbox: Sandbox, fetch: FetchLike): PartnerClient {
  return new PartnerClient({
    fetch,
    target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
    credentials: async () => ({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
    retry: { maxAttempts: 1 },
  })
}

/** A client whose every request is answered with `answer`. */
function answering(answer: Answer): PartnerClient {
  const fixed: FetchLike = async () =>
    new Response(answer.bytes.slice(), {
      status: 200,
      headers: answer.contentType === '' ? {} : { 'content-type': answer.contentType },
    })
  return clientWith(
    { baseUrl: 'http://127.0.0.1:9', partnerId: 'demo', apiKey: 'k', apiSecret: 's' } as Sandbox,
    fixed,
  )
}

function pageBody(resource: 'guarantees' | 'inspections', answer: Answer) {
  const body: JsonBody = {
    bytes: answer.bytes.slice(),
    contentType: answer.contentType,
    status: 200,
  }
  return { resource, body, page: 1, rowsPerChunk: 3 }
}

/** Runs `read`; a failure must be `bad_response` (nothing else, never a plain exception). */
async function readOrRefuse<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (!isAppError(error)) throw new Error(`not a typed error: ${String(error)}`, { cause: error })
    expect(error.code, error.message).toBe('bad_response')
    return null
  }
}

async function checkBrands(answer: Answer): Promise<void> {
  const brands = await readOrRefuse(() => answering(answer).listBrands())
  if (brands === null) return
  for (const brand of brands.items) {
    expect(Number.isSafeInteger(brand.idx)).toBe(true)
    expect(typeof brand.name).toBe('string')
    expect(typeof brand.englishName).toBe('string')
  }
  expect(brands.rejected).toBeGreaterThanOrEqual(0)
}

async function checkClientList(kind: 'guarantees' | 'inspections', answer: Answer): Promise<void> {
  const client = answering(answer)
  const page = await readOrRefuse<ListPage<{ idx: number }>>(() =>
    kind === 'guarantees'
      ? client.listGuarantees({ page: 1 })
      : client.listInspections({ page: 1 }),
  )
  if (page === null) return
  expect(page.items.length + page.rejected).toBe(page.received)
  expect(page.rejects).toHaveLength(page.rejected)
  checkRejects(page.rejects)
  for (const item of page.items) expect(Number.isSafeInteger(item.idx)).toBe(true)
}

async function checkParsedPage(
  kind: 'guarantees' | 'inspections',
  answer: Answer,
  thread: PageThread | null,
): Promise<void> {
  const input = pageBody(kind, answer)
  const page: ParsedPage | null = await readOrRefuse(async () =>
    thread ? thread.parse(input) : parsePageBody(input),
  )
  if (page === null) return
  expect(page.rejects).toHaveLength(page.rejected)
  checkRejects(page.rejects)
  const encoded = page.encoded.reduce((sum, rows) => sum + rows.count, 0)
  expect(encoded + page.rejected).toBe(page.received)
}

/** Each refused record says where and why, and keeps at most its first characters as sent. */
function checkRejects(
  rejects: readonly {
    problems: readonly string[]
    reason: string
    raw: string
    position: number
  }[],
): void {
  for (const reject of rejects) {
    expect(reject.problems.length).toBeGreaterThan(0)
    expect(reject.problems[0]).toMatch(/^data\[\d+\]/)
    expect(reject.reason).not.toBe('')
    expect(reject.raw.length).toBeLessThanOrEqual(REJECTED_RAW_MAX)
  }
}

/** A JSON-level change: where (an index into the answer's objects and keys) and what. */
type JsonMutation =
  | { readonly op: 'drop' | 'duplicateKey' | 'duplicateItem' | 'protoKey'; readonly at: number }
  | { readonly op: 'retype'; readonly at: number; readonly value: unknown }
  | { readonly op: 'raw'; readonly at: number; readonly text: RawText }

/** JSON text placed where a value was (described, so a failure prints short): as is, or built. */
type RawText = string | { readonly nest: number } | { readonly long: number }

function rawText(text: RawText): string {
  if (typeof text === 'string') return text
  if ('nest' in text) return '['.repeat(text.nest) + ']'.repeat(text.nest)
  return JSON.stringify('가'.repeat(text.long))
}

/** JSON text placed where a value was: huge or odd numbers, deep nesting. */
const RAW_VALUES: fc.Arbitrary<RawText> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '1e400',
      '-1e400',
      '123456789012345678901234567890',
      '-0',
      '0.1e-400',
      '9007199254740993',
      '1.5',
      '-1',
      '"\\u0000"',
      '"\\ud800"',
      '"\\udfff\\ud800"',
      '"1e3"',
      '"  42 "',
      '"2026-02-30 12:00:00"',
      '"0000-01-01T00:00:00Z"',
    ),
  },
  // Deeper than a stack allows to write out, and longer than any field is.
  { weight: 1, arbitrary: fc.record({ nest: fc.integer({ min: 65, max: 30_000 }) }) },
  { weight: 1, arbitrary: fc.record({ long: fc.integer({ min: 5_000, max: 60_000 }) }) },
)

const jsonMutation: fc.Arbitrary<JsonMutation> = fc.oneof(
  fc.record({
    op: fc.constantFrom('drop', 'duplicateKey', 'duplicateItem', 'protoKey'),
    at: fc.nat(),
  }),
  fc.record({
    op: fc.constant('retype' as const),
    at: fc.nat(),
    value: fc.oneof(
      fc.constantFrom<unknown>(null, true, 0, -1, '', [], {}, 'x', 1.5, 2 ** 60),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.integer({ min: 2, max: 2000 }).map((depth) => deepNesting(depth)),
    ),
  }),
  fc.record({ op: fc.constant('raw' as const), at: fc.nat(), text: RAW_VALUES }),
)

/** A byte-level change of the whole answer. */
type ByteMutation =
  | { readonly op: 'truncate'; readonly at: number }
  | { readonly op: 'insert'; readonly at: number; readonly bytes: readonly number[] }
  | { readonly op: 'contentType'; readonly value: string }
  | { readonly op: 'bom' | 'empty' }

const INVALID_UTF8 = [
  [0xff],
  [0xc3],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xe2, 0x82],
]

const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.constantFrom(...INVALID_UTF8),
  }),
  fc.record({
    op: fc.constant('contentType' as const),
    value: fc.constantFrom(
      '',
      'text/html',
      'application/json; charset=euc-kr',
      'application/json; charset=cp949',
      'application/json; charset=utf-16le',
      'application/json; charset=x-unknown',
      'application/json; charset="',
      'application/problem+json',
    ),
  }),
  fc.record({ op: fc.constantFrom('bom' as const, 'empty' as const) }),
)

/** `original` with the JSON changes, then the byte change, applied. */
function mutateAnswer(
  original: Answer,
  jsonOps: readonly JsonMutation[],
  byteOp: ByteMutation | null,
): Answer {
  let text = new TextDecoder().decode(original.bytes)
  if (jsonOps.length > 0) {
    const value = JSON.parse(text) as unknown
    const raws: string[] = []
    const duplicates: string[] = []
    for (const op of jsonOps) applyJson(value, op, raws, duplicates)
    text = JSON.stringify(value)
    // Placeholders become the raw text or the duplicated key (JSON.stringify cannot write either).
    raws.forEach((raw, i) => {
      text = text.replace(JSON.stringify(rawMark(i)), () => raw)
    })
    duplicates.forEach((key, i) => {
      text = text.replace(JSON.stringify(duplicateMark(i)), () => JSON.stringify(key))
    })
  }
  let bytes = new TextEncoder().encode(text)
  let contentType = original.contentType
  if (byteOp) {
    switch (byteOp.op) {
      case 'truncate':
        bytes = bytes.slice(0, byteOp.at % Math.max(1, bytes.length))
        break
      case 'insert': {
        const at = byteOp.at % Math.max(1, bytes.length)
        bytes = new Uint8Array([...bytes.subarray(0, at), ...byteOp.bytes, ...bytes.subarray(at)])
        break
      }
      case 'contentType':
        contentType = byteOp.value
        break
      case 'bom':
        bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])
        break
      case 'empty':
        bytes = new Uint8Array(0)
        break
    }
  }
  return { kind: original.kind, bytes, contentType }
}

const rawMark = (i: number) => `\u0000raw-${i}\u0000`
const duplicateMark = (i: number) => `\u0000dup-${i}\u0000`

type Container = Record<string, unknown> | unknown[]

/** Objects and arrays of the answer, outermost first (at most a few hundred). */
function containersOf(root: unknown): Container[] {
  const found: Container[] = []
  const queue: unknown[] = [root]
  while (queue.length > 0 && found.length < 400) {
    const value = queue.shift()
    if (typeof value !== 'object' || value === null) continue
    found.push(value as Container)
    for (const child of Object.values(value)) queue.push(child)
  }
  return found
}

function applyJson(root: unknown, op: JsonMutation, raws: string[], duplicates: string[]): void {
  const places = containersOf(root)
  const target = places[op.at % Math.max(1, places.length)]
  if (target === undefined) return
  const keys = Object.keys(target)
  const key = keys[op.at % Math.max(1, keys.length)]
  if (op.op === 'duplicateItem') {
    // A record sent twice in one page (or any array's element repeated).
    const array = Array.isArray(target) ? target : places.find(Array.isArray)
    if (array && array.length > 0) array.push(structuredClone(array[op.at % array.length]))
    return
  }
  if (op.op === 'protoKey') {
    if (!Array.isArray(target))
      setOwn(target, op.at % 2 === 0 ? '__proto__' : 'constructor', { polluted: 1 })
    return
  }
  if (key === undefined) return
  switch (op.op) {
    case 'drop':
      if (Array.isArray(target)) target.splice(Number(key), 1)
      else delete target[key]
      return
    case 'duplicateKey':
      // The same key twice in one object: the second one's value wins in JSON.parse.
      if (!Array.isArray(target)) {
        duplicates.push(key)
        setOwn(target, duplicateMark(duplicates.length - 1), op.at % 2 === 0 ? null : 'other')
      }
      return
    case 'retype':
      setOwn(target, key, op.value)
      return
    case 'raw':
      raws.push(rawText(op.text))
      setOwn(target, key, rawMark(raws.length - 1))
      return
  }
}
