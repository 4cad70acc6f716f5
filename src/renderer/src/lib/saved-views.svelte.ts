import { createContext } from 'svelte'
import type { ErrorData, Result } from '../../../shared/errors'
import { compactFilter, sameFilter, type ListFilter } from '../../../shared/list-filter'
import type { LastFilters, SavedView, SavedViewList } from '../../../shared/saved-views'
import { errorData, type Client } from './client'
import { emptyFilters, type ListFilters, type ListResource } from './list-query.svelte'

/** Waits this long after the last filter change before keeping it (typing in the search box). */
const REMEMBER_DELAY_MS = 400

/** A list's filters as a saved view keeps them: empty fields left out. */
export function toSavedFilter(filters: ListFilters): ListFilter {
  return compactFilter($state.snapshot(filters) as ListFilters)
}

/** The list filters a saved view (or a dashboard number) restores: absent fields at their defaults. */
export function fromSavedFilter(saved: Partial<ListFilter>): ListFilters {
  return compactFilter({ ...emptyFilters(), ...saved })
}

/**
 * Saved views and the last filter of each list (kept by core in the
 * settings, `views.*`). The lists bind to it through {@link SavedViews.bind};
 * what opens a list with a given filter is the navigation (`navigation.ts`).
 */
export class SavedViews {
  views = $state.raw<readonly SavedView[]>([])
  last = $state.raw<LastFilters>({})
  loaded = $state(false)
  /** The error of the last save, rename or removal. */
  error = $state.raw<ErrorData | null>(null)
  /** What each list shows now (for the sidebar's current view). */
  current = $state<Partial<Record<ListResource, ListFilter>>>({})
  readonly #client: Client
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

  /** The filter the user last left `resource`'s list with (nothing narrowing it when none was kept). */
  lastOf(resource: ListResource): ListFilters {
    const last = this.last[resource]
    return last ? fromSavedFilter(last) : emptyFilters()
  }

  /** Saves a new view, or renames one; answers whether it worked (the error stays in `error`). */
  async save(args: {
    resource: ListResource
    name: string
    filter?: ListFilter
    id?: string
  }): Promise<boolean> {
    return this.#change(this.#client.attempt('views.save', args))
  }

  async remove(id: string): Promise<boolean> {
    return this.#change(this.#client.attempt('views.remove', { id }))
  }

  /** Lists bound before the last filters arrived. */
  #waiting: Partial<Record<ListResource, (filters: ListFilters) => void>> = {}

  /**
   * Binds a shown list: unless it was opened with a filter of its own (a
   * saved view, a jump from another screen), it opens on its last filter,
   * or on it once the views arrive. Returns the cleanup.
   */
  bind(resource: ListResource, list: { filters: ListFilters }, opened = false): () => void {
    const apply = (filters: ListFilters): void => {
      list.filters = filters
    }
    const last = this.last[resource]
    if (!opened) {
      if (last) apply(fromSavedFilter(last))
      else if (!this.loaded) this.#waiting[resource] = apply
    }
    return () => {
      if (this.#waiting[resource] === apply) delete this.#waiting[resource]
    }
  }

  /**
   * A shown list's filter changed: it is the current one, and kept as the
   * last after a pause, unless a jump applied it (`jumped`): a jump's
   * filter is never kept, so the list opens later as the user left it.
   */
  remember(resource: ListResource, filters: ListFilters, jumped = false): void {
    const filter = toSavedFilter(filters)
    this.current[resource] = filter
    if (jumped) return
    // A change undone within the pause leaves nothing to keep.
    clearTimeout(this.#timers[resource])
    delete this.#unsaved[resource]
    const last = this.last[resource] ?? toSavedFilter(emptyFilters())
    if (sameFilter(last, filter)) return
    this.#unsaved[resource] = filter
    this.#timers[resource] = setTimeout(() => this.#keep(resource), REMEMBER_DELAY_MS)
  }

  /** Filters changed but not kept yet, by list. */
  #unsaved: Partial<Record<ListResource, ListFilter>> = {}

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
