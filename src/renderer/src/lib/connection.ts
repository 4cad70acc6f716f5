import type { SyncStatus } from '../../../shared/lists'
import type { SyncResourceName } from '../../../shared/resources'
import type { ErrorData } from '../../../shared/errors'

/**
 * The one app-wide connection state the banner, the sidebar dot and the
 * status bar all show: `offline` (the service could not be reached),
 * `error` (it answered with an error, or a sync could not start),
 * `syncing`, `online` (the last attempts worked) or `never` (nothing synced yet).
 */
type ConnectionName = 'online' | 'syncing' | 'offline' | 'error' | 'never'

/** What {@link connectionOf} answers. */
export interface Connection {
  readonly state: ConnectionName
  /** The error behind `offline` / `error`. */
  readonly error: ErrorData | null
  /** The resource whose last attempt failed, when one did. */
  readonly failed: SyncResourceName | null
  /** Latest successful sync of any resource (ISO): the "last good sync", never a failed attempt. */
  readonly lastGoodAt: string | null
  /** Latest attempt of any resource (ISO), failed or not. */
  readonly lastAttemptAt: string | null
}

const latest = (values: ReadonlyArray<string | null>): string | null =>
  values.reduce<string | null>(
    (best, value) => (value && (!best || value > best) ? value : best),
    null,
  )

/**
 * Folds the per-resource sync status (and the error of a `sync.start` that
 * was refused) into one state. A failure wins over a sync running for
 * another resource, so the banner never disappears while something is
 * still unreachable; offline wins over other errors.
 */
export function connectionOf(status: SyncStatus | null, startError: ErrorData | null): Connection {
  const resources = status?.resources ?? []
  const lastGoodAt = latest(resources.map((entry) => entry.lastSyncAt))
  const lastAttemptAt = latest(resources.map((entry) => entry.lastAttemptAt))
  const base = { lastGoodAt, lastAttemptAt }
  const failed =
    resources.find((entry) => entry.status === 'offline') ??
    resources.find((entry) => entry.status === 'error')
  if (failed) {
    return {
      ...base,
      state: failed.status === 'offline' ? 'offline' : 'error',
      error: failed.error ?? null,
      failed: failed.resource,
    }
  }
  if (startError) return { ...base, state: 'error', error: startError, failed: null }
  if (resources.some((entry) => entry.status === 'syncing' || entry.queued)) {
    return { ...base, state: 'syncing', error: null, failed: null }
  }
  return { ...base, state: lastGoodAt ? 'online' : 'never', error: null, failed: null }
}
