import { mkdirSync } from 'node:fs'
import type { AppInfo, ProfileSummary } from '../shared/domain'
import { PartnerClient, type CredentialSource } from './api/client'
import type { FetchLike } from './api/http'
import { BrandService } from './brands/brand-service'
import { EventBus } from './events'
import { Redactor } from './redact'
import { createRouter, type Router } from './router'
import { APP_NAME } from './paths'

/** The profile the app works on, with the way to get its credentials (held in main only). */
export interface ActiveProfile {
  readonly summary: ProfileSummary
  readonly credentials: CredentialSource
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
}

/** The composed core: one router for both hosts, the event bus, and the redactor for logs. */
export interface Core {
  readonly router: Router
  readonly events: EventBus
  readonly redactor: Redactor
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
  const brands = new BrandService(client, events, now)

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
    },
    { redact: (text) => redactor.redact(text) },
  )

  return {
    router,
    events,
    redactor,
    async close() {
      // Nothing to release yet beyond what the hosts own; later services close here.
    },
  }
}
