import type { GridColumn } from '../components/DataGrid.svelte'
import type { I18n } from './i18n.svelte'

/**
 * The columns both record lists (guarantees, inspections) have alike, each
 * sized by what it holds (docs/renderer.md "Columns"): the product name, and
 * the trailing member, review, assignee and registration-time columns, whose
 * cells are `ListTrailingCells.svelte`.
 */

/** What the trailing columns read of the list shown. */
export interface TrailingColumnsOf {
  /** Some record shown has a review mark or note. */
  readonly anyReview: boolean
  /** Some record shown is assigned to someone. */
  readonly anyAssigned: boolean
  /** The registration time's sort order, when the list is sorted by it. */
  readonly dateOrder: 'ascending' | 'descending' | undefined
}

/** The product name: it gives way first (its cell has the whole name as a tooltip). */
export function productColumn(t: I18n['t']): GridColumn {
  return {
    id: 'product',
    label: t('field.productName'),
    width: 'minmax(120px, 1fr)',
    narrowWidth: 'minmax(96px, 1fr)',
  }
}

/**
 * Member, review, assignee (with a team server only) and the registration
 * time headed `registered` (the inspections call it the receipt), in that order.
 */
export function trailingColumns(
  t: I18n['t'],
  list: TrailingColumnsOf,
  teamActive: boolean,
  registered: 'field.registeredAt' | 'inspections.col.registered',
): GridColumn[] {
  return [
    // A member id stays whole where it fits (the product name gives way first; it has its tooltip).
    { id: 'member', label: t('field.refUserId'), width: 'minmax(120px, 136px)', optional: true },
    {
      id: 'review',
      label: t('review.col'),
      // Narrows before the registration time does: that column never cuts. Sized by what it
      // holds: while no record shown has a mark or note, only as wide as its header.
      width: list.anyReview ? 'minmax(72px, 164px)' : 'minmax(72px, 96px)',
      narrowWidth: list.anyReview ? 'minmax(88px, 120px)' : '72px',
    },
    // With a team server: who each record is assigned to (initials where narrow).
    ...(teamActive
      ? [
          {
            id: 'assignee',
            label: t('assign.col'),
            // Only as wide as its header while nobody shown is assigned.
            width: list.anyAssigned ? 'minmax(72px, 112px)' : 'minmax(72px, 96px)',
            narrowWidth: '64px',
          },
        ]
      : []),
    { id: 'registered', label: t(registered), width: '150px', sort: list.dateOrder },
  ]
}
