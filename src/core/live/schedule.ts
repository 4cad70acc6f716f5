import { AppError, isAppError } from '../app-error'
import type { LiveOutcome, LiveState, LiveStatus, LiveStep } from '../../shared/live'
import { LIVE_STEPS } from '../../shared/live'

/**
 * The live schedule: keeps the active account's store current between the
 * syncs staff ask for (docs/live.md). It decides when each step runs; the
 * steps themselves (`engine-steps.ts`) talk to the service and the store.
 * Time comes from an injected clock, so tests drive it without waiting.
 */

/** The clock the schedule runs on: real timers in the app, a fake one in tests. */
export interface LiveClock {
  now(): number
  /** Calls `fire` after `ms`; the answer cancels it. */
  after(ms: number, fire: () => void): () => void
}

/** Real time. Timers do not hold the process open. */
const realLiveClock: LiveClock = {
  now: () => Date.now(),
  after(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, ms))
    timer.unref()
    return () => clearTimeout(timer)
  },
}

/** What one step did. */
export interface StepResult {
  readonly requests: number
  /** Records found new or changed. */
  readonly changed: number
  /** The first failure; a `cancelled` one (staff's Sync went first, sleep) is not a failure. */
  readonly error?: AppError
}

/** The steps, one call per step for every list (`engine-steps.ts`). */
export interface LiveSteps {
  run(step: LiveStep, signal: AbortSignal): Promise<StepResult>
}

/** The settings the schedule reads before each run. */
interface LiveSettings {
  readonly intervalMinutes: number
}

/** Options of {@link LiveSchedule}. */
export interface LiveScheduleOptions {
  readonly steps: LiveSteps
  readonly settings: () => LiveSettings
  readonly clock?: LiveClock
  /** The poll interval in ms, overriding the setting (tests, the bench and the e2e host). */
  readonly intervalMs?: number
  /** Every change of the status (the app sends it as the `live.status` event). */
  readonly onStatus?: (status: LiveStatus) => void
  /** After every run that synced something or failed (notifications read it). */
  readonly onRun?: (run: { readonly outcome: LiveOutcome; readonly status: LiveStatus }) => void
  /** What the host said of sleep and the network (the background accounts follow it). */
  readonly onHost?: (signal: { readonly asleep?: boolean; readonly online?: boolean }) => void
}

/** Every how often a step is due, in ms (the poll's is the interval setting). */
const STEP_PERIOD_MS: Readonly<Record<Exclude<LiveStep, 'poll'>, number>> = {
  moving: 15 * 60_000,
  window: 60 * 60_000,
  // Checked at every poll; the step itself decides whether a slice of the full pass is due.
  full: 0,
}

/**
 * The longest wait after failures.
 * @internal
 */
export const MAX_BACKOFF_MS = 30 * 60_000

/** Errors that stop the schedule until the account is fixed: a wrong key (401) or partner (403). */
const CREDENTIAL_ERRORS = new Set(['auth', 'forbidden'])

/** Decides when each step runs; one run at a time. */
export class LiveSchedule {
  readonly #options: LiveScheduleOptions
  readonly #clock: LiveClock
  /** When each step is due next (ms). */
  readonly #due = new Map<LiveStep, number>()
  #cancelTimer: (() => void) | null = null
  #running: Promise<void> | null = null
  #runController: AbortController | null = null
  #again = false
  #started = false
  #pausedUntil: number | null = null
  #backoffUntil: number | null = null
  #failures = 0
  #failingSince: number | null = null
  #stopped: AppError | null = null
  #asleep = false
  #online = true
  #step: LiveStep | null = null
  #lastOutcome: LiveOutcome | null = null

  constructor(options: LiveScheduleOptions) {
    this.#options = options
    this.#clock = options.clock ?? realLiveClock
  }

