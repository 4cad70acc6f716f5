import { z } from 'zod'
import type { ChannelName } from './channels'

/**
 * The app lock (docs/security.md "The app lock"): what the renderer, core and
 * the shell share about it. The decisions live in `src/core/lock/`.
 */

/** Shortest PIN or password, in characters. */
const MIN_PIN_CHARS = 4
/** Longest PIN or password, in characters. */
const MAX_PIN_CHARS = 128

/** A PIN or password as staff type it: any characters, 4 to 128 of them. */
export const pinSchema = z.string().min(MIN_PIN_CHARS).max(MAX_PIN_CHARS)

/** Idle time before the app locks, in seconds, when the settings have none (10 minutes). */
export const DEFAULT_LOCK_IDLE_SECONDS = 600
/** Shortest idle time the settings accept (0 turns locking on idle off). */
const MIN_LOCK_IDLE_SECONDS = 5
/** Longest idle time the settings accept (one day). */
const MAX_LOCK_IDLE_SECONDS = 86_400

/** Idle time in seconds: 0 (off) or {@link MIN_LOCK_IDLE_SECONDS} to {@link MAX_LOCK_IDLE_SECONDS}. */
export const lockIdleSecondsSchema = z
  .number()
  .int()
  .refine(
    (value) => value === 0 || (value >= MIN_LOCK_IDLE_SECONDS && value <= MAX_LOCK_IDLE_SECONDS),
    { message: `0 (off) or ${MIN_LOCK_IDLE_SECONDS} to ${MAX_LOCK_IDLE_SECONDS} seconds` },
  )

/** The idle times Settings offers, in minutes (0: never on idle). */
export const LOCK_IDLE_CHOICES_MINUTES = [0, 1, 2, 5, 10, 15, 30, 60] as const

/** Why the app locked: idle time, the OS (screen lock, sleep), the user, or the start. */
export type LockReason = 'idle' | 'os' | 'user' | 'start'

/** Wrong entries allowed before each further one makes the next wait. */
export const FREE_PIN_ATTEMPTS = 5

/** The lock's state as the renderer sees it (`lock.status`, the `lock.changed` event). */
export interface LockStatus {
  /** Whether a PIN or password is set; without one the app never locks. */
  readonly pinSet: boolean
  readonly locked: boolean
  /** Why it locked, while locked. */
  readonly reason: LockReason | null
  /** Idle time before locking, in seconds (0: off). */
  readonly idleSeconds: number
  /** Wrong entries since the last unlock. */
  readonly failures: number
  /** When the next entry is accepted (ISO time), while a wait after wrong entries runs. */
  readonly retryAt: string | null
  /**
   * Whether the active account's API secret can reset a forgotten PIN (not
   * while the built-in Sandbox, whose secret is public, is active and other
   * accounts exist).
   */
  readonly secretResetAvailable: boolean
}

/** The answer of `lock.unlock`: unlocked, or how many wrong entries and until when to wait. */
export interface LockAttempt {
  readonly unlocked: boolean
  readonly status: LockStatus
}

/**
 * The channels that answer while the app is locked: the lock's own, and the
 * settings the lock screen paints with (language, theme; no customer data).
 * Every other channel refuses with `locked` (core's router, `lock-service.ts`).
 * @internal
 */
export const LOCK_OPEN_CHANNELS = [
  'lock.status',
  'lock.now',
  'lock.activity',
  'lock.unlock',
  'lock.resetWithSecret',
  'lock.resetByErasing',
  'settings.get',
] as const satisfies readonly ChannelName[]

/** Whether a channel answers while the app is locked. */
export function isOpenWhileLocked(channel: string): boolean {
  return (LOCK_OPEN_CHANNELS as readonly string[]).includes(channel)
}
