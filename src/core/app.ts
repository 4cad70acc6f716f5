import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { AppInfo, ProfileSummary } from '../shared/domain'
import { PartnerClient, type CredentialSource } from './api/client'
import type { FetchLike } from './api/http'
import { BrandService } from './brands/brand-service'
import { EventBus } from './events'
import { ImageCache } from './images/image-cache'
import { createImageHostPolicy } from './images/url-policy'
import { Checkpointer } from './store/checkpointer'
import { openStore, storeFileFor, type StoreNotice } from './store/database'
import { inlinePageWriter, workerPageWriter } from './store/page-writer'
import { queryGuarantees, queryInspections } from './store/queries'
import { clientSyncSource } from './sync/client-source'
import { SyncEngine } from './sync/sync-engine'
import { Redactor } from './redact'
import { createRouter, type Router } from './router'
import { APP_NAME } from './paths'

/** The profile the app works on, with the way to get its credentials (held in main only). */
export interface ActiveProfile {
  readonly summary: ProfileSummary
  readonly credentials: CredentialSource
  /** Origins card images may come from (the spec's `{static_url}`); https, or the sandbox's loopback. */
  readonly imageOrigins?: readonly string[]
}

/** The injected parts core is built from; tests pass real ones where they can. */
export interface CoreDeps {
  /** Electron's `net.fetch` in the app; Node's `fetch` in tests and the web host. */
  readonly fetch: FetchLike
  /** Folder for settings, cache and images; created if missing. */
  readonly dataDir: string
  readonly host: AppInfo['host']
  readonly version: string
  readonly profile: ActiveProfile
  readonly now?: () => Date
  /** Cap of the card-image cache in bytes (default 1 GB). */
  readonly imageCacheBytes?: number
  /** The built cache-writer thread; without it sync writes on the main thread. */
  readonly writerWorker?: { readonly url: URL; readonly execArgv?: readonly string[] }
}

/** The composed core: one router for both hosts, the event bus, and the redactor for logs. */
export interface Core {
  readonly router: Router
  readonly events: EventBus
  readonly redactor: Redactor
  /** Card images for the `card:` protocol and the web host's `/card/` route. */
  readonly images: ImageCache
  readonly sync: SyncEngine
  /** Set when the cache file was unreadable and had to be rebuilt at start. */
  readonly storeNotice: StoreNotice | null
  close(): Promise<void>
}

/** The composition root: builds every core service once from injected parts. */
export function createCore(deps: CoreDeps): Core {
  mkdirSync(deps.dataDir, { recursive: true })
  const now = deps.now ?? (() => new Date())
  const events = new EventBus()
  const redactor = new Redactor()
  const credentials: CredentialSource = async () => {
    const found = await deps.profile.credentials()
    redactor.add(found.apiKey)
    redactor.add(found.apiSecret)
    return found
  }
  const client = new PartnerClient({
    fetch: deps.fetch,
    target: { baseUrl: deps.profile.summary.baseUrl, partnerId: deps.profile.summary.partnerId },
    credentials,
  })
  // One cache database per profile (FAULTS 23, 29: a bad file is moved aside and rebuilt).
  const storeFile = storeFileFor(deps.dataDir, deps.profile.summary.id)
  const store = openStore(storeFile, { now, autoCheckpoint: false })
  const checkpointer = new Checkpointer(storeFile)
  const db = () => store.db
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
  const brands = new BrandService(db, sync)
  const images = new ImageCache({
    dir: join(deps.dataDir, 'images'),
    fetch: deps.fetch,
    policy: () => createImageHostPolicy(deps.profile.imageOrigins ?? []),
    ...(deps.imageCacheBytes ? { maxTotalBytes: deps.imageCacheBytes } : {}),
  })
  const withNotice = <T extends object>(status: T) =>
    store.notice
      ? {
          ...status,
          notice: { code: store.notice.code, message: store.notice.message, at: store.notice.at },
        }
      : status

  const router = createRouter(
    {
      'app.info': () => ({
        name: APP_NAME,
        version: deps.version,
        host: deps.host,
        profile: deps.profile.summary,
      }),
      'brands.search': ({ query }) => brands.search(query),
      'brands.refresh': () => brands.refresh(),
      'sync.start': ({ resources, mode }) => withNotice(sync.start(resources, mode)),
      'sync.cancel': () => withNotice(sync.cancel()),
      'sync.status': () => withNotice(sync.status()),
      'inspections.query': (query) => {
        sync.ensureSlice('inspections', {
          ...(query.member ? { refUserId: query.member } : {}),
          ...(typeof query.status === 'string' ? { status: query.status } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        })
        return queryInspections(store.db, query)
      },
      'guarantees.query': (query) => {
        sync.ensureSlice('guarantees', {
          ...(query.member ? { refUserId: query.member } : {}),
          ...(query.state ? { nftStatus: query.state } : {}),
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
        })
        return queryGuarantees(store.db, query)
      },
    },
    { redact: (text) => redactor.redact(text) },
  )

  return {
    router,
    events,
    redactor,
    images,
    sync,
    storeNotice: store.notice,
    async close() {
      sync.cancel()
      await sync.idle()
      images.close()
      await writer.close()
      await checkpointer.close()
      store.db.close()
    },
  }
}
