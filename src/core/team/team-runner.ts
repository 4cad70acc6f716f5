import type { ErrorData, TeamErrorData } from '../../shared/errors'
import type { TeamServerView } from '../../shared/profiles'
import { readErrorData } from '../plain-checks'
import type { TeamStatusView } from '../../shared/team'
import type { StoreClient, TeamLinkSink } from '../owner/store-owner'
import type { PulledApplied } from '../store/team-side'
import type { ThreadEntry } from '../threads/spawn'
import type { TeamServerConfig } from './connection'
import { noPasswordStatus, TeamThread } from './team-thread'
import type { PresenceTiming, TeamStatus } from './team-sync'
import type { PresenceAt } from './session'
import type { PresenceView } from '../../shared/team'

/** Options of {@link TeamRunner}. */
export interface TeamRunnerOptions {
  readonly profileId: string
  readonly partnerId: string
  readonly timeZone: string
  /** The profile's team server; null: none, and the runner does nothing. */
  readonly server: TeamServerView | null
  readonly store: StoreClient & TeamLinkSink
  /** The team worker's entry; absent in a host that cannot run one. */
  readonly entry: ThreadEntry | undefined
  /** The profile's team password from the keychain; null when none is stored. */
  readonly password: (profileId: string) => Promise<string | null>
  readonly onStatus: (status: TeamStatusView) => void
  readonly onApplied: (applied: PulledApplied) => void
  /** Backoff of the sync loop (tests shorten it). */
  readonly backoffMs?: { readonly base: number; readonly max: number }
  /** Presence timing (tests shorten it). */
  readonly presence?: Partial<PresenceTiming>
  /** The other members present changed (`presence.changed`). */
  readonly onPresence?: (present: PresenceView) => void
}

/** The `pg` config of a profile's team server with its password. */
export function teamServerConfig(server: TeamServerView, password: string): TeamServerConfig {
  return {
    host: server.host,
    port: server.port,
    database: server.database,
    user: server.role,
    password,
    tls: server.tls,
    caFile: server.caFile,
  }
}

/**
 * The team side of one open profile on the main thread: tells the store
 * whether it shares and as whom, starts the team worker when the profile has
 * a team server and a stored password, and keeps its latest status.
 */
export class TeamRunner {
  readonly #o: TeamRunnerOptions
  #thread: TeamThread | null = null
  /** The worker thread itself failed (not the sync): it counts no more. */
  #threadFailed = false
  #status: TeamStatusView
  #starting: Promise<void> | null = null
  #closed = false
  #presenceAt: PresenceAt | null = null
  #present: PresenceView = { present: [] }
  /** Display names of the team's members, from the last connect. */
  #names = new Map<string, string>()

  constructor(options: TeamRunnerOptions) {
    this.#o = options
    this.#status = options.server
      ? { state: 'connecting', unsent: 0, setAside: 0 }
      : { state: 'none' }
    const role = options.server?.role
    // Queued before any other request of the profile, so the first mark already knows.
    void options.store
      .call('teamConfigure', { identity: role ? { role, displayName: '' } : null })
      .catch(() => undefined)
    if (options.server) this.#starting = this.#start(options.server)
  }

  /** The latest status (`none` without a team server). */
  get status(): TeamStatusView {
    return this.#status
  }

