import { rm } from 'node:fs/promises'
import { SYNC_RESOURCES, type PagedResourceName } from '../shared/resources'
import { join } from 'node:path'
import type { AppInfo } from '../shared/domain'
import { partnerFilter } from '../shared/list-filter'
import type { DesktopSettings, SettingsView } from '../shared/profiles'
import { holdMainYoungGeneration } from './heap-sizing'
import { AppError } from './app-error'
import type { FetchLike } from './api/http'
import { BrandService } from './brands/brand-service'
import { DATA_CHANGED_MS, EventBus } from './events'
import { tightenDataDir } from './fs-private'
import { ImageCache } from './images/image-cache'
import { createImageHostPolicy } from './images/url-policy'
import type { StoreNotice } from './store/schema/database'
import type { StoreOwner, StoreThreads } from './owner/store-owner'
import type { ThreadEntry } from './threads/spawn'
import { localTimestamp } from '../shared/local-time'
import { message, type Locale } from '../shared/i18n'
import type { ExportData } from './export/export-file'
import { exportExtension, type ExportFormat, type ExportResult } from '../shared/export'
import { PageThread } from './sync/page-thread/client'
import type { SyncEngine } from './sync/sync-engine'
import { LiveSchedule, type LiveClock } from './live/schedule'
import { liveNotifier, openLiveScope, type LiveScopeDeps } from './live/live-scope'
import type { SyncNotifications } from './live/sync-notifications'
import { BackgroundAccounts, BackgroundTurns } from './live/background-accounts'
import { openBackgroundAccount } from './live/background-account'
import type { PostedNotification } from '../shared/notifications'
import { Redactor } from './redact'
import { linkOrigins } from './security/policy'
import { createRouter, type Router } from './router'
import { APP_NAME } from './paths'
import {
  cacheFilesOf,
  ProfileService,
  type ActiveProfile,
  type BuiltinProfile,
} from './profiles/profile-service'
import { AppLock } from './lock/app-lock'
import { SANDBOX_PROFILE_ID, type ProfileList } from '../shared/profiles'
import { SettingsService } from './settings/settings'
import { SavedViews } from './settings/saved-views'
import type { OpenSettingsFile } from './settings/settings-file'
import type { SecureStore } from './vault/secure-store'
import { sameText, Vault } from './vault/vault'
import { ReviewUndo } from './review-undo'
import { TeamRunner, teamServerConfig } from './team/team-runner'
import type { PresenceTiming } from './team/team-sync'
import { toTeamError } from './team/team-error'
import { DEFAULT_WALLET_TIMEOUT_MS, WalletService } from './wallet/wallet-service'