  /** Starts polling: every step counts as done now (the sync at start has just read the window). */
  start(): void {
    if (this.#started) return
    this.#started = true
    const now = this.#clock.now()
    this.#due.set('poll', now + this.#intervalMs())
    this.#due.set('moving', now + STEP_PERIOD_MS.moving)
    this.#due.set('window', now + STEP_PERIOD_MS.window)
    this.#due.set('full', now + this.#intervalMs())
    this.#arm()
  }

  /** Stops for good (the profile closes): the running step is cancelled. */
  async stop(): Promise<void> {
    this.#started = false
    this.#disarm()
    this.#runController?.abort(new AppError('cancelled', 'The schedule stopped.'))
    await this.#running
    this.#emit()
  }

  /** Resolves once no run is going (tests). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running
  }

  /** No background sync until `minutes` from now. */
  pause(minutes: number): LiveStatus {
    this.#pausedUntil = this.#clock.now() + minutes * 60_000
    this.#runController?.abort(new AppError('cancelled', 'Paused by staff.'))
    this.#arm()
    return this.status()
  }

  /** Ends a pause (or a backoff) and polls at once. */
  resume(): LiveStatus {
    this.#pausedUntil = null
    this.#backoffUntil = null
    this.#catchUp()
    return this.status()
  }

  /** The account was fixed (saved, its key set or the partner changed): a credential stop ends. */
  credentialsChanged(): void {
    if (!this.#stopped) return
    this.#stopped = null
    this.#failures = 0
    this.#catchUp()
  }

  /** The computer goes to sleep (`true`) or wakes (`false`): asleep nothing runs; awake it catches up. */
  setAsleep(asleep: boolean): void {
    this.#options.onHost?.({ asleep })
    if (asleep === this.#asleep) return
    this.#asleep = asleep
    if (asleep) {
      this.#runController?.abort(new AppError('cancelled', 'The computer went to sleep.'))
      this.#arm()
    } else {
      this.#catchUp()
    }
  }

  /** The network went away (`false`) or came back (`true`): back, it catches up at once. */
  setOnline(online: boolean): void {
    this.#options.onHost?.({ online })
    if (online === this.#online) return
    this.#online = online
    if (online) this.#catchUp()
    else this.#arm()
  }

  /** The interval setting changed: the next poll moves to its new time. */
  settingsChanged(): void {
    const last = (this.#due.get('poll') ?? this.#clock.now()) - this.#intervalMs()
    this.#due.set('poll', Math.min(this.#due.get('poll') ?? Infinity, last + this.#intervalMs()))
    this.#arm()
  }

  status(): LiveStatus {
    const iso = (ms: number | null): string | null =>
      ms === null ? null : new Date(ms).toISOString()
    const state = this.#state()
    return {
      state,
      intervalMinutes: this.#options.settings().intervalMinutes,
      nextPollAt: state === 'running' ? iso(this.#due.get('poll') ?? null) : null,
      pausedUntil: iso(this.#pausedUntil),
      backoffUntil: state === 'backoff' ? iso(this.#backoffUntil) : null,
      failingSince: iso(this.#failingSince),
      step: this.#step,
      lastOutcome: this.#lastOutcome,
    }
  }

  /** Runs every due step now (the timer calls it; tests too). */
  tick(): Promise<void> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    this.#running = this.#run().finally(() => {
      this.#running = null
      if (this.#again) {
        this.#again = false
        void this.tick()
      } else {
        this.#arm()
      }
    })
    return this.#running
  }

  #state(): LiveState {
    const now = this.#clock.now()
    if (!this.#started) return 'off'
    if (this.#stopped) return 'stopped'
    if (this.#asleep) return 'asleep'
    if (!this.#online) return 'offline'
    if (this.#pausedUntil !== null && this.#pausedUntil > now) return 'paused'
    if (this.#backoffUntil !== null && this.#backoffUntil > now) return 'backoff'
    return 'running'
  }

  #intervalMs(): number {
    return this.#options.intervalMs ?? this.#options.settings().intervalMinutes * 60_000
  }

  /** Polls now (a window shown again): two cheap requests a list. */
  pollNow(): void {
    this.#due.set('poll', Math.min(this.#due.get('poll') ?? Infinity, this.#clock.now()))
    this.#arm()
  }

  /** Every step due now (sleep, network back, resume): the poll and the 15-minute step at once. */
  #catchUp(): void {
    const now = this.#clock.now()
    this.#due.set('poll', Math.min(this.#due.get('poll') ?? now, now))
    this.#due.set('moving', Math.min(this.#due.get('moving') ?? now, now))
    this.#arm()
  }

  async #run(): Promise<void> {
    if (this.#state() !== 'running') return
    const now = this.#clock.now()
    const due = LIVE_STEPS.filter((step) => (this.#due.get(step) ?? Infinity) <= now)
    for (const step of due) {
      if (this.#state() !== 'running') return
      const controller = new AbortController()
      this.#runController = controller
      this.#step = step
      this.#emit()
      let result: StepResult
      try {
        result = await this.#options.steps.run(step, controller.signal)
      } catch (error) {
        result = { requests: 0, changed: 0, error: asAppError(error) }
      } finally {
        this.#runController = null
        this.#step = null
      }
      const failed = this.#record(step, result)
      if (failed) return
    }
  }

  /** Keeps what a step did; answers true when the run stops here (a failure). */
  #record(step: LiveStep, result: StepResult): boolean {
    const now = this.#clock.now()
    const error = result.error
    if (error?.code === 'cancelled') {
      // Staff's Sync went first, a pause or sleep: the step stays due, nothing failed.
      this.#emit()
      return true
    }
    const outcome: LiveOutcome = {
      at: new Date(now).toISOString(),
      step,
      ok: !error,
      requests: result.requests,
      changed: result.changed,
      ...(error ? { error: error.toData() } : {}),
    }
    // A step with nothing to do (no full pass due) leaves the last outcome as it was.
    if (error || result.requests > 0) this.#lastOutcome = outcome
    if (!error) {
      this.#failures = 0
      this.#failingSince = null
      this.#backoffUntil = null
      const period =
        step === 'poll' || STEP_PERIOD_MS[step] === 0 ? this.#intervalMs() : STEP_PERIOD_MS[step]
      this.#due.set(step, now + period)
    } else if (CREDENTIAL_ERRORS.has(error.code)) {
      this.#stopped = error
    } else {
      this.#failures += 1
      this.#failingSince ??= now
      const wait = Math.min(MAX_BACKOFF_MS, this.#intervalMs() * 2 ** (this.#failures - 1))
      this.#backoffUntil = now + wait
    }
    const status = this.status()
    if (error || result.changed > 0) this.#options.onRun?.({ outcome, status })
    this.#options.onStatus?.(status)
    return error !== undefined
  }

  #emit(): void {
    this.#options.onStatus?.(this.status())
  }

  #disarm(): void {
    this.#cancelTimer?.()
    this.#cancelTimer = null
  }

  /** Sets the one timer to the next moment something can run. */
  #arm(): void {
    this.#disarm()
    if (!this.#started || this.#running) {
      this.#emit()
      return
    }
    const state = this.#state()
    const now = this.#clock.now()
    let at: number | null
    if (state === 'paused') at = this.#pausedUntil
    else if (state === 'backoff') at = this.#backoffUntil
    else if (state === 'running')
      at = Math.min(...LIVE_STEPS.map((s) => this.#due.get(s) ?? Infinity))
    else at = null
    if (at !== null && Number.isFinite(at)) {
      this.#cancelTimer = this.#clock.after(Math.max(0, at - now), () => {
        this.#cancelTimer = null
        void this.tick()
      })
    }
    this.#emit()
  }
}

function asAppError(error: unknown): AppError {
  return isAppError(error)
    ? error
    : new AppError('internal', 'A background sync failed unexpectedly.', { cause: error })
}
