import { PartnerClient } from './api/client'
import type { FetchLike } from './api/http'
import { StoreOwner, type StoreThreads } from './owner/store-owner'
import type { ActiveProfile } from './profiles/profile-service'
import { storeFileFor } from './store/paths'

/** What {@link openProfileData} needs of the app. */
export interface ProfileDataDeps {
  readonly fetch: FetchLike
  readonly dataDir: string
  readonly storeWorker: StoreThreads
  readonly now: () => Date
  /** Already redacted by the caller's log where it needs to be. */
  readonly log: (message: string) => void
}

/**
 * A profile's partner client and its cache's owner, as the active profile's
 * scope (`app.ts`) and a background account (`live/background-account.ts`)
 * both open them: one thread owns the profile's file and runs every query
 * and write, opening it in the background (requests sent meanwhile wait for
 * it, in order), and a store from before aging bounds gets them first.
 */
export function openProfileData(
  deps: ProfileDataDeps,
  profile: ActiveProfile,
): { readonly client: PartnerClient; readonly store: StoreOwner } {
  const client = new PartnerClient({
    fetch: deps.fetch,
    target: { baseUrl: profile.summary.baseUrl, partnerId: profile.summary.partnerId },
    credentials: profile.credentials,
    timeoutMs: profile.timeoutMs,
  })
  const store = new StoreOwner({
    file: storeFileFor(deps.dataDir, profile.summary.id),
    threads: deps.storeWorker,
    now: deps.now,
    log: deps.log,
  })
  void store
    .call('fillStatusBounds', { timeZone: profile.summary.timeZone })
    .catch((error: unknown) => deps.log(`aging bounds not filled: ${String(error)}`))
  return { client, store }
}