const realAfter = (ms: number, fire: () => void): (() => void) => {
  const timer = setTimeout(fire, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

/** The defined fields of a partial update (zod leaves absent ones undefined). */
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** The injected parts core is built from; tests pass real ones where they can. */
export interface CoreDeps {
  /** Electron's `net.fetch` in the app; Node's `fetch` in tests and the web host. */
  readonly fetch: FetchLike
  /** Folder for settings, cache and images; created if missing. */
  readonly dataDir: string
  readonly host: AppInfo['host']
  readonly version: string
  /** The OS keychain (keytar in both hosts). */
  readonly keychain: SecureStore
  /** The settings engine: electron-store in the shell, conf in tests and the web host. */
  readonly openSettings: OpenSettingsFile
  /** The built-in Sandbox profile (the embedded sandbox and its demo credentials). */
  readonly sandbox: BuiltinProfile
  /** Keychain service name; tests use their own so they never touch the app's entries. */
  readonly keychainService?: string
  readonly keychainTimeoutMs?: number
  readonly now?: () => Date
  /** Secret-free log lines; `console.warn` when absent. */
  readonly log?: (message: string) => void
  /** Cap of the card-image cache in bytes (default 1 GB). */
  readonly imageCacheBytes?: number
  /**
   * The entries of each profile's database owner thread (`owner/worker.ts`) and its
   * WAL checkpointer (`owner/checkpoint-worker.ts`): the bundled files in the app, the
   * TypeScript sources with tsx's loader in tests and the web host.
   */
  readonly storeWorker: StoreThreads
  /**
   * The page thread's entry (`sync/page-thread/worker.ts`), given like `storeWorker`: sync
   * pages are parsed there, so their records never reach the main thread.
   */
  readonly pageWorker: ThreadEntry
  /**
   * The team worker's entry (`team/worker.ts`), given like `pageWorker`: it
   * runs the sync with the profile's team server (docs/team.md). Without it a
   * profile with a team server reports the team as offline.
   */
  readonly teamWorker?: ThreadEntry
  /** The image-index thread's entry (`images/index-worker.ts`), given like `pageWorker`. */
  readonly imageIndexWorker: ThreadEntry
  /** Backoff of the team sync's reconnects (default 1 s doubling to 60 s; tests shorten it). */
  readonly teamBackoffMs?: { readonly base: number; readonly max: number }
  /** Presence timing of the team sync (default: heartbeat 10 s, gone after 20 s, read every 5 s; tests shorten it). */
  readonly teamPresence?: Partial<PresenceTiming>
  /** Most decoded pixels of one card image, all frames together (default 40 megapixels). */
  readonly imageMaxPixels?: number
  /**
   * Sync the active profile in the background at start and after every
   * switch (the hosts turn it on; tests leave it off and sync explicitly).
   */
  readonly autoSync?: boolean
  /**
   * Saves an export's bytes through the host's save dialog (Electron), its
   * filter by the name's extension; answers the chosen path, or null when the
   * user cancelled. Without it the file is answered for the browser to
   * download (web host): CSV as text, a workbook as base64.
   */
  readonly saveFile?: (fileName: string, bytes: Uint8Array) => Promise<string | null>
  /**
   * The live schedule's clock and a poll interval in ms overriding the
   * setting (tests, the bench and the e2e host). The schedule runs when
   * `autoSync` is on.
   */
  readonly live?: { readonly clock?: LiveClock; readonly intervalMs?: number }
}

/** The composed core: one router for both hosts, the event bus, and the redactor for logs. */
export interface Core {
  readonly router: Router
  readonly events: EventBus
  readonly redactor: Redactor
  readonly profiles: ProfileService
  /** Card images for the `card:` protocol and the web host's `/card/` route. */
  readonly images: ImageCache
  /** The sync engine of the active profile (a new one after a switch). */
  readonly sync: SyncEngine
  /** The live schedule of the active profile: the hosts feed it sleep and the network. */
  readonly live: LiveSchedule
  /** The other accounts kept current when settings `live.allAccounts` is on (docs/live.md). */
  readonly background: Pick<BackgroundAccounts, 'ids' | 'scopeOf' | 'idle' | 'status'>
  /**
   * Posts a notification of `kind` about records (grouped, one per call),
   * unless notifications or the kind are off or it is quiet hours: the one
   * entry point for notifications other parts of the app decide (the team
   * side's "assigned to me", "mentioned").
   */
  notify(
    kind: string,
    items: readonly { resource: PagedResourceName; idx: number; name: string | null }[],
    title: (count: number) => string,
  ): PostedNotification | null
  /** Set when the active profile's cache file was unreadable and had to be rebuilt. */
  readonly storeNotice: StoreNotice | null
  /** The wallet-link flows (hosts wire their window or popup to it). */
  readonly wallet: WalletService
  /**
   * The app lock (docs/security.md "The app lock"): `isLocked()` and
   * `subscribe` for whoever must hide details while locked (notifications),
   * `lockNow` for the shell (OS screen lock, sleep, the tray).
   */
  readonly lock: Pick<AppLock, 'isLocked' | 'subscribe' | 'lockNow' | 'ready'>
  /** Where the system browser may be sent (after asking): the active profile's https hosts and the docs host. */
  linkOrigins(): string[]
  /** The UI language from the settings: the shell's native dialogs speak it. */
  language(): Locale
  /** The desktop shell's choices from the settings: close to the tray, start at login. */
  desktop(): DesktopSettings
  close(): Promise<void>
}

/** What depends on the active profile: its client, cache file, sync engine and brand list. */
interface ProfileScope {
  readonly profile: ActiveProfile
  readonly store: StoreOwner
  readonly sync: SyncEngine
  readonly brands: BrandService
  /** Sharing with the profile's team server (inactive without one). */
  readonly team: TeamRunner
  /** Keeps the store current between the syncs staff ask for (docs/live.md). */
  readonly live: LiveSchedule
  /** Tells staff what the profile's syncs changed (docs/live.md "Notifications"). */
  readonly notifications: SyncNotifications
  /** The review actions of this session on this profile, for `reviews.undo`. */
  readonly undo: ReviewUndo
  close(): Promise<void>
}

/** The composition root: builds every core service once from injected parts. */
export function createCore(deps: CoreDeps): Core {
  // Before any data thread starts: each starts at its young generation's bound.
  holdMainYoungGeneration()
  // Owner-only data folder (0700, files 0600); one left open by an older version is tightened.
  tightenDataDir(deps.dataDir)
  const now = deps.now ?? (() => new Date())
  const log = deps.log ?? ((message: string) => console.warn(message))
  // A sync commits pages many times a second; the renderer re-queries at most a few times.
  const events = new EventBus({ coalesceMs: { 'data.changed': DATA_CHANGED_MS } })
  const redactor = new Redactor()
  const settings = SettingsService.open({
    dataDir: deps.dataDir,
    open: deps.openSettings,
    now,
    log,
  })
  const views = new SavedViews(settings)
  const vault = new Vault({
    keychain: deps.keychain,
    ...(deps.keychainService === undefined ? {} : { service: deps.keychainService }),
    ...(deps.keychainTimeoutMs === undefined ? {} : { timeoutMs: deps.keychainTimeoutMs }),
    log: (message) => log(redactor.redact(message)),
  })

  // One page thread for the app: parses every sync page (the profiles' engines take turns).
  const pages = new PageThread(deps.pageWorker)
  const liveClock = deps.live?.clock ?? { now: () => now().getTime(), after: realAfter }
  // What every account's live scope reads of the app, the active one's and the background ones'.
  const liveDeps: LiveScopeDeps = {
    fetch: deps.fetch,
    dataDir: deps.dataDir,
    storeWorker: deps.storeWorker,
    now,
    log: (message) => log(redactor.redact(message)),
    pages,
    clock: liveClock,
    language: () => settings.get().language,
    // While the app is locked a notification shows counts only, whatever `notifications.details` says.
    notificationSettings: () => {
      const chosen = settings.get().notifications
      return chosen.details && lock.isLocked() ? { ...chosen, details: false } : chosen
    },
    digest: () => {
      const { digestAt, kinds } = settings.get().notifications
      return { at: digestAt, on: kinds['agingDigest'] === true }
    },
    agingDays: () => settings.get().agingDays,
    live: () => settings.get().live,
    post: (notification) => events.emit('notification.posted', notification),
  }
  // What to tell staff about the active account: decided here for both hosts, shown by the host
  // (`notification.posted`).
  const notifier = liveNotifier(liveDeps, () => scope.profile.summary.timeZone)

  // Every-account mode (docs/live.md "Every account"): the other accounts' schedules take turns,
  // one run at a time, and give way to the active account's Sync and steps.
  const turns = new BackgroundTurns(() => {
    // Undefined only while the first scope is being built.
    const active = scope as ProfileScope | undefined
    return active !== undefined && (active.sync.busy || active.live.status().step !== null)
  })
  events.subscribe((event) => {
    if (event === 'sync.progress' || event === 'live.status') turns.activeChanged()
  })
  const background: BackgroundAccounts = new BackgroundAccounts({
    enabled: () => settings.get().live.allAccounts,
    candidates: async () => {
      const { profiles: views }: ProfileList = await profiles.list()
      return views
        .filter((view) => ['builtin', 'keychain', 'session'].includes(view.credentials.state))
        .map((view) => ({
          id: view.id,
          fingerprint: JSON.stringify([
            view.name,
            view.baseUrl,
            view.staticUrl,
            view.partnerId,
            view.timeZone,
            view.timeoutSeconds,
            view.credentials.state,
            view.credentials.keyLast4,
          ]),
        }))
    },
    activeId: () => profiles.activeId,
    open: (id, onStatus) => {
      const profile = profiles.profileOf(id)
      if (profile.summary.id !== id) return null
      return openBackgroundAccount(
        {
          ...liveDeps,
          turns,
          ...(deps.live?.intervalMs ? { intervalMs: deps.live.intervalMs } : {}),
        },
        profile,
        onStatus,
      )
    },
    onStatus: (status) => events.emit('live.accounts', status),
  })
  /** Brings the background scopes in line with the setting and the accounts (`fresh`: reopen that one). */
  const keepAccounts = (fresh?: string): void => {
    if (!deps.autoSync || closed) return
    void profiles
      .exclusive(() => background.reconcile(fresh))
      .catch((error: unknown) =>
        log(redactor.redact(`background accounts not updated: ${String(error)}`)),
      )
  }

  /** Opens everything that belongs to one profile; one cache database per profile (docs/faults.md F23, F29). */
  const buildScope = (profile: ActiveProfile): ProfileScope => {
    // One thread owns the profile's file and runs every query and write; the main thread runs no
    // SQL (profile-data.ts). Its syncs report on the app's bus and notify through the app's notifier.
    const opened = openLiveScope(liveDeps, profile, {
      active: { events, notifier },
      armDigest: deps.autoSync === true,
    })
    const { store, sync, notifications } = opened
    const team = new TeamRunner({
      profileId: profile.summary.id,
      partnerId: profile.summary.partnerId,
      timeZone: profile.summary.timeZone,
      server: profile.team,
      store,
      entry: deps.teamWorker,
      password: async (id) => {
        const password = await vault.teamPassword(id)
        // Registered before the worker can fail with it, so no later message can echo it.
        if (password !== null) redactor.add(password)
        return password
      },
      onStatus: (status) => events.emit('team.status', status),
      onApplied: ({ resources, walletLinks, mentions }) => {
        for (const resource of resources) events.emit('data.changed', { resource })
        if (walletLinks) events.emit('wallet.historyChanged', {})
        if (mentions && mentions.length > 0) {
          const locale = settings.get().language
          const first = mentions[0]!.by
          notifier.notify(
            'mentioned',
            mentions.map(({ resource, idx, note }) => ({ resource, idx, name: note })),
            (count) =>
              count === 1
                ? message(locale, 'notify.mentioned.one', { name: first })
                : message(locale, 'notify.mentioned.many', { count }),
          )
        }
      },
      ...(deps.teamBackoffMs ? { backoffMs: deps.teamBackoffMs } : {}),
      ...(deps.teamPresence ? { presence: deps.teamPresence } : {}),
      onPresence: (present) => events.emit('presence.changed', present),
    })
    const live = new LiveSchedule({
      steps: opened.steps,
      settings: () => ({ intervalMinutes: settings.get().live.intervalMinutes }),
      ...(deps.live?.clock ? { clock: deps.live.clock } : {}),
      ...(deps.live?.intervalMs ? { intervalMs: deps.live.intervalMs } : {}),
      onStatus: (status) => {
        events.emit('live.status', status)
        notifications.health(status)
      },
      onHost: ({ asleep, online }) => {
        if (asleep !== undefined) background.setAsleep(asleep)
        if (online !== undefined) background.setOnline(online)
      },
    })
    if (deps.autoSync) live.start()
    return {
      profile,
      store,
      sync,
      brands: new BrandService(store, sync),
      team,
      live,
      notifications,
      undo: new ReviewUndo(),
      close: () => opened.close(live, () => team.close()),
    }
  }

  const redactSecrets = (found: { apiKey: string; apiSecret: string }): void => {
    redactor.add(found.apiKey)
    redactor.add(found.apiSecret)
  }
  redactSecrets(deps.sandbox.credentials)

  let scope: ProfileScope
  let closed = false
  let closing: Promise<void> | null = null
  const profiles = new ProfileService({
    settings,
    vault,
    sandbox: deps.sandbox,
    fetch: deps.fetch,
    dataDir: deps.dataDir,
    onSecret: redactSecrets,
    // Called inside the profiles' lifecycle queue: one switch at a time, never two owners of a file.
    onActiveChange: async (active) => {
      if (closed) throw new AppError('cancelled', 'The app is closing.')
      // A flow belongs to the profile it started on: switching ends it.
      wallet.cancelAll()
      await scope.close()
      // An account kept current in the background closes before it opens as the active one.
      await background.release(active.summary.id)
      await openScope(active)
      if (deps.autoSync) scope.sync.enqueue()
    },
    onRemoving: (id): Promise<void> => background.release(id),
    onListChange: (activeId) => {
      events.emit('profiles.changed', { activeId })
      keepAccounts()
    },
  })
  scope = buildScope(profiles.active())
  /**
   * The active scope replaced (a switch, the erase of a forgotten PIN): resolves once its file is
   * open, no longer being created or migrated, so nothing is still written after the answer. A
   * file that fails to open reports so on its first query, as at start.
   */
  const openScope = async (profile: ActiveProfile): Promise<void> => {
    scope = buildScope(profile)
    await scope.store.ready.catch(() => undefined)
  }

  const wallet = new WalletService({
    events,
    profile: () => scope.profile,
    store: () => scope.store,
    now,
    log: (message) => log(redactor.redact(message)),
    redact: (text) => redactor.redact(text),
    timeoutMs: () => settings.get().walletTimeoutMinutes * 60_000 || DEFAULT_WALLET_TIMEOUT_MS,
  })
  if (deps.autoSync) scope.sync.enqueue()

  /**
   * The reset of a forgotten PIN that needs no secret: every account's cached
   * data and stored key and secret (team passwords too) are deleted, so what
   * the lock hid is gone from this PC and a new sync needs the keys again.
   */
  const eraseData = () =>
    profiles.exclusive(async () => {
      wallet.cancelAll()
      await scope.close()
      await background.releaseAll()
      const stored = settings.get().profiles.map((profile) => profile.id)
      for (const id of stored) await vault.delete(id)
      for (const id of [SANDBOX_PROFILE_ID, ...stored]) {
        await Promise.all(cacheFilesOf(deps.dataDir, id).map((file) => rm(file, { force: true })))
      }
      await openScope(profiles.active())
      if (deps.autoSync) scope.sync.enqueue()
      if (deps.autoSync) await background.reconcile()
      for (const resource of SYNC_RESOURCES) {
        events.emit('data.changed', { resource }, { immediate: true })
      }
    })

  const lock = new AppLock({
    store: vault,
    idleSeconds: () => settings.get().lockIdleSeconds,
    pinFlag: {
      get: () => settings.get().lockPinSet,
      set: (value) => {
        if (settings.get().lockPinSet !== value) {
          settings.update((draft) => {
            draft.lockPinSet = value
          })
        }
      },
    },
    now,
    secretReset: {
      // The Sandbox's secret is public: it cannot open a lock that hides other accounts' data.
      available: () =>
        profiles.activeId !== SANDBOX_PROFILE_ID || settings.get().profiles.length === 0,
      matches: (secret) =>
        profiles.activeId === SANDBOX_PROFILE_ID
          ? Promise.resolve(sameText(deps.sandbox.credentials.apiSecret, secret))
          : vault.matchesSecret(profiles.activeId, secret),
    },
    eraseData,
    // A wallet flow's window shows the member's wallet: locking ends it.
    onLock: () => wallet.cancelAll(),
    log,
  })
  lock.subscribe((status) => events.emit('lock.changed', status))
  // Locked, the other accounts' schedules wait; unlocked, they poll at once.
  void background.setHeld(lock.isLocked())
  lock.subscribe((status) => void background.setHeld(status.locked))
  keepAccounts()

  // Card images come only from the active profile's image host (docs/faults.md F32).
  const images = new ImageCache({
    dir: join(deps.dataDir, 'images'),
    indexThread: deps.imageIndexWorker,
    fetch: deps.fetch,
    policy: () => createImageHostPolicy(scope.profile.staticUrl ? [scope.profile.staticUrl] : []),
    ...(deps.imageCacheBytes ? { maxTotalBytes: deps.imageCacheBytes } : {}),
    ...(deps.imageMaxPixels ? { maxPixels: deps.imageMaxPixels } : {}),
    refuse: () => lock.isLocked(),
  })

  // The exports' writers and the team server's client are imported where they are used: the
  // main thread of an app that only browses its lists never loads them.

  /** Saves an export through the host's dialog, or answers it for the browser to download. */
  const deliver = async (
    format: ExportFormat,
    fileName: string,
    data: ExportData,
    rows: number,
  ): Promise<ExportResult> => {
    if (!deps.saveFile) {
      return typeof data === 'string'
        ? { kind: 'download', format, rows, fileName, csv: data }
        : { kind: 'download', format, rows, fileName, xlsx: Buffer.from(data).toString('base64') }
    }
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
    const path = await deps.saveFile(fileName, bytes)
    return path === null
      ? { kind: 'cancelled', format, rows, fileName }
      : { kind: 'saved', format, rows, fileName, path }
  }
  const today = (): string => localTimestamp(now(), scope.profile.summary.timeZone).slice(0, 10)

  const withNotice = async <T extends object>(pending: Promise<T>) => {
    const status = await pending
    const notice = scope.store.notice
    return notice
      ? { ...status, notice: { code: notice.code, message: notice.message, at: notice.at } }
      : status
  }

  // The aging filter counts back from the core's clock.
  const withAsOf = <Q extends { agedDays?: number | undefined }>(query: Q) =>
    query.agedDays === undefined ? query : { ...query, agedAsOf: now().toISOString() }

  const settingsView = (): SettingsView => {
    const {
      theme,
      reviewerName,
      language,
      agingDays,
      live,
      notifications,
      desktop,
      lockIdleSeconds,
      sidebarCollapsed,
    } = settings.get()
    return {
      agingDays,
      sidebarCollapsed,
      live,
      notifications,
      desktop,
      lockIdleSeconds,
      notices: settings.notices,
      path: settings.path,
      dataDir: deps.dataDir,
      theme,
      language,
      reviewerName,
    }
  }

  const router = createRouter(
    {
      'app.info': () => ({
        name: APP_NAME,
        version: deps.version,
        host: deps.host,
        profile: scope.profile.summary,
      }),
      'brands.search': ({ query }) => scope.brands.search(query),
      'brands.refresh': () => scope.brands.refresh(),
      'sync.start': ({ resources, mode }) => withNotice(scope.sync.start(resources, mode)),
      'sync.cancel': () => withNotice(scope.sync.cancel()),
      'sync.status': () => withNotice(scope.sync.status()),
      'sync.rejected': (query) => scope.store.call('listRejected', query),
      'inspections.query': (query) => {
        scope.sync.ensureSlice('inspections', partnerFilter('inspections', query))
        return scope.store.call('queryInspections', withAsOf(query))
      },
      'guarantees.query': (query) => {
        scope.sync.ensureSlice('guarantees', partnerFilter('guarantees', query))
        return scope.store.call('queryGuarantees', withAsOf(query))
      },
      'reviews.set': async ({ resource, idx, mark, note }) => {
        const reviewer = settings.get().reviewerName.trim()
        const { mark: saved, previous } = await scope.store.call('setReviewUndoable', {
          resource,
          idx,
          mark,
          note,
          by: reviewer === '' ? null : reviewer,
          at: localTimestamp(now(), scope.profile.summary.timeZone),
          clientTime: now().toISOString(),
        })
        scope.undo.push({ action: { kind: 'mark', resource, count: 1, mark }, states: [previous] })
        scope.team.nudge()
        events.emit('data.changed', { resource }, { immediate: true })
        return saved
      },
      'reviews.setMany': async ({ resource, idxs, filter, mark, note }) => {
        const reviewer = settings.get().reviewerName.trim()
        const { changed, previous } = await scope.store.call('setReviews', {
          resource,
          idxs,
          filter,
          mark,
          note,
          by: reviewer === '' ? null : reviewer,
          at: localTimestamp(now(), scope.profile.summary.timeZone),
          clientTime: now().toISOString(),
        })
        const action = { kind: 'bulk', resource, count: changed, mark: mark ?? null } as const
        scope.undo.push({ action, states: previous })
        if (changed > 0) {
          scope.team.nudge()
          events.emit('data.changed', { resource }, { immediate: true })
        }
        return { action }
      },
      'reviews.undo': async () => {
        const entry = scope.undo.pop()
        if (!entry) return { undone: null }
        const { resource } = entry.action
        if (entry.assignments) {
          await scope.store.call('setAssignments', {
            resource,
            restores: entry.assignments,
            clientTime: now().toISOString(),
          })
          scope.team.nudge()
          events.emit('data.changed', { resource }, { immediate: true })
          return { undone: entry.action }
        }
        await scope.store.call('restoreReviews', {
          resource,
          states: entry.states,
          at: localTimestamp(now(), scope.profile.summary.timeZone),
          clientTime: now().toISOString(),
        })
        scope.team.nudge()
        events.emit('data.changed', { resource }, { immediate: true })
        return { undone: entry.action }
      },
      'assignments.set': async ({ resource, idxs, filter, assignee }) => {
        const done = await scope.store.call('setAssignments', {
          resource,
          idxs,
          filter,
          assignee,
          clientTime: now().toISOString(),
        })
        if (!done.team) throw new AppError('not_found', 'This profile has no team server.')
        if (!done.member)
          throw new AppError(
            'invalid_argument',
            `No member of the team has the login role "${assignee}".`,
          )
        const members = await scope.store.call('teamMembers')
        const name =
          assignee === null
            ? null
            : (members.members.find((member) => member.role === assignee)?.name ?? assignee)
        const action = {
          kind: 'assign',
          resource,
          count: done.changed,
          mark: null,
          assignee: name,
        } as const
        scope.undo.push({ action, states: [], assignments: done.previous })
        if (done.changed > 0) {
          scope.team.nudge()
          events.emit('data.changed', { resource }, { immediate: true })
        }
        return { action }
      },
      'changes.list': async ({ kinds, ...query }) => {
        const page = await scope.store.call('listChanges', {
          ...query,
          ...(kinds ? { kinds } : {}),
        })
        // Which entries a notification told staff about (this session).
        return {
          ...page,
          entries: page.entries.map((entry) =>
            notifier.wasNotified(entry.id) ? { ...entry, notified: true } : entry,
          ),
        }
      },
      'changes.markSeen': (mark) => scope.store.call('markChangesSeen', mark),
      'changes.unseen': async () => ({ unseen: await scope.store.call('unseenChanges') }),
      'changes.export': async ({ resource, kinds, lang, format }) => {
        const { data, rows } = await scope.store.call('changesExport', {
          resource,
          kinds,
          lang,
          format,
          timeZone: scope.profile.summary.timeZone,
        })
        const fileName = `changes-${resource ?? 'all'}-${scope.profile.summary.id}-${today()}${exportExtension(format)}`
        return deliver(format, fileName, data, rows)
      },
      'records.timeline': (ref) => scope.store.call('recordTimeline', ref),
      'records.locate': (ref) => scope.store.call('locateRecord', ref),
      'aging.counts': () =>
        scope.store.call('agingCounts', {
          now: now().toISOString(),
          days: settings.get().agingDays,
        }),
      'lists.export': async ({ resource, lang, format, ...query }) => {
        const timeZone = scope.profile.summary.timeZone
        const at = now()
        const job = {
          resource,
          lang,
          query,
          asOf: localTimestamp(at, timeZone),
          timeZone,
          now: at.toISOString(),
        }
        const { data, rows } = await scope.store.call('listExport', { ...job, format })
        const { listExportName } = await import('./export/list-csv')
        return deliver(format, listExportName(job, scope.profile.summary.id, format), data, rows)
      },
      'profiles.list': () => profiles.list(),
      'profiles.save': async (input) => {
        const saved = await profiles.save(input)
        keepAccounts(saved.id)
        return saved
      },
      'profiles.setSecret': async (input) => {
        const status = await profiles.setSecret(input)
        // A background account stopped by a wrong key starts again with the new one.
        keepAccounts(input.id)
        return status
      },
      'profiles.remove': ({ id, deleteCache }) => profiles.remove(id, deleteCache),
      'profiles.select': ({ id }) => profiles.select(id),
      'profiles.test': ({ id }) => profiles.test(id),
      'images.status': ({ url }) => ({ problem: images.problemOf(url)?.toData() ?? null }),
      'settings.get': () => settingsView(),
      'settings.set': (change) => {
        const { theme, language, reviewerName, agingDays, live, notifications } = change
        const { lockIdleSeconds, desktop, sidebarCollapsed } = change
        settings.update((draft) => {
          if (desktop !== undefined)
            draft.desktop = { ...draft.desktop, ...withoutUndefined(desktop) }
          if (notifications !== undefined) {
            const { kinds, ...rest } = notifications
            draft.notifications = {
              ...draft.notifications,
              ...withoutUndefined(rest),
              kinds: { ...draft.notifications.kinds, ...kinds },
            }
          }
          if (agingDays !== undefined) draft.agingDays = { ...draft.agingDays, ...agingDays }
          if (live !== undefined) draft.live = { ...draft.live, ...live }
          if (theme !== undefined) draft.theme = theme
          if (language !== undefined) draft.language = language
          if (reviewerName !== undefined) draft.reviewerName = reviewerName
          if (lockIdleSeconds !== undefined) draft.lockIdleSeconds = lockIdleSeconds
          if (sidebarCollapsed !== undefined) draft.sidebarCollapsed = sidebarCollapsed
        })
        if (lockIdleSeconds !== undefined) lock.idleChanged()
        if (live !== undefined) {
          scope.live.settingsChanged()
          if (live.allAccounts !== undefined) keepAccounts()
        }
        if (notifications?.digestAt !== undefined) scope.notifications.armDigest()
        return settingsView()
      },
      'live.status': () => scope.live.status(),
      'live.accounts': () => background.status(),
      'live.pause': ({ minutes }) => scope.live.pause(minutes),
      'live.resume': () => scope.live.resume(),
      'live.signal': ({ online, visible }) => {
        if (online !== undefined) scope.live.setOnline(online)
        // A window shown again catches up at once (two cheap requests a list).
        if (visible === true) scope.live.pollNow()
        return scope.live.status()
      },
      'wallet.start': (input) => wallet.start(input),
      'wallet.cancel': ({ flowId, closed }) => ({ cancelled: wallet.cancel(flowId, closed) }),
      'wallet.history': async ({ limit, ...filter }) => ({
        ...(await wallet.history({ ...filter, limit })),
        running: wallet.running(),
      }),
      'wallet.export': async ({ lang, format, ...filter }) => {
        const { rows } = await wallet.history(filter)
        const timeZone = scope.profile.summary.timeZone
        const { walletHistoryExport } = await import('./wallet/history-csv')
        const data = await walletHistoryExport(rows, { lang, format, timeZone })
        const fileName = `wallet-history-${scope.profile.summary.id}-${today()}${exportExtension(format)}`
        return deliver(format, fileName, data, rows.length)
      },
      'reconcile.list': (query) => scope.store.call('queryReconcile', query),
      'reconcile.export': async ({ kind, member, lang, format }) => {
        const timeZone = scope.profile.summary.timeZone
        const { data, rows } = await scope.store.call('reconcileExport', {
          kind,
          member,
          lang,
          format,
          timeZone,
        })
        const fileName = `reconcile-${kind ?? 'all'}-${scope.profile.summary.id}-${today()}${exportExtension(format)}`
        return deliver(format, fileName, data, rows)
      },
      'dashboard.get': ({ bucket }) => scope.store.call('dashboard', { today: today(), bucket }),
      'team.test': async ({ id }) => {
        const { profiles: views } = await profiles.list()
        const server = views.find((view) => view.id === id)?.team
        if (!server) throw new AppError('not_found', 'This profile has no team server.')
        // A keychain that cannot be read (none, or locked) gives no password to test with.
        let unread: unknown = null
        const password = await vault.teamPassword(id).catch((error: unknown) => {
          unread = error
          return null
        })
        if (password === null) {
          // Nothing to log in with: whether a server answers there is still worth saying first.
          const { probeTeamServer } = await import('./team/connection')
          try {
            await probeTeamServer(server)
          } catch (error) {
            throw AppError.fromData(toTeamError(error).toData())
          }
          if (unread !== null) throw unread
          throw new AppError('team_auth', 'No team server password is stored for this profile.', {
            reason: 'team_no_password',
          })
        }
        try {
          const { testTeamConnection } = await import('./team/session')
          const { members: _members, ...info } = await testTeamConnection(
            teamServerConfig(server, password),
          )
          return info
        } catch (error) {
          throw AppError.fromData(toTeamError(error).toData())
        }
      },
      'team.status': () => scope.team.status,
      'team.setPassword': async ({ id, password, sessionOnly }) => {
        const { profiles: views } = await profiles.list()
        if (!views.some((view) => view.id === id && view.team)) {
          throw new AppError('not_found', 'This profile has no team server.')
        }
        redactor.add(password)
        await vault.setTeamPassword(id, password, { sessionOnly: sessionOnly ?? false })
        if (id === scope.profile.summary.id) await scope.team.restart()
        return scope.team.status
      },
      'team.ackChanged': async (record) => ({
        cleared: await scope.store.call('reviewAckChanged', record),
      }),
      'team.members': () => scope.store.call('teamMembers'),
      'team.setAside': () => scope.store.call('teamListSetAside'),
      'team.discard': async ({ ids }) => {
        const { resources } = await scope.store.call('teamDiscard', {
          ids,
          timeZone: scope.profile.summary.timeZone,
        })
        for (const resource of resources) events.emit('data.changed', { resource })
        return scope.team.recount()
      },
      'presence.set': (at) =>
        scope.team.setPresence(
          at !== null && 'resource' in at ? { resource: at.resource, idx: at.idx } : null,
        ),
      'presence.list': () => scope.team.present,
      'views.list': () => views.list(),
      'views.save': (input) => views.save(input),
      'views.remove': ({ id }) => views.remove(id),
      'views.setLast': ({ resource, filter }) => views.setLast(resource, filter),
      'reviews.history': async (record) => {
        // Opening a record's history is looking at it: a "changed while away" flag clears.
        const history = await scope.store.call('reviewHistory', record)
        const cleared = await scope.store.call('reviewAckChanged', record)
        if (cleared) events.emit('data.changed', { resource: record.resource })
        return history
      },
      'lock.status': () => lock.status(),
      'lock.now': () => lock.lockNow('user'),
      'lock.activity': () => {
        lock.activity()
        return {}
      },
      'lock.unlock': ({ pin }) => lock.unlock(pin),
      'lock.setPin': ({ pin, current }) => lock.setPin(pin, current),
      'lock.removePin': ({ current }) => lock.removePin(current),
      'lock.resetWithSecret': ({ apiSecret }) => lock.resetWithSecret(apiSecret),
      'lock.resetByErasing': () => lock.resetByErasing(),
    },
    { redact: (text) => redactor.redact(text), log, guard: (channel) => lock.guard(channel) },
  )
  // A wallet outcome was just queued for the team (when the profile has one): send it now.
  events.subscribe((event) => {
    if (event === 'wallet.outcome') scope.team.nudge()
  })

  return {
    router,
    events,
    redactor,
    profiles,
    images,
    get sync() {
      return scope.sync
    },
    get live() {
      return scope.live
    },
    background,
    notify: (kind, items, title) => notifier.notify(kind, items, title),
    get storeNotice() {
      return scope.store.notice
    },
    wallet,
    lock,
    language: () => settings.get().language,
    desktop: () => settings.get().desktop,
    linkOrigins: () =>
      linkOrigins({ baseUrl: scope.profile.summary.baseUrl, staticUrl: scope.profile.staticUrl }),
    close() {
      // Through the lifecycle queue, after any switch in progress; every call gets the same answer.
      const done =
        closing ??
        profiles.exclusive(async () => {
          closed = true
          lock.close()
          wallet.cancelAll()
          await images.close()
          await background.close()
          await scope.close()
          await pages.close()
        })
      closing = done
      return done
    },
  }
}
