import {
  createInfiniteQuery,
  keepPreviousData,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/svelte-query'
import { isPagedResource, type PagedResourceName } from '../../../shared/resources'
import type { ChannelArgs, ChannelResult } from '../../../shared/contract'
import {
  compactFilter,
  emptyListFilter,
  narrowsList,
  type ListFilter,
  type ListFilterInput,
} from '../../../shared/list-filter'
import type { ErrorData } from '../../../shared/errors'
import { errorData, type Client } from './client'
import { brandsKey } from './query-client'
import type { JumpSource } from './navigation'

/** The resources shown as cached lists. */
export type ListResource = PagedResourceName
/** The query channel of a list resource. */
type ListChannel<R extends ListResource> = `${R}.query`
/**
 * The IPC arguments of a list query, as the contract declares them.
 * @internal
 */
export type ListArgs<R extends ListResource> = ChannelArgs<ListChannel<R>>
/** One page of a list query, as the contract declares it. */
export type ListPage<R extends ListResource> = ChannelResult<ListChannel<R>>
/** A row of a list resource. */
export type ListRow<R extends ListResource> = ListPage<R>['rows'][number]

/**
 * The filters a list screen edits: the list filter as declared once
 * (`src/shared/list-filter.ts`), without paging. An absent field (or an
 * empty text) narrows nothing.
 */
export type ListFilters = ListFilter

/** Rows of the first page: what fills a screen or two, so the first rows come fast. */
const FIRST_PAGE_SIZE = 100
/** Rows of every later keyset page: large, so a fast scroll rarely waits on a page boundary. */
const PAGE_SIZE = 500

/** Filters with nothing narrowing the list. */
export function emptyFilters(sort: ListFilters['sort'] = 'latest'): ListFilters {
  return emptyListFilter(sort)
}

/** The filter fields set by `filters` (empty ones left out, the text trimmed), as a list query and the export take them. */
export function filterArgs(filters: ListFilters): ListFilterInput {
  const { q, ...args } = compactFilter($state.snapshot(filters) as ListFilters)
  const text = q.trim()
  return text ? { ...args, q: text } : args
}

/**
 * The IPC arguments of a list query built from the filters (empty ones left out).
 * @internal
 */
export function listArgs<R extends ListResource>(
  filters: ListFilters,
  cursor: string | null,
  limit = PAGE_SIZE,
): ListArgs<R> {
  const args = { ...filterArgs(filters), limit, ...(cursor ? { cursor } : {}) }
  // Both list channels share these parameters (guarantees add only `state`).
  return args as ListArgs<R>
}

/** The query key of a list: `['list', resource, args]`; `['list', resource]` addresses all of a resource's lists. */
function listKey(resource: ListResource, filters?: ListFilters): readonly unknown[] {
  return filters ? ['list', resource, listArgs(filters, null)] : ['list', resource]
}

/**
 * A list's queries, sent one at a time: one asked while another is on its
 * way waits for it, and is not sent at all if the query layer dropped it
 * meanwhile (TanStack aborts the signal of a query that no screen shows,
 * as when a newer text replaced it). Typing faster than the store answers
 * then sends the latest text once the store is free, not one query per key
 * for it to work through. One asked while none is on its way is sent at
 * once, in the same task: a key's query leaves before the screen updates
 * for the key, not after.
 * @internal
 */
export class OneAtATime {
  /** Settles when the last query sent or waiting has; null when none is. */
  #last: Promise<void> | null = null

  send<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    const start = (): Promise<T> => {
      signal.throwIfAborted()
      return call()
    }
    const turn: Promise<T> =
      this.#last === null ? new Promise<T>((resolve) => resolve(start())) : this.#last.then(start)
    const settled: Promise<void> = turn.then(
      () => this.#free(settled),
      () => this.#free(settled),
    )
    this.#last = settled
    return turn
  }

  #free(settled: Promise<void>): void {
    if (this.#last === settled) this.#last = null
  }
}

/**
 * One cached list screen: its filters and the keyset pages loaded so far,
 * through the shared query layer. Each filter is its own query key, so an
 * answer that arrives late for an old filter lands in that filter's cache
 * entry and never replaces what the current filter shows; while the new
 * filter loads, the previous rows stay (marked `loading`) instead of a blank.
 */
export class ListQueryState<R extends ListResource> {
  filters = $state<ListFilters>(emptyFilters())
  /**
   * Set while the filter is one a jump from another screen applied (shown
   * as a removable chip, never kept as the list's last filter).
   */
  jump = $state<JumpSource | null>(null)
  readonly resource: R
  readonly #query
  readonly #queue = new OneAtATime()

  constructor(client: Client, resource: R, queryClient?: QueryClient) {
    this.resource = resource
    const channel = `${resource}.query` as ListChannel<R>
    this.#query = createInfiniteQuery<
      ListPage<R>,
      Error,
      InfiniteData<ListPage<R>, string | null>,
      readonly unknown[],
      string | null
    >(
      () => ({
        queryKey: listKey(resource, this.filters),
        queryFn: ({ pageParam, signal }) => {
          const args = listArgs<R>(
            $state.snapshot(this.filters),
            pageParam,
            pageParam ? PAGE_SIZE : FIRST_PAGE_SIZE,
          )
          return this.#queue.send(signal, () => client.call(channel, args))
        },
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
        placeholderData: keepPreviousData,
        // Pages are only ever appended; comparing every loaded row on each new page
        // (TanStack's structural sharing) would cost O(rows loaded) per page.
        structuralSharing: false,
      }),
      queryClient ? () => queryClient : undefined,
    )
  }

