import { connect } from 'node:net'
import type { TeamErrorData } from '../../shared/errors'
import type { TeamServerConfig } from './connection'
import { teamEventDraftSchema } from './events'
import type { SetAsideEntry, TeamEventDraft } from '../store/team-events'
import type { TeamLocalSide } from './local-side'
import {
  openTeamSession,
  type PresenceAt,
  type PresentMember,
  type TeamServerInfo,
  type TeamSession,
} from './session'
import { isContentRefusal, isRetryable, toTeamError, type TeamError } from './team-error'

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

/** The counts every status carries. */
interface Counts {
  /** Events waiting to be sent. */
  readonly unsent: number
  /** Events the server (or the client's own check) refused for their content, kept for a person. */
  readonly setAside: number
}

/** What the status bar shows. */
export type TeamStatus =
  | ({ readonly state: 'connecting' } & Counts)
  | ({ readonly state: 'connected'; readonly info: TeamServerInfo } & Counts)
  | ({
      readonly state: 'offline'
      readonly error: TeamErrorData
      /** True while the loop retries by itself; false when a person must act first. */
      readonly retrying: boolean
    } & Counts)
  | ({ readonly state: 'stopped' } & Counts)

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
  /** While offline with events waiting: how often the server is probed; default 1 s. */
  readonly probeMs?: number
  /** The random source of the backoff jitter (tests pass a seeded one). */
  readonly random?: () => number
  /** Opens a session; tests may wrap it. */
  readonly open?: typeof openTeamSession
  /** Whether the server answers at all (a TCP connect); tests may replace it. */
  readonly probe?: (config: TeamServerConfig) => Promise<boolean>
  /** Called when the other members present (who has which record open) change. */
  readonly onPresence?: (present: readonly PresentMember[]) => void
  /** Presence timing (docs/team.md "Presence"); tests shorten it. */
  readonly presence?: Partial<PresenceTiming>
}

/** How presence is kept fresh and how old a heartbeat may be. */
export interface PresenceTiming {
  /** How often this member's open record is refreshed on the server; default 10 s. */
  readonly heartbeatMs: number
  /** A member whose heartbeat is older than this counts as gone; default 20 s. */
  readonly maxAgeMs: number
  /** How often the others' presence is read without a notification; default 5 s. */
  readonly readMs: number
}

const PRESENCE_TIMING: PresenceTiming = { heartbeatMs: 10_000, maxAgeMs: 20_000, readMs: 5_000 }

/** Why the loop's wait ended early. */
type Wake = 'nudge' | 'stop' | 'lost' | 'retry' | 'presence'

/** See the file comment. */
export class TeamSync {
  readonly #options: TeamSyncOptions
  #status: TeamStatus = { state: 'stopped', unsent: 0, setAside: 0 }
  #session: TeamSession | null = null
  #running: Promise<void> | null = null
  #stopped = true
  #wake: ((why: Wake) => void) | null = null
  #pending = false
  #retryNow = false
  #attempt = 0
  #lost: TeamError | null = null
  #generation = 0
  /** The record this member has open (what the server should hold), and what it holds. */
  #presenceWanted: PresenceAt | null = null
  #presenceSent: { readonly at: PresenceAt | null; readonly when: number } | null = null
  /** A presence notification arrived: read the others again. */
  #presenceDirty = true
  #presenceReadAt = 0
  #present: readonly PresentMember[] = []
  readonly #timing: PresenceTiming

  constructor(options: TeamSyncOptions) {
    this.#options = options
    this.#timing = { ...PRESENCE_TIMING, ...options.presence }
  }

  /** The other members present, as last read (empty while not connected). */
  get present(): readonly PresentMember[] {
    return this.#present
  }

