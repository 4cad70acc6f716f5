import type { PartnerClient } from '../api/client'
import { EventBus } from '../events'
import type { StoreOwner } from '../owner/store-owner'
import { openProfileData, type ProfileDataDeps } from '../profile-data'
import type { ActiveProfile } from '../profiles/profile-service'
import type { PageThread } from '../sync/page-thread/client'
import { clientSyncSource } from '../sync/paged-pass'
import { SyncEngine } from '../sync/sync-engine'
import type { EventPayloads } from '../../shared/contract'
import type { Locale } from '../../shared/i18n'
import type { NotificationSettings, PostedNotification } from '../../shared/notifications'
import { engineSteps } from './engine-steps'
import { Notifier } from './notifications'
import type { LiveClock, LiveSchedule, LiveSteps } from './schedule'
import { SyncNotifications } from './sync-notifications'

/**
 * One account's live scope, as the active account (`app.ts`) and a
 * background account (`background-account.ts`) both open it: its data
 * ({@link openProfileData}), its sync engine fed by the app's page thread,
 * its notifications of what the syncs changed, and the live schedule's
 * steps over them (docs/live.md).
 */

/** The app's shared parts and settings a live scope reads: the same for every account. */
export interface LiveScopeDeps extends ProfileDataDeps {
  /** The app's page thread: it sends each page's records to the scope's owner itself. */
  readonly pages: PageThread
  readonly clock: LiveClock
  readonly language: () => Locale
  /** The notification settings as they apply now (counts only while the app is locked). */
  readonly notificationSettings: () => NotificationSettings
  /** When the aging digest is posted (`HH:MM`) and whether it is on. */
  readonly digest: () => { readonly at: string; readonly on: boolean }
  readonly agingDays: () => { readonly guaranteeReady: number; readonly inspectionShipping: number }
  readonly live: () => { readonly intervalMinutes: number; readonly windowDays: number }
  /** Sends a decided notification to the hosts (the `notification.posted` event). */
  readonly post: (notification: PostedNotification) => void
}

/** The active account's scope shares the app's bus (the window follows its syncs) and notifier. */
export interface ActiveParts {
  readonly events: EventBus
  readonly notifier: Notifier
}

/** The opened scope. */
export interface LiveScope {
  readonly client: PartnerClient
  readonly store: StoreOwner
  readonly sync: SyncEngine
  readonly notifications: SyncNotifications
  /** The live schedule's steps over this scope's engine and store. */
  readonly steps: LiveSteps
  /**
   * Closes it: its notifications end first (nothing more is told about an
   * account that closes), then `schedule` stops, the sync stops, `beforeStore`
   * runs (whatever else uses the store), and the store closes once the sync is idle.
   */
  close(schedule: Pick<LiveSchedule, 'stop'>, beforeStore?: () => Promise<void>): Promise<void>
}

/**
 * A notifier over the app's settings: the app's own (about the active
 * account, `timeZone` following it), or a background account's, which
 * names `account` in its titles.
 */
export function liveNotifier(
  deps: LiveScopeDeps,
  timeZone: () => string,
  account?: { readonly id: string; readonly name: string },
): Notifier {
  return new Notifier({
    settings: deps.notificationSettings,
    language: deps.language,
    timeZone,
    now: deps.now,
    post: deps.post,
    ...(account ? { account } : {}),
  })
}

/**
 * Opens `profile`'s live scope. With `active`, it is the active account's:
 * its syncs report on the app's bus and it notifies through the app's
 * notifier. Without, a background account's: its own bus (the window follows
 * the active account's syncs only), its own notifier naming the account, and
 * a list never read whole is read whole at the first run (it has no sync at
 * start). `armDigest` arms the daily aging digest now.
 */
export function openLiveScope(
  deps: LiveScopeDeps,
  profile: ActiveProfile,
  options: { readonly active?: ActiveParts; readonly armDigest: boolean },
): LiveScope {
  const { id, name, timeZone } = profile.summary
  const zone = (): string => timeZone
  const { client, store } = openProfileData(deps, profile)
  const events = options.active?.events ?? new EventBus()
  const notifier = options.active?.notifier ?? liveNotifier(deps, zone, { id, name })
  // The page thread sends each page's records to this owner itself; the main thread relays none.
  const sync = new SyncEngine({
    store,
    source: clientSyncSource(client, deps.pages.towards(store)),
    events,
    now: deps.now,
    timeZone: zone,
  })
  const notifications = new SyncNotifications({
    store,
    notifier,
    clock: deps.clock,
    language: deps.language,
    timeZone: zone,
    digest: deps.digest,
    agingCounts: () =>
      store.call('agingCounts', { now: deps.now().toISOString(), days: deps.agingDays() }),
  })
  if (options.armDigest) notifications.armDigest()
  // After each sync that ended, what it changed (one look at the feed since the last).
  const unsubscribe = events.subscribe((event, payload) => {
    if (event !== 'sync.progress') return
    const progress = payload as EventPayloads['sync.progress']
    if (progress.phase === 'done' && progress.mode !== 'targeted') void notifications.afterSync()
  })
  const steps = engineSteps({
    engine: sync,
    store,
    client,
    now: deps.now,
    windowDays: () => deps.live().windowDays,
    ...(options.active ? {} : { fullWhenNever: true }),
  })
  let closing: Promise<void> | null = null
  return {
    client,
    store,
    sync,
    notifications,
    steps,
    close(schedule, beforeStore) {
      closing ??= (async () => {
        notifications.close()
        unsubscribe()
        await schedule.stop()
        sync.stop()
        await beforeStore?.()
        await sync.idle()
        await store.close()
      })()
      return closing
    },
  }
}
