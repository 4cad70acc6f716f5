import { join } from 'node:path'
import type { AppInfo } from '../shared/domain'
import type { SettingsView } from '../shared/profiles'
import { PartnerClient } from './api/client'
import type { FetchLike } from './api/http'
import { BrandService } from './brands/brand-service'
import { EventBus } from './events'
import { tightenDataDir } from './fs-private'
import { ImageCache } from './images/image-cache'
import { createImageHostPolicy } from './images/url-policy'
import { Checkpointer } from './store/checkpointer'
import { openStore, storeFileFor, type OpenedStore, type StoreNotice } from './store/database'
import { inlinePageWriter, workerPageWriter } from './store/page-writer'
import { queryGuarantees, queryInspections } from './store/queries'
import { listRejected } from './store/rejected'
import { setReview } from './store/reviews'
import { localTimestamp } from '../shared/local-time'
import { listCsv, listCsvName } from './export/list-csv'
import { clientSyncSource } from './sync/client-source'
import { SyncEngine } from './sync/sync-engine'
import { Redactor } from './redact'
import { linkOrigins } from './security/policy'
import { createRouter, type Router } from './router'
import { APP_NAME } from './paths'
import { ProfileService, type ActiveProfile, type BuiltinProfile } from './profiles/profile-service'
import { SettingsService } from './settings/settings'
import type { OpenSettingsFile } from './settings/settings-file'
import type { SecureStore } from './vault/secure-store'
import { Vault } from './vault/vault'
import { walletHistoryCsv } from './wallet/history-csv'
import { DEFAULT_WALLET_TIMEOUT_MS, WalletService } from './wallet/wallet-service'

export type { ActiveProfile } from './profiles/profile-service'

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
  /** Most decoded pixels of one card image, all frames together (default 40 megapixels). */
  readonly imageMaxPixels?: number
  /** The built cache-writer thread; without it sync writes on the main thread. */
  readonly writerWorker?: { readonly url: URL; readonly execArgv?: readonly string[] }
  /**
   * Sync the active profile in the background at start and after every
   * switch (the hosts turn it on; tests leave it off and sync explicitly).
   */
  readonly autoSync?: boolean
  /**
   * Saves an export through the host's save dialog (Electron); answers the
   * chosen path, or null when the user cancelled. Without it the CSV text is
   * answered for the browser to download (web host).
   */
  readonly saveFile?: (fileName: string, text: string) => Promise<string | null>
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
  /** Set when the active profile's cache file was unreadable and had to be rebuilt. */
  readonly storeNotice: StoreNotice | null
  /** The wallet-link flows (hosts wire their window or popup to it). */
  readonly wallet: WalletService
  /** Where the system browser may be sent (after asking): the active profile's https hosts and the docs host. */
  linkOrigins(): string[]
  close(): Promise<void>
}

/** What depends on the active profile: its client, cache file, sync engine and brand list. */
interface ProfileScope {
  readonly profile: ActiveProfile
  readonly store: OpenedStore
  readonly sync: SyncEngine
  readonly brands: BrandService
  close(): Promise<void>
}