  /**
   * This member opened a record (or closed it: null). Sent at once while
   * connected; kept for the next connection otherwise, and never queued in
   * the outbox: presence is only ever the current state.
   */
  setPresence(at: PresenceAt | null): void {
    this.#presenceWanted = at
    this.#wake?.('presence')
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

  /**
   * The local side queued events: push (and pull) now rather than at the next
   * poll. While the server is away it only updates the counts (the probe
   * notices the server's return; a mark does not cost a failed connect), and
   * while the loop is stopped it updates them too.
   */
  nudge(): void {
    this.#pending = true
    if (this.#wake) this.#wake('nudge')
    else if (!this.#running) void this.#recount()
  }

  /** After a person fixed the cause of an error that stopped the loop: try again now. */
  retry(): void {
    if (this.#running) {
      this.#retryNow = true
      this.#wake?.('retry')
    } else this.start()
  }

  /** Stops the loop and closes the connection; resolves when both are done. */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#wake?.('stop')
    await this.#running
    await this.#dropSession()
    this.#emit({ state: 'stopped', ...(await this.#counts()) })
  }

  async #loop(): Promise<void> {
    const { pollMs = 60_000 } = this.#options
    while (!this.#stopped) {
      try {
        if (!this.#session) {
          this.#emit({ state: 'connecting', ...(await this.#counts()) })
          this.#session = await this.#connect()
          this.#attempt = 0
        }
        this.#pending = false
        await this.#pushAll(this.#session)
        await this.#pullAll(this.#session)
        this.#emit({ state: 'connected', info: this.#session.info, ...(await this.#counts()) })
        if (!this.#pending) await this.#idle(this.#session, pollMs)
      } catch (error) {
        const teamError = toTeamError(error)
        await this.#dropSession()
        if (this.#stopped) break
        const retrying = isRetryable(teamError)
        const offline = { state: 'offline', error: teamError.toData(), retrying } as const
        this.#emit({ ...offline, ...(await this.#counts()) })
        if (!retrying) return
        await this.#waitOffline(offline)
      }
    }
  }

  /**
   * Waits out the backoff after a failed connect. A nudge (a mark made
   * offline) updates the counts and does not end the wait, so marks never
   * grow the backoff. While events wait and the server was not there, a
   * cheap probe (a TCP connect) every {@link TeamSyncOptions.probeMs} ends
   * the wait as soon as it answers again.
   */
  async #waitOffline(
    offline: Omit<Extract<TeamStatus, { state: 'offline' }>, keyof Counts>,
  ): Promise<void> {
    const { probeMs = 1000, probe = probeServer, config } = this.#options
    const until = Date.now() + this.#backoff()
    const probing = offline.error.code === 'team_unreachable'
    let counts: Counts = this.#status
    while (!this.#stopped && !this.#retryNow) {
      if (this.#pending) {
        this.#pending = false
        counts = await this.#counts()
        if (!this.#stopped) this.#emit({ ...offline, ...counts })
      }
      const left = until - Date.now()
      if (left <= 0) break
      const probeNow = probing && counts.unsent > 0
      const why = await this.#sleep(probeNow ? Math.min(probeMs, left) : left)
      if (why === 'stop' || why === 'retry') break
      if (why === 'nudge' || why === 'lost' || why === 'presence') continue
      if (probeNow && Date.now() < until && (await probe(config).catch(() => false))) break
    }
    this.#retryNow = false
  }

  async #connect(): Promise<TeamSession> {
    const { config, partnerId, open = openTeamSession } = this.#options
    // A generation number keeps a late "lost" from a closed connection away from the new one.
    const generation = ++this.#generation
    this.#lost = null
    const session = await open(config, partnerId, (error) => {
      if (generation !== this.#generation) return
      this.#lost = error
      this.#wake?.('lost')
    })
    try {
      // Listen first, then pull: a notification after LISTEN wakes the loop,
      // and everything committed before it is in the pull that follows.
      await session.listen(
        () => this.nudge(),
        () => {
          this.#presenceDirty = true
          this.#wake?.('presence')
        },
      )
      this.#throwIfLost()
      // A new session: this member's presence is sent again, the others' read again.
      this.#presenceSent = null
      this.#presenceDirty = true
      return session
    } catch (error) {
      await session.close()
      throw error
    }
  }

  /**
   * Pushes the outbox in batches. A draft that fails the client's own check
   * is set aside before anything leaves; a batch the server refuses for its
   * content (SQLSTATE class 22, 23 or 54) is split in halves until the
   * refused events are found, which are set aside with the server's reason
   * while the others go on, in their order.
   */
  async #pushAll(session: TeamSession): Promise<void> {
    const { local, pushBatch = 500 } = this.#options
    for (;;) {
      this.#throwIfLost()
      const drafts = await local.readOutbox(pushBatch)
      if (drafts.length === 0) return
      const good: TeamEventDraft[] = []
      const bad: SetAsideEntry[] = []
      for (const draft of drafts) {
        const problem = draftProblem(draft)
        if (problem === null) good.push(draft)
        else bad.push({ id: draft.id, reason: problem, sqlState: null })
      }
      if (bad.length > 0) await local.setAside(bad)
      await this.#pushSplitting(session, good)
      if (drafts.length < pushBatch) return
    }
  }

  async #pushSplitting(session: TeamSession, drafts: readonly TeamEventDraft[]): Promise<void> {
    if (drafts.length === 0) return
    const { local } = this.#options
    try {
      await session.push(drafts)
    } catch (error) {
      const refused = toTeamError(error)
      if (!isContentRefusal(refused)) throw refused
      if (drafts.length === 1) {
        await local.setAside([
          { id: drafts[0]!.id, reason: refusalReason(refused), sqlState: refused.sqlState ?? null },
        ])
        return
      }
      const half = Math.ceil(drafts.length / 2)
      await this.#pushSplitting(session, drafts.slice(0, half))
      await this.#pushSplitting(session, drafts.slice(half))
      return
    }
    await local.ackOutbox(drafts.map((draft) => draft.id))
  }

  async #pullAll(session: TeamSession): Promise<void> {
    const { local, pullPage = 1000 } = this.#options
    let after = await local.lastSeq()
    // Nothing pulled yet: this machine catches up on the history (old mentions notify nobody).
    const catchingUp = after === 0
    for (;;) {
      this.#throwIfLost()
      const page = await session.pull(after, pullPage)
      if (page.events.length > 0) {
        await local.applyPulled(page.events, page.lastSeq, {
          catchingUp,
          displayName: session.info.displayName,
        })
      }
      after = page.lastSeq
      if (!page.more) return
    }
  }

