import { MessagePort } from 'node:worker_threads'
import type { ErrorData } from '../../shared/errors'
import { isFields, isPositiveInteger, readErrorData } from '../plain-checks'

/**
 * The messages between a profile's database owner (`worker.ts`) and its
 * handle on the main thread (`store-owner.ts`), each direction with the
 * reader that checks it where it arrives. Checked by hand, as every data
 * thread's messages are: the owner loads no schema library (about 4 MB in
 * each thread that does, and the owner lives as long as its profile is
 * open). A call's operation name is checked by the owner against its
 * operations (`store-ops.ts`), which this module does not import (they load
 * `node:sqlite`).
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
 * the page thread sends pages' encoded records ({@link PageParcel}, made in
 * `sync/page-thread/client.ts`).
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

/** Page thread → owner, over a link: one parsed page's encoded chunks, in order. */
export interface PageParcel {
  readonly parcel: number
  readonly chunks: readonly Uint8Array[]
}

/** A parcel as the owner reads it (`PageParcels` in `worker.ts`), or null when it is not one. */
export function readPageParcel(raw: unknown): PageParcel | null {
  if (!isFields(raw) || !isPositiveInteger(raw['parcel'])) return null
  const chunks = raw['chunks']
  if (!Array.isArray(chunks) || !chunks.every((chunk) => chunk instanceof Uint8Array)) return null
  return { parcel: raw['parcel'], chunks: chunks as Uint8Array[] }
}

/** The owner's word that a damaged file was moved aside and a new one made (`store_corrupt`). */
interface RebuiltNotice {
  readonly code: 'store_corrupt'
  readonly message: string
  readonly movedTo: string
  readonly at: string
}

/** Owner → main thread. */
export type FromOwner =
  | { readonly type: 'ready'; readonly notice: RebuiltNotice | null }
  | { readonly type: 'failed'; readonly error: ErrorData }
  | { readonly type: 'done'; readonly id: number; readonly value: unknown }
  /** Every page write of one committed batch, answered in one message (they answer nothing). */
  | { readonly type: 'pagesDone'; readonly ids: readonly number[] }
  | { readonly type: 'error'; readonly id: number; readonly error: ErrorData }

/** A message from the owner, or null when it is not one. */
export function readFromOwner(raw: unknown): FromOwner | null {
  if (!isFields(raw)) return null
  switch (raw['type']) {
    case 'ready': {
      const notice = raw['notice']
      if (notice === null) return { type: 'ready', notice: null }
      return isRebuiltNotice(notice) ? { type: 'ready', notice } : null
    }
    case 'failed': {
      const error = readErrorData(raw['error'])
      return error === null ? null : { type: 'failed', error }
    }
    case 'done':
      return isPositiveInteger(raw['id'])
        ? { type: 'done', id: raw['id'], value: raw['value'] }
        : null
    case 'pagesDone': {
      const ids = raw['ids']
      return Array.isArray(ids) && ids.length > 0 && ids.every(isPositiveInteger)
        ? { type: 'pagesDone', ids }
        : null
    }
    case 'error': {
      const error = readErrorData(raw['error'])
      return isPositiveInteger(raw['id']) && error !== null
        ? { type: 'error', id: raw['id'], error }
        : null
    }
    default:
      return null
  }
}

function isRebuiltNotice(raw: unknown): raw is RebuiltNotice {
  if (!isFields(raw) || raw['code'] !== 'store_corrupt') return false
  const { message, movedTo, at } = raw
  return typeof message === 'string' && typeof movedTo === 'string' && typeof at === 'string'
}