  /**
   * A mark or an outcome was queued: push now. Without a running worker (no
   * password stored, the worker gone) the status's counts are updated here.
   */
  nudge(): void {
    if (this.#thread && !this.#threadFailed) this.#thread.nudge()
    else void this.recount()
  }

  /** Reads the outbox's counts again into the status (after a discard, say); answers the status. */
  async recount(): Promise<TeamStatusView> {
    if (this.#status.state === 'none') return this.#status
    let counts: { unsent: number; setAside: number }
    try {
      counts = await this.#o.store.call('teamCountOutbox')
    } catch {
      return this.#status
    }
    // A runner with a team server never goes back to `none`.
    if (this.#closed) return this.#status
    this.#status = { ...this.#status, ...counts }
    this.#o.onStatus(this.#status)
    return this.#status
  }

  /** Who else has which record open (empty without a team server or a connection). */
  get present(): PresenceView {
    return this.#present
  }

  /**
   * This member opened a record (null: closed it). Kept while the worker
   * restarts; nothing of it is stored (docs/team.md "Presence").
   */
  setPresence(at: PresenceAt | null): PresenceView {
    this.#presenceAt = at
    this.#thread?.setPresence(at)
    return this.#present
  }

  /** The password changed: reconnect with the new one. */
  async restart(): Promise<void> {
    if (!this.#o.server || this.#closed) return
    await this.#stopThread()
    this.#starting = this.#start(this.#o.server)
    await this.#starting
  }

  /** Stops the worker; the outbox stays in the store for the next start. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#stopThread()
  }

  async #stopThread(): Promise<void> {
    await this.#starting
    const thread = this.#thread
    this.#thread = null
    await thread?.close()
    this.#showPresence([])
  }

  #showPresence(
    present: readonly { role: string; resource: PresenceAt['resource']; idx: number }[],
  ): void {
    const next: PresenceView = {
      present: present.map((entry) => ({
        role: entry.role,
        name: this.#names.get(entry.role) || entry.role,
        resource: entry.resource,
        idx: entry.idx,
      })),
    }
    if (JSON.stringify(next) === JSON.stringify(this.#present)) return
    this.#present = next
    if (!this.#closed) this.#o.onPresence?.(next)
  }

  async #start(server: TeamServerView): Promise<void> {
    let password: string | null
    try {
      password = await this.#o.password(this.#o.profileId)
    } catch {
      password = null
    }
    if (this.#closed) return
    if (password === null || !this.#o.entry) {
      this.#emit(noPasswordStatus())
      await this.recount()
      return
    }
    this.#threadFailed = false
    this.#thread = new TeamThread({
      entry: this.#o.entry,
      store: this.#o.store,
      data: {
        config: { ...teamServerConfig(server, password) },
        partnerId: this.#o.partnerId,
        timeZone: this.#o.timeZone,
        ...(this.#o.backoffMs ? { backoffMs: this.#o.backoffMs } : {}),
        ...(this.#o.presence ? { presence: this.#o.presence } : {}),
      },
      onPresence: (present) => this.#showPresence(present),
      onStatus: (status) => this.#emit(status),
      onFailed: () => {
        this.#threadFailed = true
        void this.recount()
      },
      onApplied: this.#o.onApplied,
    })
    if (this.#presenceAt) this.#thread.setPresence(this.#presenceAt)
  }

  #emit(status: TeamStatus): void {
    if (this.#closed) return
    if (status.state === 'connected') {
      const { role, displayName, team, members } = status.info
      this.#names = new Map(members.map((member) => [member.role, member.displayName]))
      void this.#o.store
        .call('teamConfigure', { identity: { role, displayName }, members })
        .catch(() => undefined)
      const { unsent, setAside } = status
      this.#status = { state: 'connected', unsent, setAside, team, role, displayName }
    } else if (status.state === 'offline') {
      this.#status = {
        state: 'offline',
        unsent: status.unsent,
        setAside: status.setAside,
        error: shownError(status.error),
        retrying: status.retrying,
      }
    } else {
      this.#status = { state: status.state, unsent: status.unsent, setAside: status.setAside }
    }
    this.#o.onStatus(this.#status)
  }
}

/**
 * The part of the worker's error the window shows: its code and words, and
 * the reason and values the renderer words it with (nothing answers at an
 * address, …), when they are what the error data allows; never the SQLSTATE.
 */
function shownError(error: TeamErrorData): ErrorData {
  const { code, message } = error
  const checked = readErrorData({ code, message, reason: error.reason, values: error.values })
  if (checked?.reason === undefined) return { code, message }
  return {
    code,
    message,
    reason: checked.reason,
    ...(checked.values === undefined ? {} : { values: checked.values }),
  }
}
