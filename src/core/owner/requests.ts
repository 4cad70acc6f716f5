import { MessagePort } from 'node:worker_threads'
import { isFields, isPositiveInteger } from '../plain-checks'

/**
 * What the main thread sends a profile's database owner (`worker.ts`), and
 * the owner's checks of it on arrival, by hand: the owner loads no schema
 * library (about 4 MB in each thread that does, and the owner lives as
 * long as its profile is open). Its answers are checked with schemas on
 * the main thread (`protocol.ts`).
 */

/** What the owner is started with. */
export interface OwnerData {
  readonly file: string
  readonly busyTimeoutMs?: number
  /** When the open started (ISO, UTC): stamps a rebuilt file's moved-aside copy. */
  readonly openedAt: string
}

/**
 * Main thread → owner. `call` carries one store operation; `reset` clears a
 * failed page write; `pages` hands over the owner's end of a link on which
 * the page thread sends pages' encoded records (`sync/page-thread/client.ts`).
 */
export type ToOwner =
  | { readonly type: 'call'; readonly id: number; readonly op: string; readonly args?: unknown }
  | { readonly type: 'pages'; readonly link: number; readonly port: MessagePort }
  | { readonly type: 'reset' }
  | { readonly type: 'close' }

/** An ISO date and time in UTC, as `Date.prototype.toISOString` writes it (any precision). */
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z$/u

/** The owner's start data, or null when it is not one. */
export function readOwnerData(raw: unknown): OwnerData | null {
  if (!isFields(raw)) return null
  const { file, busyTimeoutMs, openedAt } = raw
  if (typeof file !== 'string' || file === '') return null
  if (typeof openedAt !== 'string' || !UTC_DATE_TIME.test(openedAt)) return null
  if (busyTimeoutMs === undefined) return { file, openedAt }
  return isPositiveInteger(busyTimeoutMs) ? { file, busyTimeoutMs, openedAt } : null
}

/** A message from the main thread, or null when it is not one. */
export function readToOwner(raw: unknown): ToOwner | null {
  if (!isFields(raw)) return null
  if (raw['type'] === 'reset' || raw['type'] === 'close') return { type: raw['type'] }
  if (raw['type'] === 'pages') {
    const { link, port } = raw
    return isPositiveInteger(link) && port instanceof MessagePort
      ? { type: 'pages', link, port }
      : null
  }
  if (raw['type'] !== 'call' || !isPositiveInteger(raw['id'])) return null
  if (typeof raw['op'] !== 'string') return null
  return { type: 'call', id: raw['id'], op: raw['op'], args: raw['args'] }
}
