import type { ReviewMarkName } from './lists'
import type { PagedResourceName } from './resources'

/**
 * What a review action did, for the toast that says so and offers Undo, and
 * for `reviews.undo`'s answer (docs/renderer.md "Act on a selection").
 */
export interface ReviewActionSummary {
  /**
   * `mark`: one record (`reviews.set`); `bulk`: a selection (`reviews.setMany`);
   * `assign`: records assigned (`assignments.set`).
   */
  readonly kind: 'mark' | 'bulk' | 'assign'
  readonly resource: PagedResourceName
  /** Records changed. */
  readonly count: number
  /** The mark set; null when only the note changed, or for an assignment. */
  readonly mark: ReviewMarkName | null
  /** An assignment's member (display name, else login role); null: nobody. */
  readonly assignee?: string | null
}

/** Answer of `reviews.setMany`. */
export interface ReviewsSetManyResult {
  readonly action: ReviewActionSummary
}

/** Answer of `reviews.undo`: what was taken back, or null when the session has nothing to undo. */
export interface ReviewsUndoResult {
  readonly undone: ReviewActionSummary | null
}