  /** Every row loaded so far, in order. */
  readonly rows: readonly ListRow<R>[] = $derived.by(() => {
    const pages: readonly { readonly rows: readonly ListRow<R>[] }[] = this.#query.data?.pages ?? []
    return pages.length === 1 ? pages[0]!.rows : pages.flatMap((page) => page.rows)
  })

  /**
   * Whether any record of the filter, or any row loaded, has a mark or a
   * note: the review column is only as wide as its header until one does.
   */
  readonly anyReview: boolean = $derived.by(() => {
    const counts = this.#query.data?.pages[0]?.reviewCounts
    return (
      (counts !== undefined && counts.reviewed + counts.follow_up > 0) ||
      this.rows.some((row) => row.review !== null)
    )
  })

  /** Whether any row loaded is assigned to someone (the assignee column's width). */
  readonly anyAssigned: boolean = $derived(this.rows.some((row) => row.assignedTo !== undefined))

  /**
   * The first page: its counts, total and freshness are those of the whole
   * filter, read in the same answer as the rows at the top. A refetch reads
   * the loaded pages one after the other, so a later page may count a
   * change (a mark) that the rows above it do not show yet; the change's own
   * `data.changed` refetches them all, and until then the counts shown
   * agree with the rows shown.
   */
  get page(): ListPage<R> | null {
    return this.#query.data?.pages[0] ?? null
  }

  /** Records matching the whole filter (not only those loaded). */
  get total(): number {
    return this.page?.total ?? 0
  }

  /**
   * True when {@link total} and the page's counts are only a lower bound: a
   * very short text (one character, two initials, one or two digits) is
   * counted over its first matches only.
   */
  get totalIsLowerBound(): boolean {
    return this.page?.totalIsLowerBound === true
  }

  /** True until the current filter's first answer arrived (old rows may still show). */
  get loading(): boolean {
    return this.#query.isPending || this.#query.isPlaceholderData
  }

  get loadingMore(): boolean {
    return this.#query.isFetchingNextPage
  }

  get hasMore(): boolean {
    return this.#query.hasNextPage && !this.#query.isPlaceholderData
  }

  get error(): ErrorData | null {
    return this.#query.error ? errorData(this.#query.error) : null
  }

  /**
   * Loads the next keyset page unless any fetch of this list is on its way.
   * A refetch (after `data.changed`) must land first: asking the next page
   * meanwhile would cancel it (TanStack's `cancelRefetch`) and append a
   * fresh page to the rows read before the change, which then stay. The
   * grid asks again once the refetched rows are shown.
   */
  loadMore(): void {
    if (this.hasMore && !this.#query.isFetching)
      void this.#query.fetchNextPage({ cancelRefetch: false })
  }

  /** Asks again (after an error). */
  retry(): void {
    void this.#query.refetch()
  }

  /** `aria-sort` of the date column: the store sorts by registration time (not while `aged`). */
  get dateOrder(): 'ascending' | 'descending' | undefined {
    if (this.filters.sort === 'aged') return undefined
    return this.filters.sort === 'latest' ? 'descending' : 'ascending'
  }

  /** Flips the date order (newest first ↔ oldest first); from `aged`, newest first. */
  toggleSort(): void {
    this.filters.sort = this.filters.sort === 'latest' ? 'oldest' : 'latest'
  }

  /** Clears every filter except the sort (a jump's too). */
  resetFilters(): void {
    this.filters = emptyFilters(this.filters.sort)
    this.jump = null
  }

  /** True when any filter narrows the list. */
  get filtered(): boolean {
    return narrowsList(this.filters)
  }
}

/**
 * Wires `data.changed` to the lists' cache entries. It is the one way a list
 * (or the brand search) learns that its answer is out of date: it invalidates
 * every query of that resource, and one whose first answer was on its way
 * asks again once it lands. A sync reaches the lists the same way: the core
 * says `data.changed` when a sync starts, after its pages are written
 * (at most every 400 ms) and when it ends, because the answers carry the
 * freshness too. Returns the unsubscribe.
 */
export function connectListRefresh(client: Client, queryClient: QueryClient): () => void {
  const cache = queryClient.getQueryCache()
  /**
   * Queries whose first answer was on its way when their data changed. A
   * query without data joins the fetch under way instead of restarting it,
   * and that answer may have been read before the change: such a query asks
   * again once it lands. Bookkeeping, never shown: a plain set.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  const overtaken = new Set<string>()
  const offs = [
    cache.subscribe((event) => {
      const hash = event.query.queryHash
      if (!overtaken.has(hash)) return
      if (event.type === 'removed') overtaken.delete(hash)
      if (event.type !== 'updated') return
      if (event.action.type === 'error') overtaken.delete(hash)
      if (event.action.type !== 'success') return
      overtaken.delete(hash)
      void queryClient.invalidateQueries({ queryKey: event.query.queryKey, exact: true })
    }),
    client.on('data.changed', ({ resource }) => {
      const queryKey = isPagedResource(resource) ? listKey(resource) : brandsKey
      for (const query of cache.findAll({ queryKey, fetchStatus: 'fetching' }))
        if (query.state.data === undefined) overtaken.add(query.queryHash)
      void queryClient.invalidateQueries({ queryKey })
    }),
  ]
  return () => offs.forEach((off) => off())
}
