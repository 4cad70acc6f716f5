import { getContext, setContext } from 'svelte'
import { PAGED_RESOURCES } from '../../../shared/resources'
import type { Client } from './client'
import type { ListResource, ListRow } from './list-query.svelte'
import type { TeamState } from './team.svelte'

/** Records the queue screen lists per list, at most (the oldest). */
const QUEUE_LIMIT = 500

type QueueRows = { readonly [R in ListResource]: readonly ListRow<R>[] }

/**
 * My queue (docs/team.md "My queue"): the records assigned to this member
 * and not yet reviewed (no mark, or marked for follow-up), oldest first, per
 * list, read with the list filter's `assignee: 'me'`. The sidebar shows the
 * count; the rows are read only while the queue screen is shown. Both follow
 * `data.changed` (a mark or an assignment here or pulled from the team).
 * Without a team server there is no queue (the counts stay null).
 */
export class MyQueue {
  /** Records waiting per list; null without a team server or before the first answer. */
  counts = $state.raw<{ readonly [R in ListResource]: number } | null>(null)
  /** The waiting records per list, oldest first; null until the screen first read them. */
  rows = $state.raw<QueueRows | null>(null)
  readonly #client: Client
  readonly #team: TeamState
  /** Screens showing the rows (the queue screen while mounted). */
  #watching = 0
  #running: Promise<void> | null = null
  #again = false

  constructor(client: Client, team: TeamState) {
    this.#client = client
    this.#team = team
  }

  /** Follows the events that change the queue; returns the unsubscribe (for `$effect`). */
  connect(): () => void {
    void this.refresh()
    const offs = [
      this.#client.on('data.changed', ({ resource }) => {
        if (resource !== 'brands') void this.refresh()
      }),
      this.#client.on('team.status', () => {
        // Connected, or a profile without a team server: the queue appears or goes.
        if ((this.counts === null) === this.#team.active) void this.refresh()
      }),
      this.#client.on('profiles.changed', () => void this.refresh()),
    ]
    return () => offs.forEach((off) => off())
  }

  /** The queue screen reads the rows while shown; returns the function that stops it. */
  watch(): () => void {
    this.#watching += 1
    void this.refresh()
    return () => {
      this.#watching -= 1
    }
  }

  /** Total waiting records, both lists. */
  get total(): number {
    return this.counts ? this.counts.inspections + this.counts.guarantees : 0
  }

  /** Reads the counts (and the rows while shown) again; calls during a read run once after it. */
  refresh(): Promise<void> {
    if (this.#running) {
      this.#again = true
      return this.#running
    }
    this.#running = (async () => {
      do {
        this.#again = false
        await this.#read()
      } while (this.#again)
    })().finally(() => (this.#running = null))
    return this.#running
  }

  async #read(): Promise<void> {
    const status = await this.#client.attempt('team.status', {})
    if (!status.ok || status.value.state === 'none') {
      this.counts = null
      this.rows = null
      return
    }
    const counts = await Promise.all(PAGED_RESOURCES.map((resource) => this.#count(resource)))
    if (counts.some((n) => n === null)) return
    this.counts = { inspections: counts[0]!, guarantees: counts[1]! }
    if (this.#watching > 0) {
      const [inspections, guarantees] = await Promise.all([
        this.#rows('inspections'),
        this.#rows('guarantees'),
      ])
      if (inspections && guarantees) this.rows = { inspections, guarantees } as unknown as QueueRows
    }
  }

  /** Assigned to me, less the reviewed: the page's mark counts are of the filter without its mark. */
  async #count(resource: ListResource): Promise<number | null> {
    const answer = await this.#client.attempt(`${resource}.query`, { assignee: 'me', limit: 1 })
    if (!answer.ok) return null
    return answer.value.total - answer.value.reviewCounts.reviewed
  }

  /** The unmarked and the follow-ups assigned to me, merged oldest first. */
  async #rows(resource: ListResource): Promise<ListRow<ListResource>[] | null> {
    const ask = (review: 'none' | 'follow_up') => {
      const args = { assignee: 'me', review, sort: 'oldest', limit: QUEUE_LIMIT } as const
      return resource === 'inspections'
        ? this.#client.attempt('inspections.query', args)
        : this.#client.attempt('guarantees.query', args)
    }
    const [none, follow] = await Promise.all([ask('none'), ask('follow_up')])
    if (!none.ok || !follow.ok) return null
    const rows: ListRow<ListResource>[] = [...none.value.rows, ...follow.value.rows]
    return rows.sort(compareOldest).slice(0, QUEUE_LIMIT)
  }
}

/** The lists' oldest-first order: registration time, then idx (a record without a time first). */
function compareOldest(
  a: { registeredAt: string | null; idx: number },
  b: { registeredAt: string | null; idx: number },
): number {
  const x = a.registeredAt ?? ''
  const y = b.registeredAt ?? ''
  return x < y ? -1 : x > y ? 1 : a.idx - b.idx
}

const KEY = Symbol('my-queue')

/** Provides My queue to the component tree. */
export function setQueue(queue: MyQueue): MyQueue {
  return setContext(KEY, queue)
}

/** My queue of the nearest ancestor that set it; undefined outside the app shell. */
export function useQueue(): MyQueue | undefined {
  return getContext<MyQueue | undefined>(KEY)
}
