import { createContext } from 'svelte'
import type { ErrorData, Result } from '../../../shared/errors'
import type {
  LastFilters,
  SavedFilter,
  SavedView,
  SavedViewList,
} from '../../../shared/saved-views'
import { errorData, type Client } from './client'
import { peekReveal } from './commands.svelte'
import { emptyFilters, type ListFilters, type ListResource } from './list-query.svelte'

/** Waits this long after the last filter change before keeping it (typing in the search box). */
const REMEMBER_DELAY_MS = 400

/** A list's filters as a saved view keeps them: empty dates and "every status/review" left out. */
export function toSavedFilter(filters: ListFilters): SavedFilter {
  const { from, to, status, review, ...rest } = $state.snapshot(filters) as ListFilters
  return {
    ...rest,
    ...(status !== undefined ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(review !== undefined ? { review } : {}),
  }
}

/** The list filters a saved view restores: every field present, as the list screen edits them. */
export function fromSavedFilter(saved: Partial<SavedFilter>): ListFilters {
  const { from, to, ...rest } = saved
  return { ...emptyFilters(), ...rest, from: from ?? '', to: to ?? '' }
}

/** Whether two filters select the same records in the same order. */
export function sameFilter(a: SavedFilter, b: SavedFilter): boolean {
  const key = (filter: SavedFilter): string =>
    JSON.stringify(
      Object.entries(filter)
        .filter(([, value]) => value !== undefined)
        .sort(([x], [y]) => x.localeCompare(y)),
    )
  return key(a) === key(b)
}

/**
 * Saved views and the last filter of each list (kept by core in the
 * settings, `views.*`), and the filter a list is asked to open with (a
 * dashboard number, a saved view in the sidebar). The lists bind to it
 * through {@link SavedViews.bind}.
 */
export class SavedViews {
  views = $state.raw<readonly SavedView[]>([])
  last = $state.raw<LastFilters>({})
  loaded = $state(false)
  /** The error of the last save, rename or removal. */
  error = $state.raw<ErrorData | null>(null)
  /** What each list shows now (for the sidebar's current view). */
  current = $state<Partial<Record<ListResource, SavedFilter>>>({})
  readonly #client: Client
  /** A filter a list opens with when next shown, taken once. */
  #pending: Partial<Record<ListResource, ListFilters>> = {}
  #timers: Partial<Record<ListResource, ReturnType<typeof setTimeout>>> = {}

  constructor(client: Client) {
    this.#client = client
  }

  /**
   * Loads the views and last filters, and writes a last filter still waiting
   * for its pause when the page goes away (a reload, the window closing).
   * Returns the cleanup (for `$effect`).
   */
  connect(): () => void {
    void this.load()
    const flush = (): void => this.#flush()
    globalThis.addEventListener?.('pagehide', flush)
    return () => globalThis.removeEventListener?.('pagehide', flush)
  }

  /** Loads the views and last filters; a list shown before they arrived opens on its last filter then. */
  async load(): Promise<void> {
    const answer = await this.#client.attempt('views.list', {})
    if (answer.ok) this.#take(answer.value)
    this.loaded = true
    for (const [resource, apply] of Object.entries(this.#waiting) as [
      ListResource,
      (filters: ListFilters) => void,
    ][]) {
      const last = this.last[resource]
      const now = this.current[resource]
      const untouched = !now || sameFilter(now, toSavedFilter(emptyFilters()))
      if (last && untouched) apply(fromSavedFilter(last))
    }
    this.#waiting = {}
  }

  /** Saved views of one list, in the order saved. */
  of(resource: ListResource): readonly SavedView[] {
    return this.views.filter((view) => view.resource === resource)
  }

  /** The saved view whose filter a list shows now, if any. */
  active(resource: ListResource): SavedView | undefined {
    const current = this.current[resource]
    return current ? this.of(resource).find((view) => sameFilter(view.filter, current)) : undefined
  }

  /** Shows `resource`'s list with `filters` (replacing whatever it showed). */
  open(resource: ListResource, filters: ListFilters): void {
    this.#pending[resource] = filters
    this.#listeners[resource]?.(filters)
    location.hash = resource
  }

  /** Saves a new view, or renames one; answers whether it worked (the error stays in `error`). */
  async save(args: {
    resource: ListResource
    name: string
    filter?: SavedFilter
    id?: string
  }): Promise<boolean> {
    return this.#change(this.#client.attempt('views.save', args))
  }

  async remove(id: string): Promise<boolean> {
    return this.#change(this.#client.attempt('views.remove', { id }))
  }

  #listeners: Partial<Record<ListResource, (filters: ListFilters) => void>> = {}
  /** Lists bound before the last filters arrived. */
  #waiting: Partial<Record<ListResource, (filters: ListFilters) => void>> = {}

  /**
   * Binds a shown list: it opens on the filter it was asked to show (a record
   * the command palette picked: only the search that finds it), else on its
   * last filter; {@link remember} keeps its later changes. Returns the
   * cleanup.
   */
  bind(resource: ListResource, list: { filters: ListFilters }): () => void {
    const apply = (filters: ListFilters): void => {
      list.filters = filters
      delete this.#pending[resource]
    }
    const reveal = peekReveal(resource)
    const pending = reveal ? { ...emptyFilters(), q: reveal.q } : this.#pending[resource]
    const last = this.last[resource]
    if (pending) apply(pending)
    else if (last) apply(fromSavedFilter(last))
    else if (!this.loaded) this.#waiting[resource] = apply
    this.#listeners[resource] = apply
    return () => {
      if (this.#listeners[resource] === apply) delete this.#listeners[resource]
      if (this.#waiting[resource] === apply) delete this.#waiting[resource]
    }
  }

  /** A shown list's filter changed: it is the current one, kept as the last after a pause. */
  remember(resource: ListResource, filters: ListFilters): void {
    const filter = toSavedFilter(filters)
    this.current[resource] = filter
    // A change undone within the pause leaves nothing to keep.
    clearTimeout(this.#timers[resource])
    delete this.#unsaved[resource]
    const last = this.last[resource] ?? toSavedFilter(emptyFilters())
    if (sameFilter(last, filter)) return
    this.#unsaved[resource] = filter
    this.#timers[resource] = setTimeout(() => this.#keep(resource), REMEMBER_DELAY_MS)
  }

  /** Filters changed but not kept yet, by list. */
  #unsaved: Partial<Record<ListResource, SavedFilter>> = {}

  #keep(resource: ListResource): void {
    const filter = this.#unsaved[resource]
    clearTimeout(this.#timers[resource])
    delete this.#unsaved[resource]
    if (!filter) return
    this.last = { ...this.last, [resource]: filter }
    void this.#client.attempt('views.setLast', { resource, filter })
  }

  #flush(): void {
    for (const resource of Object.keys(this.#unsaved) as ListResource[]) this.#keep(resource)
  }

  async #change(pending: Promise<Result<SavedViewList>>): Promise<boolean> {
    try {
      const answer = await pending
      this.error = answer.ok ? null : answer.error
      if (answer.ok) this.#take(answer.value)
      return answer.ok
    } catch (error) {
      this.error = errorData(error)
      return false
    }
  }

  #take(list: SavedViewList): void {
    this.views = list.views
    this.last = { ...list.last, ...this.last }
  }
}

const [getSavedViews, provideSavedViews] = createContext<SavedViews>()

/** The saved views of the nearest ancestor that provided them. */
export const useSavedViews = getSavedViews
/** Provides the saved views to the component tree. */
export const setSavedViews = provideSavedViews
