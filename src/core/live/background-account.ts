import { AppError } from '../app-error'
import type { FetchLike } from '../api/http'
import { EventBus } from '../events'
import type { StoreOwner, StoreThreads } from '../owner/store-owner'
import { openProfileData } from '../profile-data'
import type { ActiveProfile } from '../profiles/profile-service'
import type { PageThread } from '../sync/page-thread/client'
import { clientSyncSource } from '../sync/partner-source'
import { SyncEngine } from '../sync/sync-engine'
import type { Locale } from '../../shared/i18n'
import type { LiveStatus } from '../../shared/live'
import type { NotificationSettings, PostedNotification } from '../../shared/notifications'
import type { BackgroundScope, BackgroundTurns } from './background-accounts'
import { engineSteps } from './engine-steps'
import { Notifier } from './notifications'
import { LiveSchedule, type LiveClock } from './schedule'
import { SyncNotifications } from './sync-notifications'

/**
 * One account kept current in the background (docs/live.md "Every
 * account"): its own schedule, started at once, and, opened lazily at its
 * first run, its own store (owner thread), sync engine and notifications.
 * Its runs take turns with the other accounts' and give way to the active
 * account's ({@link BackgroundTurns}). Its syncs' events stay its own (the
 * window shows the active account); its notifications name the account.
 */

/** What a background scope is built from: the app's shared parts. */
export interface BackgroundAccountDeps {
  readonly fetch: FetchLike
  readonly dataDir: string
  readonly storeWorker: StoreThreads
  readonly pages: PageThread
  readonly turns: BackgroundTurns
  readonly now: () => Date
  readonly log: (message: string) => void
  readonly language: () => Locale
  /** The notification settings as they apply now (counts only while the app is locked). */
  readonly notificationSettings: () => NotificationSettings
  readonly digest: () => { readonly at: string; readonly on: boolean }
  readonly agingDays: () => { readonly guaranteeReady: number; readonly inspectionShipping: number }
  readonly live: () => { readonly intervalMinutes: number; readonly windowDays: number }
  readonly post: (notification: PostedNotification) => void
  readonly clock: LiveClock
  readonly intervalMs?: number
}

interface Opened {
  readonly store: StoreOwner
  readonly sync: SyncEngine
  readonly notifications: SyncNotifications
  readonly steps: ReturnType<typeof engineSteps>
  readonly unsubscribe: () => void
}

/** A background scope as tests look at it: its owner, once opened. */
export interface BackgroundAccountScope extends BackgroundScope {
  /** The store's owner, once the first run opened it; null before. */
  readonly store: StoreOwner | null
}

/** Builds the background scope of `profile`; its schedule is started by the caller. */
export function openBackgroundAccount(
  deps: BackgroundAccountDeps,
  profile: ActiveProfile,
  onStatus: (status: LiveStatus) => void,
): BackgroundAccountScope {
  const { id, name, timeZone } = profile.summary
  let opened: Opened | null = null
  let closing: Promise<void> | null = null

  const open = (): Opened => {
    if (opened) return opened
    if (closing) throw new AppError('cancelled', 'The account is no longer kept current.')
    const { client, store } = openProfileData(deps, profile)
    // Its own bus: the window follows the active account's syncs only.
    const events = new EventBus()
    const sync = new SyncEngine({
      store,
      source: clientSyncSource(client, deps.pages.towards(store)),
      events,
      now: deps.now,
      timeZone: () => timeZone,
    })
    const notifier = new Notifier({
      settings: deps.notificationSettings,
      language: deps.language,
      timeZone: () => timeZone,
      now: deps.now,
      post: deps.post,
      account: { id, name },
    })
    const notifications = new SyncNotifications({
      store,
      notifier,
      clock: deps.clock,
      language: deps.language,
      timeZone: () => timeZone,
      digest: deps.digest,
      agingCounts: () =>
        store.call('agingCounts', { now: deps.now().toISOString(), days: deps.agingDays() }),
    })
    notifications.armDigest()
    const unsubscribe = events.subscribe((event, payload) => {
      if (event !== 'sync.progress') return
      const progress = payload as { phase: string; mode?: string }
      if (progress.phase === 'done' && progress.mode !== 'targeted') void notifications.afterSync()
    })
    const steps = engineSteps({
      engine: sync,
      store,
      client,
      now: deps.now,
      windowDays: () => deps.live().windowDays,
      fullWhenNever: true,
    })
    opened = { store, sync, notifications, steps, unsubscribe }
    return opened
  }

  const live = new LiveSchedule({
    // Each run waits its turn; the first opens the account's threads.
    steps: deps.turns.steps(() => open().steps),
    settings: () => ({ intervalMinutes: deps.live().intervalMinutes }),
    clock: deps.clock,
    ...(deps.intervalMs ? { intervalMs: deps.intervalMs } : {}),
    onStatus: (status) => {
      opened?.notifications.health(status)
      onStatus(status)
    },
  })

  return {
    id,
    name,
    live,
    get store() {
      return opened?.store ?? null
    },
    close() {
      closing ??= (async () => {
        await live.stop()
        const parts = opened
        if (!parts) return
        parts.notifications.close()
        parts.unsubscribe()
        parts.sync.stop()
        await parts.sync.idle()
        await parts.store.close()
      })()
      return closing
    },
  }
}
