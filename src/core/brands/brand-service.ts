import type { Brand, BrandRow, BrandSearchResult, Freshness } from '../../shared/domain'
import { AppError } from '../app-error'
import type { PartnerClient } from '../api/client'
import type { EventBus } from '../events'
import { createMatcher } from '../text/hangul-search'

/**
 * The brand list. It is small (a few hundred entries), so it is fetched whole
 * and searched in memory; the answer always says how fresh it is, and when a
 * refresh fails the last good copy is served with the reason.
 */
export class BrandService {
  readonly #client: PartnerClient
  readonly #events: EventBus
  readonly #now: () => Date
  #brands: readonly BrandRow[] | null = null
  #fetchedAt: string | null = null
  #lastError: AppError | null = null
  #inflight: Promise<void> | null = null

  constructor(client: PartnerClient, events: EventBus, now: () => Date) {
    this.#client = client
    this.#events = events
    this.#now = now
  }

  /** Brands whose Korean or English name matches `query`, in the service's order. */
  async search(query: string): Promise<BrandSearchResult> {
    if (this.#brands === null) await this.refreshOnce()
    const brands = this.#brands ?? []
    const matches = createMatcher(query)
    const items = brands.filter((brand) => matches(brand.name, brand.englishName))
    return { items, total: brands.length, freshness: this.#freshness('cache') }
  }

  /** Fetches the list again; on failure keeps the last good copy and reports why. */
  async refresh(): Promise<BrandSearchResult> {
    await this.refreshOnce()
    const brands = this.#brands ?? []
    return { items: brands, total: brands.length, freshness: this.#freshness('live') }
  }

  /** One fetch at a time: concurrent callers share it. Throws only when there is no copy at all. */
  private async refreshOnce(): Promise<void> {
    this.#inflight ??= this.#fetch().finally(() => {
      this.#inflight = null
    })
    await this.#inflight
    if (this.#brands === null && this.#lastError) throw this.#lastError
  }

  async #fetch(): Promise<void> {
    try {
      const { items } = await this.#client.listBrands()
      this.#brands = withSameNameCounts(items)
      this.#fetchedAt = this.#now().toISOString()
      this.#lastError = null
      this.#events.emit('data.changed', { resource: 'brands' })
    } catch (error) {
      this.#lastError =
        error instanceof AppError
          ? error
          : new AppError('internal', 'Brand refresh failed.', { cause: error })
    }
  }

  #freshness(source: Freshness['source']): Freshness {
    return {
      fetchedAt: this.#fetchedAt,
      source: this.#lastError ? 'cache' : source,
      ...(this.#lastError ? { staleBecause: this.#lastError.toData() } : {}),
    }
  }
}

/** Annotates each brand with how many brands share its Korean name. */
function withSameNameCounts(brands: readonly Brand[]): BrandRow[] {
  const counts = new Map<string, number>()
  for (const brand of brands) counts.set(brand.name, (counts.get(brand.name) ?? 0) + 1)
  return brands.map((brand) => ({ ...brand, sameNameCount: counts.get(brand.name) ?? 1 }))
}
