import { GUARANTEE_FIELDS } from '../../../shared/record-fields'
import { AppError } from '../../app-error'
import type { StoreConnection, CardPrefixes } from '../connection'
import { prepared } from '../statements'

/**
 * Card image URLs stored short (migration 17, `migrations/0017-short-rows.ts`):
 * a guarantee's `card_url` holds its URL without the part up to its last
 * `/` (`http://host/cards/` of `http://host/cards/1.png`) when that part is
 * one of the store's `card_url_prefixes`; the first character then names it
 * (U+0001 for prefix 1, … U+001E for 30), and the rest follows
 * (`\u0001` + `1.png`). Nearly every card of a service shares one prefix, so
 * a row keeps about a file name instead of a whole URL. A URL that starts
 * with a character below U+0020 (no URL does; the service may send anything)
 * is stored behind U+001F, so it never reads as a prefix; any other value,
 * `''` included, is stored as it is. The store keeps at most
 * {@link MAX_PREFIXES} prefixes; a URL of another prefix is stored whole.
 */

/** The guarantee field whose column keeps its URL short, and that column. */
export const CARD_URL_FIELD = 'nftCardImg'
const CARD_URL_COLUMN = GUARANTEE_FIELDS.find((f) => f.api === CARD_URL_FIELD)!.column

/** Prefixes a store keeps: their numbers are the characters U+0001 to U+001E. */
const MAX_PREFIXES = 30
/** Starts a stored value that is the URL as sent (it starts with a character below U+0020). */
const AS_SENT = 0x1f

function loadPrefixes(db: StoreConnection): CardPrefixes {
  const rows = prepared(db, 'SELECT id, prefix FROM card_url_prefixes').all() as {
    id: number
    prefix: string
  }[]
  const loaded: CardPrefixes = { ids: new Map(), prefixes: new Map() }
  for (const { id, prefix } of rows) {
    loaded.ids.set(prefix, id)
    loaded.prefixes.set(id, prefix)
  }
  db.cardPrefixes = loaded
  return loaded
}

/**
 * A card URL as its column stores it; a new prefix is added to the store
 * (the caller's transaction holds it: a rollback forgets the connection's
 * copy, see `transaction` in `database.ts`).
 */
function storedCardUrl(db: StoreConnection, url: string): string {
  if (url === '') return url
  if (url.charCodeAt(0) < 0x20) return String.fromCharCode(AS_SENT) + url
  const cut = url.lastIndexOf('/') + 1
  if (cut === 0) return url
  const prefix = url.slice(0, cut)
  let known = db.cardPrefixes ?? loadPrefixes(db)
  let id = known.ids.get(prefix)
  // Another connection may have added it since this one read them.
  if (id === undefined && known.ids.size < MAX_PREFIXES) {
    known = loadPrefixes(db)
    id = known.ids.get(prefix)
  }
  if (id === undefined) {
    if (known.ids.size >= MAX_PREFIXES) return url
    id = (
      prepared(db, 'INSERT INTO card_url_prefixes (prefix) VALUES (?) RETURNING id').get(
        prefix,
      ) as { id: number }
    ).id
    if (id > MAX_PREFIXES)
      throw new AppError('store_corrupt', 'Stored card URL prefixes are out of range.')
    known.ids.set(prefix, id)
    known.prefixes.set(id, prefix)
  }
  return String.fromCharCode(id) + url.slice(cut)
}

/**
 * The card URL a stored `card_url` stands for ({@link storedCardUrl}).
 * A prefix number the store does not hold is a `store_corrupt` error naming
 * the record.
 */
export function cardUrlOf(db: StoreConnection, stored: string, idx: unknown): string {
  const first = stored.charCodeAt(0)
  if (!(first < 0x20)) return stored
  if (first === AS_SENT) return stored.slice(1)
  let prefix = (db.cardPrefixes ?? loadPrefixes(db)).prefixes.get(first)
  // Another connection may have added it since this one read them.
  prefix ??= loadPrefixes(db).prefixes.get(first)
  if (prefix === undefined) {
    throw new AppError(
      'store_corrupt',
      `Stored guarantees record ${String(idx)} cannot be read: its card_url names no stored prefix.`,
    )
  }
  return prefix + stored.slice(1)
}

/** `row` with its card URL column mapped by `map`; a copy only when that changes it. */
function mapCardColumn<R extends Readonly<Record<string, unknown>>>(
  row: R,
  map: (value: string) => string,
): R {
  const value = row[CARD_URL_COLUMN]
  if (typeof value !== 'string') return row
  const mapped = map(value)
  return mapped === value ? row : { ...row, [CARD_URL_COLUMN]: mapped }
}

/** A stored row (as `SELECT *` gives it) with its `card_url` read back ({@link cardUrlOf}). */
export function withCardUrl<R extends Readonly<Record<string, unknown>>>(
  db: StoreConnection,
  row: R,
): R {
  return mapCardColumn(row, (stored) => cardUrlOf(db, stored, row['idx']))
}

/** Column values with the card URL as its column stores it ({@link storedCardUrl}). */
export function withStoredCardUrl<R extends Readonly<Record<string, unknown>>>(
  db: StoreConnection,
  values: R,
): R {
  return mapCardColumn(values, (url) => storedCardUrl(db, url))
}
