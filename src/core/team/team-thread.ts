import { MessageChannel, type Worker } from 'node:worker_threads'
import type { TeamErrorData } from '../../shared/errors'
import type { TeamLinkSink } from '../owner/store-owner'
import type { PulledApplied } from '../store/team-side'
import { spawnStoreThread, stopThread, type ThreadEntry } from '../threads/spawn'
import { readFromTeamWorker, type TeamWorkerData, type ToTeamWorker } from './team-protocol'
import type { TeamStatus } from './team-sync'
import type { PresenceAt, PresentMember } from './session'

/** Options of {@link TeamThread}. */
export interface TeamThreadOptions {
  /** The worker's entry (`team/worker.ts`, bundled as `out/main/team-worker.js`). */
  readonly entry: ThreadEntry
  /** The profile's database owner: the worker's store requests go to it over their own link. */
  readonly store: TeamLinkSink
  /** The worker's start data; the link to the owner is added here. */
  readonly data: Omit<TeamWorkerData, 'store'>
  readonly onStatus: (status: TeamStatus) => void
  /** The worker thread failed (after its status said so): nothing will update the counts. */
  readonly onFailed?: () => void
  /** A pulled page changed local marks or the Wallet history. */
  readonly onApplied: (applied: PulledApplied) => void
  /** The other members present changed. */
  readonly onPresence?: (present: readonly PresentMember[]) => void
}

/**
 * The main thread's handle on the team worker of the active profile: starts
 * it with a link of its own to the profile's database owner (its store
 * requests never pass through here), and hands its status, presence and
 * pulled pages' effects on. It runs no query of its own.
 */
export class TeamThread {
  readonly #worker: Worker
  readonly #options: TeamThreadOptions
  #closing: Promise<void> | null = null

  constructor(options: TeamThreadOptions) {
    this.#options = options
    const link = new MessageChannel()
    options.store.linkTeam(link.port1)
    this.#worker = spawnStoreThread(options.entry, {
      workerData: { ...options.data, store: link.port2 } satisfies TeamWorkerData,
      transferList: [link.port2],
    })
    this.#worker.unref()
    this.#worker.on('message', (raw: unknown) => this.#receive(raw))
    this.#worker.on('error', (error) => {
      options.onStatus({
        state: 'offline',
        unsent: 0,
        setAside: 0,
        error: { code: 'team_server', message: `The team worker stopped: ${error.message}` },
        retrying: false,
      })
      options.onFailed?.()
    })
  }

  /** Marks were queued: push now. */
  nudge(): void {
    if (!this.#closing) this.#post({ type: 'nudge' })
  }

  /** After the cause of an error was fixed: try again now. */
  retry(): void {
    if (!this.#closing) this.#post({ type: 'retry' })
  }

  /** This member opened a record (null: closed it). */
  setPresence(at: PresenceAt | null): void {
    if (!this.#closing) this.#post({ type: 'presence', at })
  }

  /** Stops the loop (closing its connection) and the thread. */
  close(): Promise<void> {
    this.#closing ??= stopThread(this.#worker, { type: 'stop' } satisfies ToTeamWorker)
    return this.#closing
  }

  #receive(raw: unknown): void {
    const message = readFromTeamWorker(raw)
    if (message === null) return
    if (message.type === 'status') {
      // Built by the worker from a TeamStatus; cloning keeps its shape.
      this.#options.onStatus(message.status as unknown as TeamStatus)
      return
    }
    if (message.type === 'presence') {
      this.#options.onPresence?.(message.present)
      return
    }
    // Built by the worker from the owner's answer to `teamApplyPulled`; cloning keeps its shape.
    this.#options.onApplied(message.applied as unknown as PulledApplied)
  }

  #post(message: ToTeamWorker): void {
    if (this.#closing) return
    this.#worker.postMessage(message)
  }
}

/** The status when the profile has a team server but no password is stored for it (counted after). */
export function noPasswordStatus(): TeamStatus {
  const error: TeamErrorData = {
    code: 'team_auth',
    message: 'No team server password is stored for this profile. Enter it under Accounts.',
    reason: 'team_no_password',
  }
  return { state: 'offline', unsent: 0, setAside: 0, error, retrying: false }
}