/** The composition root: builds every core service once from injected parts. */
export function createCore(deps: CoreDeps): Core {
  // Owner-only data folder (0700, files 0600); one left open by an older version is tightened.
  tightenDataDir(deps.dataDir)
  const now = deps.now ?? (() => new Date())
  const log = deps.log ?? ((message: string) => console.warn(message))
  const events = new EventBus()
  const redactor = new Redactor()
  const settings = SettingsService.open({
    dataDir: deps.dataDir,
    open: deps.openSettings,
    now,
    log,
  })
  const vault = new Vault({
    keychain: deps.keychain,
    ...(deps.keychainService === undefined ? {} : { service: deps.keychainService }),
    ...(deps.keychainTimeoutMs === undefined ? {} : { timeoutMs: deps.keychainTimeoutMs }),
    log: (message) => log(redactor.redact(message)),
  })

  /** Opens everything that belongs to one profile; one cache database per profile (FAULTS 23, 29). */
  const buildScope = (profile: ActiveProfile): ProfileScope => {
    const client = new PartnerClient({
      fetch: deps.fetch,
      target: { baseUrl: profile.summary.baseUrl, partnerId: profile.summary.partnerId },
      credentials: profile.credentials,
      timeoutMs: profile.timeoutMs,
    })
    const storeFile = storeFileFor(deps.dataDir, profile.summary.id)
    const store = openStore(storeFile, { now, autoCheckpoint: false })
    const checkpointer = new Checkpointer(storeFile)
    const db = () => store.db
    // Sync writes in its own thread when the host gives one, so the main process never blocks.
    const writer = deps.writerWorker
      ? workerPageWriter({
          file: storeFile,
          workerUrl: deps.writerWorker.url,
          ...(deps.writerWorker.execArgv ? { execArgv: deps.writerWorker.execArgv } : {}),
          mainDb: db,
        })
      : inlinePageWriter(db)
    const sync = new SyncEngine({
      db,
      source: clientSyncSource(client),
      events,
      now,
      writer,
      afterPage: () => checkpointer.request(),
    })
    return {
      profile,
      store,
      sync,
      brands: new BrandService(db, sync),
      async close() {
        sync.cancel()
        await sync.idle()
        await writer.close()
        await checkpointer.close()
        store.db.close()
      },
    }
  }

  const redactSecrets = (found: { apiKey: string; apiSecret: string }): void => {
    redactor.add(found.apiKey)
    redactor.add(found.apiSecret)
  }
  redactSecrets(deps.sandbox.credentials)

  let scope: ProfileScope
  const profiles = new ProfileService({
    settings,
    vault,
    sandbox: deps.sandbox,
    fetch: deps.fetch,
    dataDir: deps.dataDir,
    onSecret: redactSecrets,
    onActiveChange: async (active) => {
      // A flow belongs to the profile it started on: switching ends it.
      wallet.cancelAll()
      const previous = scope
      await previous.close()
      scope = buildScope(active)
      if (deps.autoSync) scope.sync.start()
    },
    onListChange: (activeId) => events.emit('profiles.changed', { activeId }),
  })
  scope = buildScope(profiles.active())

  const wallet = new WalletService({
    events,
    profile: () => scope.profile,
    db: () => scope.store.db,
    now,
    log: (message) => log(redactor.redact(message)),
    redact: (text) => redactor.redact(text),
    timeoutMs: () => settings.get().walletTimeoutMinutes * 60_000 || DEFAULT_WALLET_TIMEOUT_MS,
  })
  if (deps.autoSync) scope.sync.start()

  // Card images come only from the active profile's image host (FAULTS 32).
  const images = new ImageCache({
    dir: join(deps.dataDir, 'images'),
    fetch: deps.fetch,
    policy: () => createImageHostPolicy(scope.profile.staticUrl ? [scope.profile.staticUrl] : []),
    ...(deps.imageCacheBytes ? { maxTotalBytes: deps.imageCacheBytes } : {}),
    ...(deps.imageMaxPixels ? { maxPixels: deps.imageMaxPixels } : {}),
  })

  const withNotice = <T extends object>(status: T) => {
    const notice = scope.store.notice
    return notice
      ? { ...status, notice: { code: notice.code, message: notice.message, at: notice.at } }
      : status
  }

  const settingsView = (): SettingsView => {
    const { theme, reviewerName } = settings.get()
    return {
      notices: settings.notices,
      path: settings.path,
      dataDir: deps.dataDir,
      theme,
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
      'sync.rejected': (query) => listRejected(scope.store.db, query),
      'inspections.query': (query) => {
        scope.sync.ensureSlice('inspections', {
          ...(query.member ? { refUserId: query.member } : {}),
          ...(typeof query.status === 'string' ? { status: query.status } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        })
        return queryInspections(scope.store.db, query)
      },
      'guarantees.query': (query) => {
        scope.sync.ensureSlice('guarantees', {
          ...(query.member ? { refUserId: query.member } : {}),
          ...(query.state ? { nftStatus: query.state } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        })
        return queryGuarantees(scope.store.db, query)
      },
      'reviews.set': ({ resource, idx, mark, note }) => {
        const reviewer = settings.get().reviewerName.trim()
        const saved = setReview(scope.store.db, {
          resource,
          idx,
          mark,
          note,
          by: reviewer === '' ? null : reviewer,
          at: localTimestamp(now(), scope.profile.summary.timeZone),
        })
        events.emit('data.changed', { resource })
        return saved
      },
      'lists.export': async ({ resource, lang, ...query }) => {
        const timeZone = scope.profile.summary.timeZone
        const job = { resource, lang, query, asOf: localTimestamp(now(), timeZone), timeZone }
        const { csv, rows } = listCsv(scope.store.db, job)
        const fileName = listCsvName(job, scope.profile.summary.id)
        if (!deps.saveFile) return { kind: 'download', rows, fileName, csv }
        const path = await deps.saveFile(fileName, csv)
        return path === null
          ? { kind: 'cancelled', rows, fileName }
          : { kind: 'saved', rows, fileName, path }
      },
      'profiles.list': () => profiles.list(),
      'profiles.save': (input) => profiles.save(input),
      'profiles.setSecret': (input) => profiles.setSecret(input),
      'profiles.remove': ({ id, deleteCache }) => profiles.remove(id, deleteCache),
      'profiles.select': ({ id }) => profiles.select(id),
      'profiles.test': ({ id }) => profiles.test(id),
      'images.status': ({ url }) => ({ problem: images.problemOf(url)?.toData() ?? null }),
      'settings.get': () => settingsView(),
      'settings.set': ({ theme, reviewerName }) => {
        settings.update((draft) => {
          if (theme !== undefined) draft.theme = theme
          if (reviewerName !== undefined) draft.reviewerName = reviewerName
        })
        return settingsView()
      },
      'wallet.start': (input) => wallet.start(input),
      'wallet.cancel': ({ flowId, closed }) => ({ cancelled: wallet.cancel(flowId, closed) }),
      'wallet.history': ({ limit, ...filter }) => ({
        ...wallet.history({ ...filter, limit }),
        running: wallet.running(),
      }),
      'wallet.export': async ({ lang, ...filter }) => {
        const { rows } = wallet.history(filter)
        const csv = walletHistoryCsv(rows, lang)
        const fileName = `wallet-history-${scope.profile.summary.id}-${now().toISOString().slice(0, 10)}.csv`
        if (!deps.saveFile) return { kind: 'download', rows: rows.length, fileName, csv }
        const path = await deps.saveFile(fileName, csv)
        return path === null
          ? { kind: 'cancelled', rows: rows.length, fileName }
          : { kind: 'saved', rows: rows.length, fileName, path }
      },
    },
    { redact: (text) => redactor.redact(text), log },
  )

  return {
    router,
    events,
    redactor,
    profiles,
    images,
    get sync() {
      return scope.sync
    },
    get storeNotice() {
      return scope.store.notice
    },
    wallet,
    linkOrigins: () =>
      linkOrigins({ baseUrl: scope.profile.summary.baseUrl, staticUrl: scope.profile.staticUrl }),
    async close() {
      wallet.cancelAll()
      images.close()
      await scope.close()
    },
  }
}
