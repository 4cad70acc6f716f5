import { QueryClient } from '@tanstack/svelte-query'
import type { Client } from './client'
import { listKey, type ListResource } from './list-query.svelte'

/**
 * The app's one query cache. Answers come from the local store, so they stay
 * fresh until an event says otherwise: no refetch on focus or on a timer, no
 * retries (a failed local call fails the same way again).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        gcTime: 5 * 60_000,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  })
}

/** Query key of every brand search (`[...brandsKey, text]`). */
export const brandsKey = ['brands'] as const

/** Query key of the profile list (`profiles.list`). */
export const profilesKey = ['profiles'] as const

/** Query key of the rejected records of one filter (`'all'` or a resource); without one, of every filter. */
export function rejectedKey(filter?: string): readonly unknown[] {
  return filter === undefined ? ['rejected'] : ['rejected', filter]
}

function isList(resource: string): resource is ListResource {
  return resource === 'inspections' || resource === 'guarantees'
}

/**
 * Wires the core's events to the cache: `data.changed` invalidates every list
 * (or brand search) of that resource, and one whose first answer was on its
 * way asks again once it lands. It is a list's one refresh path, during a
 * sync too (the sync sends it as its pages commit, a few times a second at
 * most); a sync's end refreshes that resource's lists once more (their
 * freshness changed, if nothing else) and the rejected records.
 * `profiles.changed` resets everything (another profile is another cache).
 * Returns the unsubscribe.
 */
export function connectInvalidation(client: Client, queryClient: QueryClient): () => void {
  const cache = queryClient.getQueryCache()
  /**
   * Queries whose first answer was on its way when their data changed. A
   * query without data joins the fetch under way instead of restarting it,
   * and that answer may have been read before the change: such a query asks
   * again once it lands.
   */
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
      const queryKey = isList(resource) ? listKey(resource) : brandsKey
      for (const query of cache.findAll({ queryKey, fetchStatus: 'fetching' }))
        if (query.state.data === undefined) overtaken.add(query.queryHash)
      void queryClient.invalidateQueries({ queryKey })
    }),
    client.on('sync.progress', (event) => {
      // A finished sync may have refused records: the rejected list asks again.
      if (event.phase !== 'running' && event.resource !== 'brands')
        void queryClient.invalidateQueries({ queryKey: rejectedKey() })
      // While it runs, its committed pages reach the lists through `data.changed`.
      if (event.phase === 'running' || !isList(event.resource)) return
      void queryClient.invalidateQueries({ queryKey: listKey(event.resource) })
    }),
    client.on('profiles.changed', () => {
      // The profile list is the app's, not a profile's: it reloads in place (no blank frame).
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== profilesKey[0] })
      void queryClient.invalidateQueries({ queryKey: profilesKey })
    }),
  ]
  return () => offs.forEach((off) => off())
}
