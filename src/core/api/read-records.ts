import {
  REJECTED_RAW_MAX,
  type Guarantee,
  type Inspection,
  type ListPage,
  type RejectedItem,
} from '../../shared/domain'
import { GUARANTEE_FIELDS, INSPECTION_FIELDS, type FieldSpec } from '../../shared/record-fields'
import { AppError } from '../app-error'

/**
 * Tolerant readers for the guarantee and inspection lists. The rules, also
 * written down in the README ("Partner API client: assumptions"):
 *
 * - An envelope without an array `data` or an integer `total` is a
 *   `bad_response` (nothing of it is used); a missing `page` falls back to
 *   the page asked for.
 * - An item missing a *required* field is rejected and reported with a JSON
 *   path; the rest of the page still loads. Required: `idx`, `productName`,
 *   `registeredAt` (either spelling), plus `status` for guarantees and
 *   `inspectionNum` for inspections — what a record cannot be shown without.
 * - Other fields the spec calls "always" (`nftCardImg`, the inspection's
 *   `ref*`) become `null` with a warning when absent; optional fields become
 *   `null`.
 * - `registeredAtAt`/`modifiedAtAt` are accepted for `registeredAt`/
 *   `modifiedAt`. When both spellings are sent and differ, the spec's
 *   spelling wins and a warning says so. A timestamp that is not a date
 *   becomes `null` with a warning.
 * - Unknown fields are kept in `raw`, built with `Object.fromEntries` so a
 *   `__proto__` key stays a plain own property (no prototype pollution).
 */

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Reads an own property only: `item.constructor` must not find `Object`. */
function own(item: Json, key: string): unknown {
  return Object.hasOwn(item, key) ? item[key] : undefined
}

/** An integer from a number or a string of digits (services differ). */
function asInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim())
  return undefined
}

/** A string from a string or a finite number; anything else (and null) counts as absent. */
function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?$/

/**
 * `YYYY-MM-DD HH:MM:SS` for a readable timestamp, undefined for anything
 * else. An ISO form with `T`, fractions or an offset is accepted and shown
 * as its wall-clock part, the way the service's own format reads.
 * @internal
 */
export function normaliseTimestamp(value: string): string | undefined {
  // Nearly every value is already `YYYY-MM-DD HH:MM:SS`: checked without a regex or a Date.
  if (isPlainTimestamp(value)) return value
  const match = TIMESTAMP.exec(value.trim())
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s))
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return undefined
  }
  return value.trim().slice(0, 10) + ' ' + value.trim().slice(11, 19)
}

/** Digits of `text` from `start` to `end` as a number (the caller checked they are digits). */
function digits(text: string, start: number, end: number): number {
  let n = 0
  for (let i = start; i < end; i += 1) n = n * 10 + text.charCodeAt(i) - 48
  return n
}

/** Positions of the separators in `YYYY-MM-DD HH:MM:SS`, and the character each must be. */
const SEPARATORS: Readonly<Record<number, number>> = { 4: 45, 7: 45, 10: 32, 13: 58, 16: 58 }

/**
 * True when `value` is exactly `YYYY-MM-DD HH:MM:SS` and a real time of
 * that day; years before 100 go the slow way (which `Date.UTC` reads as 19xx
 * and so refuses).
 */
