import type { QueryPage } from '../../../shared/cache'
import type { ErrorData, Result } from '../../../shared/errors'

/** Filters every list screen offers, mirroring the API's parameters. */
export interface ListFilters {
  /** Free text: product name, numbers, member, ref codes; Korean (초성 too) or English. */
  q: string
  /** A status label; `null` selects records without one; `undefined` every status. */
  status: string | null | undefined
  from: string
  to: string
  sort: 'latest' | 'oldest'
}

/** Fetches one page for the filters; `cursor` is null for the first page. */
export type PageLoader<Row> = (
  filters: ListFilters,
  cursor: string | null,
) => Promise<Result<QueryPage<Row>>>

/**
 * State of one list screen: filters, the rows loaded so far (keyset pages
 * appended), counts per status, freshness, loading and error. Filter changes
 * reload from the first page; answers that arrive late for an old filter are
 * dropped.
 */
export class ListController<Row> {
  filters = $state<ListFilters>({ q: '', status: undefined, from: '', to: '', sort: 'latest' })
  rows = $state.raw<readonly Row[]>([])
  page = $state.raw<QueryPage<Row> | null>(null)
  loading = $state(false)
  loadingMore = $state(false)
  error = $state.raw<ErrorData | null>(null)
  readonly #load: PageLoader<Row>
  #generation = 0

  constructor(load: PageLoader<Row>) {
    this.#load = load
  }

  /** True when more rows exist beyond those loaded. */
  get hasMore(): boolean {
    return this.page?.nextCursor != null
  }

  /**
   * Marks the list as about to reload (filters changed; the reload is
   * debounced). Answers still in flight were asked with the old filters, so
   * they are discarded when they arrive.
   */
  markPending(): void {
    this.#generation += 1
    this.loading = true
  }

  /** Reloads the first page for the current filters. */
  async reload(): Promise<void> {
    const generation = ++this.#generation
    this.loading = true
    const answer = await this.#load($state.snapshot(this.filters) as ListFilters, null)
    if (generation !== this.#generation) return
    this.loading = false
    if (answer.ok) {
      this.page = answer.value
      this.rows = answer.value.rows
      this.error = null
    } else {
      this.error = answer.error
    }
  }

  /** Appends the next page. */
  async loadMore(): Promise<void> {
    const cursor = this.page?.nextCursor
    if (!cursor || this.loadingMore) return
    const generation = this.#generation
    this.loadingMore = true
    const answer = await this.#load($state.snapshot(this.filters) as ListFilters, cursor)
    this.loadingMore = false
    if (generation !== this.#generation) return
    if (answer.ok) {
      this.page = answer.value
      this.rows = [...this.rows, ...answer.value.rows]
      this.error = null
    } else {
      this.error = answer.error
    }
  }

  /** Clears every filter. */
  resetFilters(): void {
    this.filters = { q: '', status: undefined, from: '', to: '', sort: this.filters.sort }
  }

  /** True when any filter narrows the list. */
  get filtered(): boolean {
    const f = this.filters
    return f.q.trim() !== '' || f.status !== undefined || f.from !== '' || f.to !== ''
  }
}

/** The IPC arguments of a list query built from the filters (empty ones left out). */
export function listArgs(
  filters: ListFilters,
  cursor: string | null,
  limit = 50,
): Record<string, unknown> {
  return {
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
    ...(filters.status !== undefined ? { status: filters.status } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    sort: filters.sort,
    limit,
    ...(cursor ? { cursor } : {}),
  }
}
