import { AppError, isAppError } from '../app-error'
import type { LiveAccountFailure, LiveAccountsStatus, LiveStatus } from '../../shared/live'
import type { LiveSchedule, LiveSteps } from './schedule'

/**
 * Every-account mode (settings `live.allAccounts`, docs/live.md "Every
 * account"): each saved account other than the active one that a sync could
 * run with is kept current by its own schedule, store and sync engine (a
 * background scope, `background-account.ts`). Here: which accounts have one,
 * whose turn it is, and what the status bar says of them.
 */

/** One account kept current in the background. */
export interface BackgroundScope {
  readonly id: string
  readonly name: string
  readonly live: LiveSchedule
  /** Stops its schedule and closes its threads (idempotent). */
  close(): Promise<void>
}

/** An account that can have a background scope: its id and what, changed, calls for a new one. */
interface BackgroundCandidate {
  readonly id: string
  /** Address, partner, zone, name and key: a scope opened for another one is reopened. */
  readonly fingerprint: string
}

/**
 * Whose turn it is: at most one background run at a time, and none while
 * the active account works (a Sync staff ask for, or a step of its
 * schedule). A background run that is going when the active account starts
 * gives way (it is cancelled; its step stays due and runs again after).
 */
export class BackgroundTurns {
  readonly #activeBusy: () => boolean
  #holder: AbortController | null = null
  #waiters: (() => void)[] = []

  /** `activeBusy`: the active account syncs or runs a step now. */
  constructor(activeBusy: () => boolean) {
    this.#activeBusy = activeBusy
  }

  /** True while a background run goes. */
  get running(): boolean {
    return this.#holder !== null
  }

  /** The steps of one background schedule, each run in its turn. */
  steps(inner: (signal: AbortSignal) => LiveSteps): LiveSteps {
    return {
      run: (step, signal) => this.#inTurn(signal, (turn) => inner(turn).run(step, turn)),
    }
  }

  /** The active account's work began or ended: a background run gives way, or a waiting one may go. */
  activeChanged(): void {
    if (this.#activeBusy()) {
      this.#holder?.abort(new AppError('cancelled', 'The active account goes first.'))
    } else {
      this.#wake()
    }
  }

  async #inTurn<T>(signal: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    while (this.#holder !== null || this.#activeBusy()) {
      if (signal.aborted) throw cancelled(signal)
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve)
        signal.addEventListener('abort', () => resolve(), { once: true })
      })
    }
    if (signal.aborted) throw cancelled(signal)
    const turn = new AbortController()
    const follow = (): void => turn.abort(signal.reason)
    signal.addEventListener('abort', follow, { once: true })
    this.#holder = turn
    try {
      return await task(turn.signal)
    } finally {
      signal.removeEventListener('abort', follow)
      this.#holder = null
      this.#wake()
    }
  }

  #wake(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }
}

function cancelled(signal: AbortSignal): AppError {
  return isAppError(signal.reason)
    ? signal.reason
    : new AppError('cancelled', 'The background sync was cancelled.')
}

/** Options of {@link BackgroundAccounts}. */
export interface BackgroundAccountsOptions {
  /** The setting `live.allAccounts`. */
  readonly enabled: () => boolean
  /** Accounts a sync could run with (stored key and secret, or the Sandbox). */
  readonly candidates: () => Promise<readonly BackgroundCandidate[]>
  /** The active account's id: it never has a background scope. */
  readonly activeId: () => string
  /** Opens the background scope of an account (its schedule not started). */
  readonly open: (id: string, onStatus: (status: LiveStatus) => void) => BackgroundScope | null
  /** Every change of what {@link BackgroundAccounts.status} answers (the `live.accounts` event). */
  readonly onStatus: (status: LiveAccountsStatus) => void
}

interface Kept {
  readonly scope: BackgroundScope
  readonly fingerprint: string
  status: LiveStatus | null
  /** A credential error stopped it: its threads are closed until the account changes. */
  stopped: boolean
}

/**
 * The background scopes. {@link reconcile}, {@link release} and {@link close}
 * open and close stores: the app calls them inside the profiles' lifecycle
 * queue, so one never runs beside a switch (never two owners of one file).
 */
export class BackgroundAccounts {
  readonly #options: BackgroundAccountsOptions
  readonly #kept = new Map<string, Kept>()
  #held = false
  #asleep = false
  #online = true
  #closed = false
  #lastFailure: LiveAccountFailure | null = null
  #lastSent = ''

  constructor(options: BackgroundAccountsOptions) {
    this.#options = options
  }

