import type { SQLInputValue } from 'node:sqlite'
import { deserialize, serialize } from 'node:v8'
import { AppError } from '../../app-error'
import type { EncodedRows, PageWrite, PageWriteRequest } from './page-write'
import type { GuaranteeRecord, InspectionRecord, PagedResource } from '../record-types'
import { appendPreparedRow, RECORD_TABLES, type PreparedRow } from '../schema/stored-raw'
import { movable } from '../../threads/transfer'
import { STORED_COLUMNS } from './write-sql'

/** Slots a record takes in the flat array: `idx`, key, text, then its values. */
function slotsOf(resource: PagedResource): number {
  return 3 + STORED_COLUMNS[resource].length
}

/**
 * Prepares and encodes a list's records for {@link decodePageWrite}, in a
 * buffer of their own (see {@link movable}).
 */
export function encodeRows(
  resource: PagedResource,
  items: readonly (GuaranteeRecord | InspectionRecord)[],
): EncodedRows {
  const table = RECORD_TABLES[resource]
  const flat: SQLInputValue[] = []
  for (const item of items) appendPreparedRow(flat, table, item)
  const bytes = serialize(flat)
  return { count: items.length, bytes: movable([bytes]).length > 0 ? bytes : new Uint8Array(bytes) }
}

/** A value {@link encodeRows} writes for a column: text, a number or null. */
function isColumnValue(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || typeof value === 'number'
}

/**
 * The rows of a flat array from {@link encodeRows}, each checked for the
 * shape it was written with, or null when one is not a row: the bytes were
 * made by this app, so any other shape is a bug, never stored half.
 */
function decodedRows(resource: PagedResource, flat: readonly unknown[]): PreparedRow[] | null {
  const columns = STORED_COLUMNS[resource]
  const slots = slotsOf(resource)
  const rows: PreparedRow[] = []
  for (let at = 0; at < flat.length; at += slots) {
    const idx = flat[at]
    const key = flat[at + 1]
    const text = flat[at + 2]
    if (!Number.isSafeInteger(idx) || typeof key !== 'string' || typeof text !== 'string') {
      return null
    }
    const values: Record<string, SQLInputValue> = {}
    for (let i = 0; i < columns.length; i += 1) {
      const value = flat[at + 3 + i]
      if (!isColumnValue(value)) return null
      values[columns[i]!] = value
    }
    rows.push({ idx: idx as number, values, key, text })
  }
  return rows
}

/**
 * The page write a request stands for, its records decoded. Encoded bytes
 * that do not hold as many records as they claim, or hold anything but
 * rows, fail as `internal`: they were made by this app, so that is a bug,
 * never stored half.
 */
export function decodePageWrite(request: PageWriteRequest): PageWrite {
  if (!('encoded' in request)) return request
  const { encoded, ...rest } = request
  // Named records are taken out of their parcel by the owner before this (`owner/page-parcels.ts`).
  if (!('bytes' in encoded)) {
    throw new AppError('internal', "A synced page's records never reached the cache.")
  }
  let flat: unknown
  try {
    flat = deserialize(encoded.bytes)
  } catch (cause) {
    throw new AppError('internal', 'A synced page could not be read back.', { cause })
  }
  const slots = slotsOf(request.resource)
  if (!Array.isArray(flat) || flat.length % slots !== 0) {
    throw new AppError('internal', 'A synced page came back with records that are not rows.')
  }
  if (flat.length / slots !== encoded.count) {
    throw new AppError('internal', 'A synced page came back with the wrong number of records.')
  }
  const rows = decodedRows(request.resource, flat)
  if (rows === null) {
    throw new AppError('internal', 'A synced page came back with records that are not rows.')
  }
  return { ...rest, rows }
}
