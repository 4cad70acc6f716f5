import type { SandboxListRequest, SandboxResource } from './dataset'
import { GUARANTEE_STATES } from '../shared/domain'

/** `pageSize` when the request gives none (the spec's documented default). */
const DEFAULT_PAGE_SIZE = 10
/**
 * The largest `pageSize` the sandbox honours; larger values are silently
 * capped, as many services do. The spec shows no maximum, so this value is
 * the sandbox's invention, and clients have to discover it.
 * @internal
 */
export const MAX_PAGE_SIZE = 100
/** Highest page number accepted; anything past the data is an empty page, not an error. */
const MAX_PAGE = 10_000_000
/** Longest accepted `refUserId` or `status` value. */
const MAX_TEXT = 100

/** The error body of a rejected request (the spec shows none; this shape is the sandbox's). */
export interface QueryError {
  readonly code: 'INVALID_PARAMETER'
  readonly message: string
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

function isDay(text: string): boolean {
  const match = DAY.exec(text)
  if (!match) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

function bad(message: string): { ok: false; error: QueryError } {
  return { ok: false, error: { code: 'INVALID_PARAMETER', message } }
}

/**
 * Validates the query string of the guarantee or inspection list. Unknown
 * parameters are ignored; a known one given twice, empty, or out of range
 * is a 400 with a message naming it.
 */
export function parseListRequest(
  params: URLSearchParams,
  kind: SandboxResource,
): { ok: true; query: SandboxListRequest } | { ok: false; error: QueryError } {
  const statusName = kind === 'guarantee' ? 'nftStatus' : 'status'
  const names = ['refUserId', statusName, 'from', 'to', 'page', 'pageSize', 'sort']
  const values: Record<string, string> = {}
  for (const name of names) {
    const all = params.getAll(name)
    if (all.length > 1) return bad(`${name} is given more than once.`)
    if (all.length === 1) {
      const value = all[0] ?? ''
      if (value === '') return bad(`${name} is empty.`)
      values[name] = value
    }
  }

  const page = values.page ?? '1'
  if (!/^\d{1,9}$/.test(page) || Number(page) < 1 || Number(page) > MAX_PAGE) {
    return bad(`page must be a whole number from 1 to ${MAX_PAGE} (got ${JSON.stringify(page)}).`)
  }
  const pageSize = values.pageSize ?? String(DEFAULT_PAGE_SIZE)
  if (!/^\d{1,9}$/.test(pageSize) || Number(pageSize) < 1) {
    return bad(`pageSize must be a whole number of at least 1 (got ${JSON.stringify(pageSize)}).`)
  }
  const sort = values.sort ?? 'latest'
  if (sort !== 'latest' && sort !== 'oldest') {
    return bad(`sort must be "latest" or "oldest" (got ${JSON.stringify(sort)}).`)
  }
  for (const name of ['from', 'to'] as const) {
    const value = values[name]
    if (value !== undefined && !isDay(value)) {
      return bad(`${name} must be a date YYYY-MM-DD (got ${JSON.stringify(value)}).`)
    }
  }
  if (values.from !== undefined && values.to !== undefined && values.from > values.to) {
    return bad(`from (${values.from}) is after to (${values.to}).`)
  }
  const status = values[statusName]
  if (kind === 'guarantee' && status !== undefined) {
    if (!(GUARANTEE_STATES as readonly string[]).includes(status)) {
      return bad(
        `nftStatus must be one of ${GUARANTEE_STATES.join(', ')} (got ${JSON.stringify(status)}).`,
      )
    }
  }
  for (const name of ['refUserId', statusName]) {
    const value = values[name]
    if (value !== undefined && value.length > MAX_TEXT) {
      return bad(`${name} is longer than ${MAX_TEXT} characters.`)
    }
  }

  return {
    ok: true,
    query: {
      ...(values.refUserId === undefined ? {} : { refUserId: values.refUserId }),
      ...(status === undefined ? {} : { status }),
      ...(values.from === undefined ? {} : { from: values.from }),
      ...(values.to === undefined ? {} : { to: values.to }),
      page: Number(page),
      pageSize: Math.min(Number(pageSize), MAX_PAGE_SIZE),
      sort,
    },
  }
}
