import type { ReviewActionSummary } from '../shared/reviews'
import type { ReviewSnapshot } from './store/queries/reviews'
import type { AssignmentSnapshot } from './store/team-assignments'

/** One action of the session that can be taken back: what it did and each record's state before. */
export interface UndoEntry {
  readonly action: ReviewActionSummary
  /** Marks and notes before (a mark or bulk action). */
  readonly states: readonly ReviewSnapshot[]
  /** Assignees before (an assignment). */
  readonly assignments?: readonly AssignmentSnapshot[]
}

/**
 * The review actions of this session, newest last (`reviews.undo` takes back
 * the newest). In memory only: a restart starts a new session. Bounded, the
 * oldest dropped first.
 */
export class ReviewUndo {
  readonly #entries: UndoEntry[] = []
  readonly #depth: number

  constructor(depth = 50) {
    this.#depth = depth
  }

  push(entry: UndoEntry): void {
    if (entry.states.length === 0 && (entry.assignments ?? []).length === 0) return
    this.#entries.push(entry)
    if (this.#entries.length > this.#depth) this.#entries.shift()
  }

  pop(): UndoEntry | undefined {
    return this.#entries.pop()
  }
}