function isPlainTimestamp(value: string): boolean {
  if (value.length !== 19) return false
  for (let i = 0; i < 19; i += 1) {
    const code = value.charCodeAt(i)
    const separator = SEPARATORS[i]
    if (separator === undefined ? code < 48 || code > 57 : code !== separator) return false
  }
  const year = digits(value, 0, 4)
  const month = digits(value, 5, 7)
  const day = digits(value, 8, 10)
  if (year < 100 || month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31
  return (
    day <= days &&
    digits(value, 11, 13) <= 23 &&
    digits(value, 14, 16) <= 59 &&
    digits(value, 17, 19) <= 59
  )
}

const short = (value: unknown): string => {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    // Nested too deeply to write out (the stack would overflow): say what it is instead.
    text = kindOf(value)
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * Deepest nesting of arrays and objects accepted in a record's unknown
 * fields: they are kept as JSON (`raw`), and writing out a value nested some
 * thousands deep overflows the stack. Real answers nest a level or two.
 * @internal
 */
export const MAX_RAW_DEPTH = 64

/** The first key of `raw` whose value nests deeper than {@link MAX_RAW_DEPTH}, or null. */
function tooDeep(raw: Readonly<Record<string, unknown>>): string | null {
  // `for…in` over own data properties: a record without unknown fields allocates nothing here.
  for (const key in raw) {
    const stack: [unknown, number][] = [[raw[key], 1]]
    while (stack.length > 0) {
      const [value, depth] = stack.pop()!
      if (typeof value !== 'object' || value === null) continue
      if (depth > MAX_RAW_DEPTH) return key
      for (const child of Object.values(value)) stack.push([child, depth + 1])
    }
  }
  return null
}

/** A refused field: which one and why. */
interface Problem {
  readonly field: string
  readonly reason: string
}

/** The API names a declaration reads (a timestamp under both spellings), built once per declaration. */
const KNOWN_KEYS = new WeakMap<readonly FieldSpec[], ReadonlySet<string>>()

function knownKeys(fields: readonly FieldSpec[]): ReadonlySet<string> {
  let known = KNOWN_KEYS.get(fields)
  if (!known) {
    known = new Set(
      fields.flatMap((spec) =>
        spec.read === 'timestamp' || spec.read === 'timestamp?'
          ? [spec.api, `${spec.api}At`]
          : [spec.api],
      ),
    )
    KNOWN_KEYS.set(fields, known)
  }
  return known
}

/** Collects problems and warnings while one item is read. */
class FieldReader {
  readonly problems: Problem[] = []
  readonly warnings: string[] = []

  constructor(
    readonly item: Json,
    /** Every name the declaration reads: the rest of the item is kept in `raw`. */
    readonly known: ReadonlySet<string>,
  ) {}

  integer(key: string): number | null {
    const value = asInteger(own(this.item, key))
    if (value === undefined) this.problems.push({ field: key, reason: 'missing or not an integer' })
    return value ?? null
  }

  required(key: string): string | null {
    const value = asText(own(this.item, key))
    if (value === undefined) this.problems.push({ field: key, reason: 'missing' })
    return value ?? null
  }

  /** A field the spec calls "always" but the app can live without. */
  expected(key: string): string | null {
    const value = asText(own(this.item, key))
    if (value === undefined) this.warnings.push(`${key}: absent though the spec says always`)
    return value ?? null
  }

  optional(key: string): string | null {
    return asText(own(this.item, key)) ?? null
  }

  /**
   * A timestamp under either spelling (`name` or `nameAt`). `required`
   * means an item with neither spelling is rejected.
   */
  timestamp(name: string, required: boolean): string | null {
    const alias = `${name}At`
    const hasMain = Object.hasOwn(this.item, name)
    const hasAlias = Object.hasOwn(this.item, alias)
    if (!hasMain && !hasAlias) {
      if (required) this.problems.push({ field: name, reason: 'missing' })
      return null
    }
    const main = own(this.item, name)
    const other = own(this.item, alias)
    if (hasMain && hasAlias && main !== other) {
      this.warnings.push(`${name}: ${name} and ${alias} differ; ${name} kept`)
    }
    const value = hasMain ? main : other
    if (value === null) return null
    const normalised = typeof value === 'string' ? normaliseTimestamp(value) : undefined
    if (normalised === undefined) {
      this.warnings.push(`${name}: not a date (${short(value)})`)
      return null
    }
    return normalised
  }

  /** One declared field, the way its declaration says it is read. */
  field(spec: FieldSpec): string | number | null {
    switch (spec.read) {
      case 'integer':
        return this.integer(spec.api)
      case 'required':
        return this.required(spec.api)
      case 'expected':
        return this.expected(spec.api)
      case 'optional':
        return this.optional(spec.api)
      case 'timestamp':
        return this.timestamp(spec.api, true)
      case 'timestamp?':
        return this.timestamp(spec.api, false)
    }
  }

  /** Everything the reader did not ask for, as own data properties. */
  raw(): Readonly<Record<string, unknown>> {
    let extra: [string, unknown][] | null = null
    for (const key of Object.keys(this.item)) {
      if (!this.known.has(key)) (extra ??= []).push([key, this.item[key]])
    }
    return extra === null ? {} : Object.fromEntries(extra)
  }
}

/** The result of reading one item: the record, or why it was rejected. */
export type ItemResult<T> = { ok: true; value: T } | { ok: false; reject: RejectedItem }

/** Reads the item at `position` of a page's `data`. */
export type ItemReader<T> = (item: unknown, position: number) => ItemResult<T>

/** The item as sent, as JSON cut to {@link REJECTED_RAW_MAX} characters. */
function rawOf(item: unknown): { raw: string; rawTruncated: boolean } {
  let text: string
  try {
    text = JSON.stringify(item) ?? String(item)
  } catch {
    // Nested too deeply to write out: only what it is.
    text = `(${kindOf(item)} nested too deeply to show)`
  }
  return text.length > REJECTED_RAW_MAX
    ? { raw: text.slice(0, REJECTED_RAW_MAX), rawTruncated: true }
    : { raw: text, rawTruncated: false }
}

function rejectOf(
  item: unknown,
  position: number,
  problems: readonly Problem[],
): ItemResult<never> {
  const idx = isObject(item) ? (asInteger(own(item, 'idx')) ?? null) : null
  const first = problems[0] ?? { field: '', reason: 'refused' }
  return {
    ok: false,
    reject: {
      position,
      idx,
      problems: problems.map(
        (p) => `data[${position}]${p.field ? `.${p.field}` : ''}: ${p.reason}`,
      ),
      field: first.field,
      reason: first.reason,
      ...rawOf(item),
    },
  }
}

/**
 * Reads one item of a declared kind: every field as its declaration says,
 * unknown fields kept in `raw`, the parser's corrections in `warnings`.
 */
function readDeclared<T>(
  fields: readonly FieldSpec[],
  item: unknown,
  position: number,
): ItemResult<T> {
  if (!isObject(item)) return rejectOf(item, position, [{ field: '', reason: 'not an object' }])
  const r = new FieldReader(item, knownKeys(fields))
  // Keys are the declaration's own names, never the service's: a plain object is safe here.
  const record: Record<string, unknown> = {}
  for (const spec of fields) record[spec.api] = r.field(spec)
  if (r.problems.length > 0) return rejectOf(item, position, r.problems)
  const raw = r.raw()
  const deep = tooDeep(raw)
  if (deep !== null) {
    return rejectOf(item, position, [
      { field: deep, reason: `nested more than ${MAX_RAW_DEPTH} levels deep` },
    ])
  }
  record['raw'] = raw
  record['warnings'] = r.warnings
  // The declaration's record type (`RecordOf`) is built from the same list.
  return { ok: true, value: record as T }
}

/** Reads one guarantee item ({@link GUARANTEE_FIELDS}). */
export function readGuarantee(item: unknown, position: number): ItemResult<Guarantee> {
  return readDeclared(GUARANTEE_FIELDS, item, position)
}

/** Reads one inspection item ({@link INSPECTION_FIELDS}). */
export function readInspection(item: unknown, position: number): ItemResult<Inspection> {
  return readDeclared(INSPECTION_FIELDS, item, position)
}

/**
 * Reads a page envelope `{ total, page, data }`, each item through `read`.
 * A wrong envelope is a `bad_response` naming the JSON path (no body text,
 * which could be large or carry anything).
 */
export function readPage<T>(body: unknown, askedPage: number, read: ItemReader<T>): ListPage<T> {
  if (!isObject(body)) {
    throw new AppError('bad_response', `The list answer is not an object (got ${kindOf(body)}).`)
  }
  const data = own(body, 'data')
  if (!Array.isArray(data)) {
    throw new AppError(
      'bad_response',
      `The list answer's data is not an array (got ${kindOf(data)}).`,
    )
  }
  const total = asInteger(own(body, 'total'))
  if (total === undefined || total < 0) {
    throw new AppError(
      'bad_response',
      `The list answer's total is not a whole number (got ${kindOf(own(body, 'total'))}).`,
    )
  }
  const page = asInteger(own(body, 'page')) ?? askedPage
  const pageSize = asInteger(own(body, 'pageSize'))
  const items: T[] = []
  const rejects: RejectedItem[] = []
  data.forEach((item, position) => {
    const result = read(item, position)
    if (result.ok) items.push(result.value)
    else rejects.push(result.reject)
  })
  return {
    total,
    page,
    received: data.length,
    ...(pageSize === undefined ? {} : { pageSize }),
    items,
    rejected: rejects.length,
    rejects,
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value === undefined) return 'nothing'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
