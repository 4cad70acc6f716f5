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
 * Wires the core's events to the cache. `data.changed` is the one way a list
 * (or brand search) learns that its answer is out of date: it invalidates
 * every query of that resource, and one whose first answer was on its way
 * asks again once it lands. A sync reaches the lists the same way: the core
 * says `data.changed` when a sync starts, after its pages are written
 * (at most every 400 ms) and when it ends, because the answers carry the
 * freshness too. `sync.progress` reloads only the rejected records once a
 * sync ends; `profiles.changed` resets everything (another profile is
 * another cache). Returns the unsubscribe.
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
    }),
    client.on('profiles.changed', () => {
      // The profile list is the app's, not a profile's: it reloads in place (no blank frame).
      void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== profilesKey[0] })
      void queryClient.invalidateQueries({ queryKey: profilesKey })
    }),
  ]
  return () => offs.forEach((off) => off())
}
