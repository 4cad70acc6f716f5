import { createContext } from 'svelte'
import type { ResourceSyncStatus, SyncProgress, SyncStatus } from '../../../shared/lists'
import type { SyncResourceName } from '../../../shared/resources'
import type { ErrorData } from '../../../shared/errors'
import { connectionOf, type Connection } from './connection'
import type { Client } from './client'

/**
 * The sync engine as the views see it: the latest status per resource, the
 * live progress events, and start / cancel. One instance for the whole app.
 */
export class SyncState {
  status = $state.raw<SyncStatus | null>(null)
  progress = $state.raw<Partial<Record<SyncResourceName, SyncProgress>>>({})
  lastError = $state.raw<ErrorData | null>(null)
  /** The one app-wide connection state: the banner, the sidebar dot and the status bar show this. */
  readonly connection: Connection = $derived(connectionOf(this.status, this.lastError))
  readonly #client: Client

  constructor(client: Client) {
    this.#client = client
  }

  /** Subscribes to progress events; returns the unsubscribe function (for `$effect`). */
  connect(): () => void {
    void this.refresh()
    return this.#client.on('sync.progress', (event) => {
      // A sync started elsewhere (automatic, or another window) shows at its first event.
      const started = event.phase === 'running' && this.of(event.resource)?.status !== 'syncing'
      this.progress = { ...this.progress, [event.resource]: event }
      if (event.phase !== 'running' || started) void this.refresh()
    })
  }

  /** Reloads the status of every resource. */
  async refresh(): Promise<void> {
    const answer = await this.#client.attempt('sync.status', {})
    if (answer.ok) this.status = answer.value
  }

  /** Starts a sync of the given resources. */
  async start(resources: readonly SyncResourceName[]): Promise<void> {
    const answer = await this.#client.attempt('sync.start', { resources: [...resources] })
    this.lastError = answer.ok ? null : answer.error
    await this.refresh()
  }

  /** Cancels the running sync. */
  async cancel(): Promise<void> {
    await this.#client.attempt('sync.cancel', {})
    await this.refresh()
  }

  /** The stored status of one resource. */
  of(resource: SyncResourceName): ResourceSyncStatus | undefined {
    return this.status?.resources.find((entry) => entry.resource === resource)
  }

  /**
   * Whether the numbers of `resource` are partial: its first full pass has
   * not completed yet (`syncing` while a sync runs, `incomplete` while none
   * does); null once one has, or before the status is known.
   */
  partial(resource: SyncResourceName): 'syncing' | 'incomplete' | null {
    const status = this.of(resource)
    if (!status || status.lastFullSyncAt !== null) return null
    return status.status === 'syncing' || this.running(resource) ? 'syncing' : 'incomplete'
  }

  /** The live progress of a running sync of `resource`, if one runs. */
  running(resource: SyncResourceName): SyncProgress | undefined {
    const event = this.progress[resource]
    if (event?.phase === 'running') return event
    return this.of(resource)?.status === 'syncing' ? event : undefined
  }
}

const [getSync, provideSync] = createContext<SyncState>()

/** Provides the sync state to the component tree. */
export const setSync = provideSync

/** The sync state of the nearest ancestor that set one. */
export const useSync = getSync
