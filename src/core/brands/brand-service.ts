import type { BrandSearchResult, Freshness } from '../../shared/domain'
import type { AppError } from '../app-error'
import type { StoreClient } from '../owner/store-owner'
import type { SyncEngine } from '../sync/sync-engine'

/**
 * The brand list, kept in the store like every other resource. It is small
 * (a few hundred entries), so it is fetched whole and searched in memory; the
 * answer always says how fresh it is, and when a refresh fails the last good
 * copy is served with the reason.
 */
export class BrandService {
  readonly #store: StoreClient
  readonly #sync: SyncEngine

  constructor(store: StoreClient, sync: SyncEngine) {
    this.#store = store
    this.#sync = sync
  }

  /**
   * Brands whose Korean or English name matches `query`, in the service's
   * order, always from what is stored: it never waits for the service. When
   * the list was never fetched the answer says so and a fetch starts in the
   * background (at most one at a time; the sync queue keeps them apart),
   * unless the last fetch failed.
   */
  async search(query: string): Promise<BrandSearchResult> {
    const answer = await this.#answer(query, 'cache')
    if (answer.freshness.fetchedAt !== null) return answer
    // After a failed fetch a search does not ask again: each search would queue another fetch
    // behind the lists, and a slow service would keep the brand list "syncing" for minutes.
    // The live schedule (with its backoff) or a Sync asked for by staff tries again.
    if (answer.freshness.staleBecause === undefined) this.#sync.enqueue(['brands'])
    return { ...answer, notLoaded: true }
  }

  /** Fetches the list again; on failure keeps the last good copy and reports why. */
  async refresh(): Promise<BrandSearchResult> {
    const error = await this.#refresh()
    return this.#answer('', error ? 'cache' : 'live')
  }

  /** Runs the brand sync; throws only when it failed and there is no copy at all. */
  async #refresh(): Promise<AppError | undefined> {
    const [outcome] = await this.#sync.run(['brands'])
    const error = outcome?.error
    if (!error) return undefined
    const state = await this.#store.call('readSyncState', 'brands')
    if (state.lastSuccessAt === null) throw error
    return error
  }

  async #answer(query: string, source: Freshness['source']): Promise<BrandSearchResult> {
    const { items, total, state } = await this.#store.call('searchBrands', query)
    return {
      items,
      total,
      freshness: {
        fetchedAt: state.lastSuccessAt,
        source: state.lastError ? 'cache' : source,
        ...(state.lastError ? { staleBecause: state.lastError } : {}),
      },
    }
  }
}
