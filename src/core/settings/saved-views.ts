import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type { PagedResourceName } from '../../shared/resources'
import type { ListFilter } from '../../shared/list-filter'
import {
  MAX_VIEWS_PER_LIST,
  type SavedViewList,
  type viewSaveSchema,
} from '../../shared/saved-views'
import { AppError } from '../app-error'
import type { SettingsService } from './settings'

/** Arguments of `views.save`, parsed. */
type ViewSave = z.output<typeof viewSaveSchema>

/**
 * Saved views and the last filter of each list, kept in the settings file
 * (docs/renderer.md "Saved views"). Names are unique within a list
 * (compared without case), so the sidebar never shows two alike.
 */
export class SavedViews {
  readonly #settings: SettingsService
  readonly #newId: () => string

  constructor(settings: SettingsService, newId: () => string = randomUUID) {
    this.#settings = settings
    this.#newId = newId
  }

  /** Every saved view and the last filters. */
  list(): SavedViewList {
    const { savedViews, lastFilters } = this.#settings.get()
    return { views: savedViews, last: lastFilters }
  }

  /** Adds a view (no `id`), or renames or re-filters one; answers the whole list. */
  save({ id, resource, name, filter }: ViewSave): SavedViewList {
    const { savedViews } = this.#settings.get()
    const same = savedViews.filter((view) => view.resource === resource)
    const existing = id === undefined ? undefined : same.find((view) => view.id === id)
    if (id !== undefined && !existing) {
      throw new AppError('not_found', 'No saved view of this list has this id.')
    }
    const key = name.toLocaleLowerCase()
    if (same.some((view) => view.id !== id && view.name.toLocaleLowerCase() === key)) {
      throw new AppError('invalid_argument', 'This list already has a view with this name.')
    }
    if (!existing && same.length >= MAX_VIEWS_PER_LIST) {
      throw new AppError(
        'invalid_argument',
        `A list keeps at most ${MAX_VIEWS_PER_LIST} views; remove one first.`,
      )
    }
    this.#settings.update((draft) => {
      if (existing) {
        draft.savedViews = draft.savedViews.map((view) =>
          view.id === existing.id ? { ...view, name, filter: filter ?? view.filter } : view,
        )
      } else if (filter) {
        draft.savedViews.push({ id: this.#newId(), resource, name, filter })
      }
    })
    return this.list()
  }

  /** Removes a view; answers the whole list. */
  remove(id: string): SavedViewList {
    const { savedViews } = this.#settings.get()
    if (!savedViews.some((view) => view.id === id)) {
      throw new AppError('not_found', 'No saved view has this id.')
    }
    this.#settings.update((draft) => {
      draft.savedViews = draft.savedViews.filter((view) => view.id !== id)
    })
    return this.list()
  }

  /** Keeps the filter a list shows now, for the next start. */
  setLast(resource: PagedResourceName, filter: ListFilter): SavedViewList {
    this.#settings.update((draft) => {
      draft.lastFilters = { ...draft.lastFilters, [resource]: filter }
    })
    return this.list()
  }
}
