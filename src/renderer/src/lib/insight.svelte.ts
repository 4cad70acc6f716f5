import type { QueryClient } from '@tanstack/svelte-query'
import { createContext } from 'svelte'
import type { PagedResourceName } from '../../../shared/resources'
import type { AgingCount, AgingCounts } from '../../../shared/changes'
import type { Client } from './client'

/**
 * What the navigation counts for the whole app: the changes feed's unseen
 * entries and the records each aging rule flags. Both are asked again when
 * a sync ends, when a list's data changes and when the profile changes (the
 * events that refresh the sync status), and after the user marks entries seen.
 */
export class InsightState {
  /** Unseen entries of the changes feed; null until the first answer. */
  unseen = $state<number | null>(null)
  /** The aging rules with their thresholds and flagged counts, as of `aging.at`. */
  aging = $state.raw<AgingCounts | null>(null)
  readonly #client: Client

  constructor(client: Client) {
    this.#client = client
  }

  /** Subscribes to the events that change the counts; returns the unsubscribe (for `$effect`). */
  connect(): () => void {
    void this.refresh()
    const offs = [
      this.#client.on('sync.progress', (event) => {
        if (event.phase !== 'running' && event.resource !== 'brands') void this.refresh()
      }),
      this.#client.on('data.changed', ({ resource }) => {
        // A pulled team mark may bring a mention: a feed entry of its own (docs/team.md "Mentions").
        if (resource !== 'brands') void this.refresh()
      }),
      this.#client.on('profiles.changed', () => void this.refresh()),
    ]
    return () => offs.forEach((off) => off())
  }

  /** Asks for both counts again. */
  async refresh(): Promise<void> {
    await Promise.all([this.refreshUnseen(), this.refreshAging()])
  }

  async refreshUnseen(): Promise<void> {
    const answer = await this.#client.attempt('changes.unseen', {})
    if (answer.ok) this.unseen = answer.value.unseen
  }

  async refreshAging(): Promise<void> {
    const answer = await this.#client.attempt('aging.counts', {})
    if (answer.ok) this.aging = answer.value
  }

  /** The aging rule watching `resource`, if any. */
  ruleOf(resource: PagedResourceName): AgingCount | undefined {
    return this.aging?.rules.find((rule) => rule.resource === resource)
  }

  /**
   * Whether a record of `resource` in `status` since `since` has waited
   * longer than its rule allows, as of the counts' time (the core's clock).
   */
  isAged(resource: PagedResourceName, status: string | null, since: string | null): boolean {
    const rule = this.ruleOf(resource)
    if (!rule || !this.aging || since === null || status !== rule.status) return false
    return Date.parse(since) <= Date.parse(this.aging.at) - rule.days * DAY_MS
  }

  /** Whole days from `since` to the counts' time; null without either. */
  daysSince(since: string | null): number | null {
    if (since === null || !this.aging) return null
    return Math.max(0, Math.floor((Date.parse(this.aging.at) - Date.parse(since)) / DAY_MS))
  }
}

const DAY_MS = 86_400_000

/**
 * Invalidates the queries under `key` whenever a sync of a list ends (it
 * may have logged feed entries and moved statuses); returns the unsubscribe.
 */
export function invalidateOnSyncEnd(
  client: Client,
  queryClient: QueryClient,
  key: readonly unknown[],
): () => void {
  return client.on('sync.progress', (event) => {
    if (event.phase !== 'running' && event.resource !== 'brands')
      void queryClient.invalidateQueries({ queryKey: key })
  })
}

const [getInsight, provideInsight] = createContext<InsightState>()

/** Provides the insight counts to the component tree. */
export const setInsight = provideInsight

/** The insight counts of the nearest ancestor that set them. */
export const useInsight = getInsight
