import { mkdirSync } from 'node:fs'
import type { AppInfo } from '../shared/domain'
import { PartnerClient } from './api/client'
import type { FetchLike } from './api/http'
import { BrandService } from './brands/brand-service'
import { EventBus } from './events'
import { Redactor } from './redact'
import { createRouter, type Router } from './router'
import { APP_NAME } from './paths'
import { ProfileService, type ActiveProfile, type BuiltinProfile } from './profiles/profile-service'
import { SettingsService } from './settings/settings'
import type { OpenSettingsFile } from './settings/settings-file'
import type { SecureStore } from './vault/secure-store'
import { Vault } from './vault/vault'

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
}

/** The composed core: one router for both hosts, the event bus, and the redactor for logs. */
export interface Core {
  readonly router: Router
  readonly events: EventBus
  readonly redactor: Redactor
  readonly profiles: ProfileService
  close(): Promise<void>
}

/** What depends on the active profile; rebuilt when the user switches profiles. */
interface ProfileScope {
  readonly profile: ActiveProfile
  readonly client: PartnerClient
  readonly brands: BrandService
  close(): Promise<void>
}

/** The composition root: builds every core service once from injected parts. */
export function createCore(deps: CoreDeps): Core {
  mkdirSync(deps.dataDir, { recursive: true })
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

  const buildScope = (profile: ActiveProfile): ProfileScope => {
    const client = new PartnerClient({
      fetch: deps.fetch,
      target: { baseUrl: profile.summary.baseUrl, partnerId: profile.summary.partnerId },
      credentials: profile.credentials,
    })
    return {
      profile,
      client,
      brands: new BrandService(client, events, now),
      async close() {
        // Nothing to release yet; the per-profile cache closes here.
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
      const previous = scope
      scope = buildScope(active)
      await previous.close()
    },
    onListChange: (activeId) => events.emit('profiles.changed', { activeId }),
  })
  scope = buildScope(profiles.active())

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
      'profiles.list': () => profiles.list(),
      'profiles.save': (input) => profiles.save(input),
      'profiles.setSecret': (input) => profiles.setSecret(input),
      'profiles.remove': ({ id, deleteCache }) => profiles.remove(id, deleteCache),
      'profiles.select': ({ id }) => profiles.select(id),
      'profiles.test': ({ id }) => profiles.test(id),
      'settings.get': () => ({ notices: settings.notices, path: settings.path }),
    },
    { redact: (text) => redactor.redact(text), log },
  )

  return {
    router,
    events,
    redactor,
    profiles,
    async close() {
      await scope.close()
    },
  }
}
