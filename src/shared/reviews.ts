import type { PagedResourceName, ReviewMarkName } from './cache'

/**
 * What a review action did, for the toast that says so and offers Undo, and
 * for `reviews.undo`'s answer (docs/renderer.md "Act on a selection").
 */
export interface ReviewActionSummary {
  /** `mark`: one record (`reviews.set`); `bulk`: a selection (`reviews.setMany`). */
  readonly kind: 'mark' | 'bulk'
  readonly resource: PagedResourceName
  /** Records changed. */
  readonly count: number
  /** The mark set; null when only the note changed. */
  readonly mark: ReviewMarkName | null
}

/** Answer of `reviews.setMany`. */
export interface ReviewsSetManyResult {
  readonly action: ReviewActionSummary
}

/** Answer of `reviews.undo`: what was taken back, or null when the session has nothing to undo. */
export interface ReviewsUndoResult {
  readonly undone: ReviewActionSummary | null
}
