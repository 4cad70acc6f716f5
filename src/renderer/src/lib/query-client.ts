import { QueryClient } from '@tanstack/svelte-query'
import type { Client } from './client'

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

/**
 * Wires the core's app-wide events to the cache. `sync.progress` reloads only
 * the rejected records once a sync ends; `profiles.changed` resets everything
 * (another profile is another cache). A resource's `data.changed` reaches its
 * lists and the brand search through `connectListRefresh` in
 * `list-query.svelte.ts`. Returns the unsubscribe.
 */
export function connectInvalidation(client: Client, queryClient: QueryClient): () => void {
  const offs = [
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
