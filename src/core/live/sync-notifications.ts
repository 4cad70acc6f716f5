import { message, type Locale } from '../../shared/i18n'
import { localTimestamp } from '../../shared/local-time'
import type { LiveStatus } from '../../shared/live'
import type { AgingCounts } from '../../shared/changes'
import type { StoreClient } from '../owner/store-owner'
import type { LiveClock } from './schedule'
import type { Notifier } from './notifications'

/**
 * Feeds the {@link Notifier} from the profile's syncs: after each sync the
 * changes-feed entries since the last look (never those that were there when
 * the profile opened: the first sync's baseline logs none, and what an
 * earlier session found was its to tell), the sync's health, and the daily
 * aging digest.
 */

/** Background sync failing for this long is worth a notification. */
const FAILING_NOTIFY_MS = 30 * 60_000
/** Entries read per look at the feed. */
const PAGE = 500

/** Options of {@link SyncNotifications}. */
export interface SyncNotificationsOptions {
  readonly store: StoreClient
  readonly notifier: Notifier
  readonly clock: LiveClock
  readonly language: () => Locale
  readonly timeZone: () => string
  /** When the digest is posted (`HH:MM`) and whether it is on. */
  readonly digest: () => { readonly at: string; readonly on: boolean }
  /** The aging counts for the digest. */
  readonly agingCounts: () => Promise<AgingCounts>
}

/** One per profile. */
export class SyncNotifications {
  readonly #options: SyncNotificationsOptions
  /** The newest feed entry looked at; null until the profile's feed was read once. */
  #cursor: Promise<number>
  #looking: Promise<void> = Promise.resolve()
  #healthPosted = false
  #cancelDigest: (() => void) | null = null
  #closed = false

  constructor(options: SyncNotificationsOptions) {
    this.#options = options
    this.#cursor = options.store
      .call('liveChangesSince', { after: Number.MAX_SAFE_INTEGER, limit: 1 })
      .then(({ maxId }) => maxId)
      .catch(() => 0)
  }

  /** After a sync ended: what it changed, one notification per kind. Resolves once posted. */
  afterSync(): Promise<void> {
    this.#looking = this.#looking.then(() => this.#look()).catch(() => undefined)
    return this.#looking
  }

  async #look(): Promise<void> {
    let after = await this.#cursor
    for (;;) {
      const { rows } = await this.#options.store.call('liveChangesSince', { after, limit: PAGE })
      if (rows.length > 0) {
        after = rows[rows.length - 1]?.id ?? after
        if (!this.#closed) this.#options.notifier.fromChanges(rows)
      }
      if (rows.length < PAGE) break
    }
    this.#cursor = Promise.resolve(after)
  }

  /**
   * The schedule's status changed: background sync failing for more than
   * 30 minutes, or stopped by a credential error, is told once, until a
   * sync succeeds again.
   */
  health(status: LiveStatus): void {
    const now = this.#options.clock.now()
    const failing =
      status.failingSince !== null && now - Date.parse(status.failingSince) >= FAILING_NOTIFY_MS
    const stopped = status.state === 'stopped'
    if (!failing && !stopped) {
      if (status.failingSince === null) this.#healthPosted = false
      return
    }
    if (this.#healthPosted || this.#closed) return
    const locale = this.#options.language()
    const posted = this.#options.notifier.notify(
      'syncFailing',
      [],
      () => message(locale, 'notify.syncFailing.title'),
      stopped
        ? message(locale, 'notify.syncCredentials.body')
        : message(locale, 'notify.syncFailing.body', {
            minutes: Math.floor(FAILING_NOTIFY_MS / 60_000),
          }),
    )
    // Quiet hours or the kind off: told later, once the quiet ends, if still failing.
    if (posted) this.#healthPosted = true
  }

  /** Arms the daily digest at its time in the profile's zone (again after each, and when the setting changes). */
  armDigest(): void {
    this.#cancelDigest?.()
    this.#cancelDigest = null
    if (this.#closed) return
    const { at } = this.#options.digest()
    const now = this.#options.clock.now()
    const wait = msUntil(now, at, this.#options.timeZone())
    this.#cancelDigest = this.#options.clock.after(wait, () => {
      void this.#postDigest().finally(() => this.armDigest())
    })
  }

  async #postDigest(): Promise<void> {
    if (!this.#options.digest().on || this.#closed) return
    const counts = await this.#options.agingCounts()
    const ready = counts.rules.find((rule) => rule.rule === 'guaranteeReady')?.count ?? 0
    const shipping = counts.rules.find((rule) => rule.rule === 'inspectionShipping')?.count ?? 0
    if (ready + shipping === 0) return
    const locale = this.#options.language()
    this.#options.notifier.notify(
      'agingDigest',
      [],
      () => message(locale, 'notify.agingDigest.title', { count: ready + shipping }),
      message(locale, 'notify.agingDigest.body', { ready, shipping }),
    )
  }

  close(): void {
    this.#closed = true
    this.#cancelDigest?.()
    this.#cancelDigest = null
  }
}

/** Milliseconds from `now` to the next `HH:MM` in `timeZone` (a minute at least). */
function msUntil(now: number, at: string, timeZone: string): number {
  const local = localTimestamp(new Date(now), timeZone)
  const [hours, minutes] = at.split(':').map(Number)
  const nowMinutes = Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16))
  const target = (hours ?? 0) * 60 + (minutes ?? 0)
  let delta = target - nowMinutes
  if (delta <= 0) delta += 24 * 60
  return Math.max(60_000, delta * 60_000 - Number(local.slice(17, 19)) * 1000)
}