  /**
   * Waits for the next push and pull (a notification, a nudge, the poll)
   * while keeping presence current: this member's open record sent when it
   * changes and refreshed every heartbeat, the others' read on a presence
   * notification and every {@link PresenceTiming.readMs} (a killed app or a
   * lost machine sends no notification; its row simply stops counting).
   */
  async #idle(session: TeamSession, pollMs: number): Promise<void> {
    const until = Date.now() + pollMs
    for (;;) {
      this.#throwIfLost()
      await this.#syncPresence(session)
      if (this.#pending || this.#stopped || this.#retryNow) return
      const left = until - Date.now()
      if (left <= 0) return
      const sent = this.#presenceSent
      const nextBeat =
        sent?.at && this.#presenceWanted ? sent.when + this.#timing.heartbeatMs : Infinity
      const nextRead = this.#presenceReadAt + this.#timing.readMs
      const wait = Math.max(1, Math.min(left, nextBeat - Date.now(), nextRead - Date.now()))
      const why = await this.#sleep(wait)
      if (why !== undefined && why !== 'presence') return
    }
  }

  async #syncPresence(session: TeamSession): Promise<void> {
    const wanted = this.#presenceWanted
    const sent = this.#presenceSent
    const now = Date.now()
    const changed = !sent || !samePresence(sent.at, wanted)
    const beat = wanted !== null && sent !== null && now - sent.when >= this.#timing.heartbeatMs
    if (changed || beat) {
      await session.setPresence(wanted)
      this.#presenceSent = { at: wanted, when: now }
    }
    if (this.#presenceDirty || now - this.#presenceReadAt >= this.#timing.readMs) {
      this.#presenceDirty = false
      this.#presenceReadAt = now
      this.#showPresence(await session.readPresence(this.#timing.maxAgeMs))
    }
  }

  #showPresence(present: readonly PresentMember[]): void {
    const key = (list: readonly PresentMember[]): string =>
      list.map((entry) => `${entry.role}\u0000${entry.resource}\u0000${entry.idx}`).join('\n')
    if (key(present) === key(this.#present)) return
    this.#present = present
    this.#options.onPresence?.(present)
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

  /** Waits `ms`, or less when woken; answers why it ended (`undefined`: the time ran out). */
  #sleep(ms: number): Promise<Wake | undefined> {
    if (this.#stopped) return Promise.resolve('stop')
    return new Promise<Wake | undefined>((resolve) => {
      const timer = setTimeout(() => done(undefined), ms)
      this.#wake = done
      function done(why: Wake | undefined): void {
        clearTimeout(timer)
        resolve(why)
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
    // Closing the session ends this member's presence on the server (its backend is gone).
    if (session && this.#stopped && this.#presenceSent?.at) {
      await session.setPresence(null).catch(() => undefined)
    }
    this.#presenceSent = null
    await session?.close()
    // Without a connection nobody is known to be present.
    this.#showPresence([])
  }

  async #counts(): Promise<Counts> {
    return this.#options.local
      .countOutbox()
      .catch(() => ({ unsent: this.#status.unsent, setAside: this.#status.setAside }))
  }

  /** Events were queued while the loop is stopped: the same status, the counts updated. */
  async #recount(): Promise<void> {
    const counts = await this.#counts()
    if (this.#running) return
    this.#emit({ ...this.#status, ...counts })
  }

  #emit(status: TeamStatus): void {
    this.#status = status
    this.#options.onStatus?.(status)
  }
}

function samePresence(a: PresenceAt | null, b: PresenceAt | null): boolean {
  return a === b || (a !== null && b !== null && a.resource === b.resource && a.idx === b.idx)
}

/** Why a draft fails the client's own check, or null. */
function draftProblem(draft: TeamEventDraft): string | null {
  const parsed = teamEventDraftSchema.safeParse(draft)
  if (parsed.success) return null
  const issue = parsed.error.issues[0]
  const path = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  return `The app refused to send it: ${path}${issue?.message ?? 'malformed'}.`
}

/** The server's own words, which name what it refused (never a password). */
function refusalReason(error: TeamError): string {
  const cause = error.cause instanceof Error ? error.cause.message : ''
  return cause === '' ? error.message : `${error.message} (${cause})`
}

/**
 * Whether PostgreSQL answers at all, without logging in: a TCP connect and
 * the 8-byte SSLRequest every client starts with, answered by one byte
 * (`S` or `N`) from a running server; then the socket closes. Cheap enough to
 * try every second, and a relay that accepts and drops answers false.
 */
function probeServer(config: TeamServerConfig): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: config.host, port: config.port })
    socket.setTimeout(Math.min(config.connectTimeoutMs ?? 2000, 2000))
    const finish = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => {
      const request = Buffer.alloc(8)
      request.writeInt32BE(8, 0)
      request.writeInt32BE(80877103, 4)
      socket.write(request)
    })
    socket.once('data', (answer) => finish(answer[0] === 0x53 || answer[0] === 0x4e))
    socket.once('timeout', () => finish(false))
    socket.once('error', () => finish(false))
    socket.once('close', () => finish(false))
  })
}
