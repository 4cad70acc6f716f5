import { createContext } from 'svelte'
import type { PagedResourceName } from '../../../shared/resources'
import { emptyListFilter, type ListFilter } from '../../../shared/list-filter'
import type { ReconcileKind } from '../../../shared/reconcile'
import type { Client } from './client'
import type { View } from './views'

/**
 * Where a jump to a list came from: a filter one of these applies is shown
 * as a removable chip on the list and never kept as its last filter.
 */
export type JumpSource = 'changes' | 'dashboard' | 'reconcile' | 'palette' | 'notification'

/** A record named by its list and idx (a notification's records). */
export interface RecordRef {
  readonly resource: PagedResourceName
  readonly idx: number
}

/** How a list is asked to open. */
export interface ListArrival {
  readonly filters: ListFilter
  /** Set for a jump from another screen; absent for the user's own choice (a saved view). */
  readonly jump?: JumpSource
  /** A record to select with its details open. */
  readonly reveal?: number
}

/**
 * The one way screens open one another: a list with a filter (a saved view,
 * a dashboard number), one record by its list and idx (the changes feed,
 * reconciliation, the command palette), the reconciliation view on a kind.
 * App provides one instance; a screen asked to open while it is not shown
 * finds what it was asked when it is ({@link takeList}, {@link takeReconcileKind}),
 * and a list already shown is told at once ({@link listen}).
 */
export class Navigation {
  readonly #client: Client
  readonly #go: (view: View) => void
  readonly #lists: Partial<Record<PagedResourceName, ListArrival>> = {}
  readonly #listeners: Partial<Record<PagedResourceName, (arrival: ListArrival) => void>> = {}
  #reconcileKind: ReconcileKind | null = null
  #changes: readonly RecordRef[] | null = null
  #changesListener: ((records: readonly RecordRef[]) => void) | null = null

  /** `go` shows a screen (App: the URL fragment). */
  constructor(client: Client, go: (view: View) => void = (view) => void (location.hash = view)) {
    this.#client = client
    this.#go = go
  }

  #profileShown: (() => void)[] = []

  /**
   * Resolves once the desk shows another account's screens (after a switch):
   * what is opened before that would be drawn on the screens of the old one.
   */
  nextProfile(): Promise<void> {
    return new Promise((resolve) => this.#profileShown.push(resolve))
  }

  /** The desk drew its screens for another account (Desk calls it). */
  profileShown(): void {
    const waiting = this.#profileShown
    this.#profileShown = []
    for (const resolve of waiting) resolve()
  }

  /** Shows `resource`'s list as `arrival` asks (replacing whatever filter it showed). */
  openList(resource: PagedResourceName, arrival: ListArrival): void {
    const listener = this.#listeners[resource]
    if (listener) listener(arrival)
    else this.#lists[resource] = arrival
    this.#go(resource)
  }

  /**
   * Opens one record on its list, selected with its details open: asks core
   * where the list shows it (`records.locate`) and filters the list to what
   * finds it alone (an inspection's number; a guarantee's idx on its
   * registration day). False when its list does not show it (a record gone
   * from the service).
   */
  async openRecord(resource: PagedResourceName, idx: number, from: JumpSource): Promise<boolean> {
    const place = await this.#client.call('records.locate', { resource, idx })
    if (place === null) return false
    const day = place.registeredAt?.slice(0, 10)
    const filters: ListFilter =
      place.inspectionNum !== null
        ? { ...emptyListFilter(), q: place.inspectionNum }
        : { ...emptyListFilter(), q: String(idx), ...(day ? { from: day, to: day } : {}) }
    this.openList(resource, { filters, jump: from, reveal: idx })
    return true
  }

  /** Shows the reconciliation view on one kind. */
  openReconcile(kind: ReconcileKind): void {
    this.#reconcileKind = kind
    this.#go('reconcile')
  }

  /** Shows the Changes view on these records only (a notification about several). */
  openChanges(records: readonly RecordRef[]): void {
    if (this.#changesListener) this.#changesListener(records)
    else this.#changes = records
    this.#go('changes')
  }

  /** The records the Changes view was asked to show while it was not shown, taken once. */
  takeChanges(): readonly RecordRef[] | null {
    const records = this.#changes
    this.#changes = null
    return records
  }

  /** The shown Changes view hears later requests at once; returns the cleanup. */
  listenChanges(apply: (records: readonly RecordRef[]) => void): () => void {
    this.#changesListener = apply
    return () => {
      if (this.#changesListener === apply) this.#changesListener = null
    }
  }

  /** What `resource`'s list was asked to open with while it was not shown, taken once. */
  takeList(resource: PagedResourceName): ListArrival | null {
    const arrival = this.#lists[resource] ?? null
    delete this.#lists[resource]
    return arrival
  }

  /** The kind the reconciliation view was asked to show, taken once. */
  takeReconcileKind(): ReconcileKind | null {
    const kind = this.#reconcileKind
    this.#reconcileKind = null
    return kind
  }

  /** A shown list hears later requests at once; returns the cleanup. */
  listen(resource: PagedResourceName, apply: (arrival: ListArrival) => void): () => void {
    this.#listeners[resource] = apply
    return () => {
      if (this.#listeners[resource] === apply) delete this.#listeners[resource]
    }
  }
}

const [getNavigation, provideNavigation] = createContext<Navigation>()

/** The app's navigation (provided by App). */
export const useNavigation = getNavigation
/** Provides the navigation to the component tree. */
export const setNavigation = provideNavigation
