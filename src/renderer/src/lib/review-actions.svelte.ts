import { getContext, setContext } from 'svelte'
import type { ReviewActionSummary } from '../../../shared/reviews'
import type { Client } from './client'

/** What the toast says: an action done (with Undo), an action undone, or nothing left to undo. */
export type ReviewToast =
  | { readonly kind: 'done' | 'undone'; readonly action: ReviewActionSummary }
  | { readonly kind: 'nothing' }

/**
 * The review actions of this session as the screens see them: after each
 * mark or bulk action a toast says what it did, with Undo; Ctrl/⌘+Z and the
 * palette (`reviews.undo`) take back the newest (docs/team.md "Act on many,
 * and undo").
 */
export class ReviewActions {
  toast = $state.raw<ReviewToast | null>(null)
  readonly #client: Client

  constructor(client: Client) {
    this.#client = client
  }

  /** An action was done: the toast says so. */
  announce(action: ReviewActionSummary): void {
    this.toast = { kind: 'done', action }
  }

  /** Takes back the newest action of the session. */
  async undo(): Promise<void> {
    const answer = await this.#client.attempt('reviews.undo', {})
    if (!answer.ok) return
    const { undone } = answer.value
    this.toast = undone ? { kind: 'undone', action: undone } : { kind: 'nothing' }
  }
}

const KEY = Symbol('review-actions')

/** Provides the review actions to the component tree. */
export function setReviewActions(actions: ReviewActions): ReviewActions {
  return setContext(KEY, actions)
}

/** The review actions of the nearest ancestor that set them; undefined outside the app shell. */
export function useReviewActions(): ReviewActions | undefined {
  return getContext<ReviewActions | undefined>(KEY)
}