  /**
   * Opens a scope for every account that should have one and closes the
   * others: the setting off, the account removed, its credentials gone, or it
   * became the active one. A scope whose account changed (`fresh`, or a new
   * fingerprint) is closed and opened again.
   */
  async reconcile(fresh?: string): Promise<void> {
    if (this.#closed) return
    const activeId = this.#options.activeId()
    const wanted = this.#options.enabled()
      ? (await this.#options.candidates()).filter((candidate) => candidate.id !== activeId)
      : []
    const byId = new Map(wanted.map((candidate) => [candidate.id, candidate]))
    for (const [id, kept] of [...this.#kept]) {
      const candidate = byId.get(id)
      if (!candidate || candidate.fingerprint !== kept.fingerprint || id === fresh) {
        await this.release(id)
      }
    }
    for (const candidate of wanted) {
      if (this.#kept.has(candidate.id) || this.#closed) continue
      const id = candidate.id
      const scope = this.#options.open(id, (status) => this.#statusOf(id, status))
      if (!scope) continue
      this.#kept.set(id, {
        scope,
        fingerprint: candidate.fingerprint,
        status: null,
        stopped: false,
      })
      if (this.#asleep) scope.live.setAsleep(true)
      if (!this.#online) scope.live.setOnline(false)
      if (!this.#held) scope.live.start()
    }
    this.#send()
  }

  /** Closes the background scope of `id`, if it has one (it becomes active, or is removed). */
  async release(id: string): Promise<void> {
    const kept = this.#kept.get(id)
    if (!kept) return
    this.#kept.delete(id)
    if (this.#lastFailure?.profileId === id) this.#lastFailure = null
    await kept.scope.close()
    this.#send()
  }

  /**
   * The app locked (`true`) or unlocked: locked, every background schedule
   * stops (a run going is cancelled); unlocked, each starts again and polls
   * at once.
   */
  async setHeld(held: boolean): Promise<void> {
    if (held === this.#held) return
    this.#held = held
    const scopes = this.#going()
    if (held) {
      await Promise.all(scopes.map((scope) => scope.live.stop()))
    } else {
      for (const scope of scopes) {
        scope.live.start()
        scope.live.pollNow()
      }
    }
    this.#send()
  }

  /** The computer sleeps or wakes: as the active schedule. */
  setAsleep(asleep: boolean): void {
    this.#asleep = asleep
    for (const scope of this.#going()) scope.live.setAsleep(asleep)
  }

  /** The network went away or came back: as the active schedule. */
  setOnline(online: boolean): void {
    this.#online = online
    for (const scope of this.#going()) scope.live.setOnline(online)
  }

  /** The accounts with a background scope now (tests, the status bar). */
  get ids(): readonly string[] {
    return [...this.#kept.keys()]
  }

  /** The background scope of `id` (tests). */
  scopeOf(id: string): BackgroundScope | null {
    return this.#kept.get(id)?.scope ?? null
  }

  /** Resolves once no background run is going (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.#kept.values()].map((kept) => kept.scope.live.idle()))
  }

  status(): LiveAccountsStatus {
    const kept = [...this.#kept.values()]
    return {
      enabled: this.#options.enabled(),
      accounts: kept.filter((one) => !one.stopped).length,
      held: this.#held && kept.length > 0,
      lastFailure: this.#lastFailure,
    }
  }

  /** Closes every background scope (their cache files are about to be deleted); a reconcile opens them again. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.#kept.keys()].map((id) => this.release(id)))
  }

  /** Closes every background scope (the orderly quit); nothing opens after. */
  async close(): Promise<void> {
    this.#closed = true
    await this.releaseAll()
  }

  /** The scopes a credential error has not stopped. */
  #going(): BackgroundScope[] {
    return [...this.#kept.values()].filter((kept) => !kept.stopped).map((kept) => kept.scope)
  }

  #statusOf(id: string, status: LiveStatus): void {
    const kept = this.#kept.get(id)
    if (!kept) return
    kept.status = status
    if (status.state === 'stopped' && !kept.stopped) {
      // A wrong key or partner: the schedule has stopped; its threads close until the account changes.
      kept.stopped = true
      void kept.scope.close()
    }
    const outcome = status.lastOutcome
    if (outcome && !outcome.ok && outcome.error) {
      if (this.#lastFailure?.at !== outcome.at || this.#lastFailure.profileId !== id) {
        this.#lastFailure = {
          profileId: id,
          name: kept.scope.name,
          at: outcome.at,
          error: outcome.error,
          stopped: status.state === 'stopped',
        }
      }
    } else if (outcome?.ok && this.#lastFailure?.profileId === id) {
      this.#lastFailure = null
    }
    this.#send()
  }

  /** Tells the hosts when what the status bar shows changed. */
  #send(): void {
    const status = this.status()
    const text = JSON.stringify(status)
    if (text === this.#lastSent) return
    this.#lastSent = text
    this.#options.onStatus(status)
  }
}
