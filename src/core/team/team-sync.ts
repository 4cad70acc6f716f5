import type { TeamErrorData } from '../../shared/errors'
import type { TeamServerConfig } from './connection'
import type { TeamLocalSide } from './local-side'
import { openTeamSession, type TeamServerInfo, type TeamSession } from './session'
import { isRetryable, toTeamError, type TeamError } from './team-error'

/**
 * The team worker's loop for one partner profile: connect (checking the
 * schema), LISTEN, then push the outbox and pull everything after the last
 * sequence number; wait for a notification, a nudge from the local side or
 * the periodic poll, and do it again. A lost connection or a server that is
 * not there is retried with full-jitter backoff; an error a person must fix
 * (password, TLS, schema version, membership) stops the loop until
 * {@link TeamSync.retry}. The local side keeps working throughout: nothing is
 * lost while offline, the outbox simply waits.
 */

/** What the status bar shows. */
export type TeamStatus =
  | { readonly state: 'connecting'; readonly unsent: number }
  | { readonly state: 'connected'; readonly unsent: number; readonly info: TeamServerInfo }
  | {
      readonly state: 'offline'
      readonly unsent: number
      readonly error: TeamErrorData
      /** True while the loop retries by itself; false when a person must act first. */
      readonly retrying: boolean
    }
  | { readonly state: 'stopped'; readonly unsent: number }

/** Options of {@link TeamSync}. */
export interface TeamSyncOptions {
  readonly config: TeamServerConfig
  readonly partnerId: string
  readonly local: TeamLocalSide
  /** Called on every status change. */
  readonly onStatus?: (status: TeamStatus) => void
  /** Drafts per push transaction; default 500. */
  readonly pushBatch?: number
  /** Events per pulled page; default 1000. */
  readonly pullPage?: number
  /** First backoff delay and its cap, in ms; default 1 s and 60 s. */
  readonly backoffMs?: { readonly base: number; readonly max: number }
  /** Pull even without a notification this often (a NOTIFY sent while reconnecting is lost); default 60 s. */
  readonly pollMs?: number
  /** The random source of the backoff jitter (tests pass a seeded one). */
  readonly random?: () => number
  /** Opens a session; tests may wrap it. */
  readonly open?: typeof openTeamSession
}

/** See the file comment. */
export class TeamSync {
  readonly #options: TeamSyncOptions
  #status: TeamStatus = { state: 'stopped', unsent: 0 }
  #session: TeamSession | null = null
  #running: Promise<void> | null = null
  #stopped = true
  #wake: (() => void) | null = null
  #pending = false
  #attempt = 0

  constructor(options: TeamSyncOptions) {
    this.#options = options
  }

  /** The latest status. */
  get status(): TeamStatus {
    return this.#status
  }

  /** Starts the loop (no-op while it runs). */
  start(): void {
    if (this.#running) return
    this.#stopped = false
    this.#attempt = 0
    this.#running = this.#loop().finally(() => {
      this.#running = null
    })
  }

  /** The local side queued events: push (and pull) now rather than at the next poll. */
  nudge(): void {
    this.#pending = true
    this.#wake?.()
  }

  /** After a person fixed the cause of an error that stopped the loop: try again now. */
  retry(): void {
    if (this.#running) this.nudge()
    else this.start()
  }

  /** Stops the loop and closes the connection; resolves when both are done. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.()
    await this.#running
    await this.#dropSession()
    this.#emit({ state: 'stopped', unsent: await this.#unsent() })
  }

  async #loop(): Promise<void> {
    const { local, pollMs = 60_000 } = this.#options
    while (!this.#stopped) {
      try {
        if (!this.#session) {
          this.#emit({ state: 'connecting', unsent: await local.countOutbox() })
          this.#session = await this.#connect()
          this.#attempt = 0
        }
        this.#pending = false
        await this.#pushAll(this.#session)
        await this.#pullAll(this.#session)
        this.#emit({
          state: 'connected',
          unsent: await local.countOutbox(),
          info: this.#session.info,
        })
        if (!this.#pending) await this.#sleep(pollMs)
      } catch (error) {
        const teamError = toTeamError(error)
        await this.#dropSession()
        if (this.#stopped) break
        const retrying = isRetryable(teamError)
        this.#emit({
          state: 'offline',
          unsent: await this.#unsent(),
          error: teamError.toData(),
          retrying,
        })
        if (!retrying) return
        await this.#sleep(this.#backoff())
      }
    }
  }

  async #connect(): Promise<TeamSession> {
    const { config, partnerId, open = openTeamSession } = this.#options
    // A generation number keeps a late "lost" from a closed connection away from the new one.
    const generation = ++this.#generation
    this.#lost = null
    const session = await open(config, partnerId, (error) => {
      if (generation !== this.#generation) return
      this.#lost = error
      this.#wake?.()
    })
    try {
      // Listen first, then pull: a notification after LISTEN wakes the loop,
      // and everything committed before it is in the pull that follows.
      await session.listen(() => this.nudge())
      this.#throwIfLost()
      return session
    } catch (error) {
      await session.close()
      throw error
    }
  }

  #lost: TeamError | null = null
  #generation = 0

  async #pushAll(session: TeamSession): Promise<void> {
    const { local, pushBatch = 500 } = this.#options
    for (;;) {
      this.#throwIfLost()
      const drafts = await local.readOutbox(pushBatch)
      if (drafts.length === 0) return
      await session.push(drafts)
      await local.ackOutbox(drafts.map((draft) => draft.id))
      if (drafts.length < pushBatch) return
    }
  }

  async #pullAll(session: TeamSession): Promise<void> {
    const { local, pullPage = 1000 } = this.#options
    let after = await local.lastSeq()
    for (;;) {
      this.#throwIfLost()
      const page = await session.pull(after, pullPage)
      if (page.events.length > 0) await local.applyPulled(page.events, page.lastSeq)
      after = page.lastSeq
      if (!page.more) return
    }
  }

  #throwIfLost(): void {
    if (this.#lost) throw this.#lost
  }

  /** Full jitter: a random delay up to base·2^attempt, capped. */
  #backoff(): number {
    const { backoffMs = { base: 1000, max: 60_000 }, random = Math.random } = this.#options
    const ceiling = Math.min(backoffMs.max, backoffMs.base * 2 ** this.#attempt)
    this.#attempt += 1
    return Math.max(1, Math.round(random() * ceiling))
  }

  /** Waits `ms`, or less when woken (notification, nudge, lost connection, stop). */
  #sleep(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      this.#wake = done
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
    }).finally(() => {
      this.#wake = null
    })
  }

  async #dropSession(): Promise<void> {
    const session = this.#session
    this.#session = null
    this.#generation += 1
    this.#lost = null
    await session?.close()
  }

  async #unsent(): Promise<number> {
    return this.#options.local.countOutbox().catch(() => this.#status.unsent)
  }

  #emit(status: TeamStatus): void {
    this.#status = status
    this.#options.onStatus?.(status)
  }
}
