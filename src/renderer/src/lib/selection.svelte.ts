/** The most records one selection names by idx (`reviews.setMany`'s `idxs`); more take Ctrl/⌘+A. */
export const SELECTION_MAX = 5000

/** Above this many rows, Ctrl/⌘+A asks before it selects all rows of the filter. */
const SELECT_ALL_CONFIRM_ABOVE = 500

/** From this many records, a bulk action shows a progress bar while it runs. */
export const PROGRESS_FROM = 2000

/** What a bulk action acts on: the rows named, or every row of the list's current filter. */
export type SelectionTarget = { readonly idxs: number[] } | { readonly all: true }

/**
 * The rows a list screen acts on together (docs/renderer.md "Act on a
 * selection"): Shift+click or Shift+J/K select a range from the anchor,
 * Ctrl/⌘+click toggles one row, Ctrl/⌘+A takes every row of the current
 * filter (loaded or not). Rows are kept by idx, so paging and a refresh
 * keep the selection; a new filter clears it (the list screen does).
 */
export class RowSelection {
  /** The rows named, in the order they were selected. */
  idxs = $state.raw<readonly number[]>([])
  /** Every row of the current filter. */
  all = $state(false)
  /** The row a range starts from (the cursor when the range began). */
  anchor = $state<number | null>(null)
  /** Set when a range was cut to {@link SELECTION_MAX} rows. */
  capped = $state(false)
  /** Rows Ctrl/⌘+A waits to be confirmed for (0: no question open). */
  asking = $state(0)

  // Rebuilt from `idxs` and never changed in place: a plain Set is what the lookup needs.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #set: ReadonlySet<number> = $derived(new Set(this.idxs))

  /** Whether any row is selected. */
  get active(): boolean {
    return this.all || this.idxs.length > 0
  }

  /** Whether this row is selected. */
  has(idx: number): boolean {
    return this.all || this.#set.has(idx)
  }

  /** How many rows are selected, `total` being the filter's row count. */
  count(total: number): number {
    return this.all ? total : this.idxs.length
  }

  /**
   * Selects the rows between the anchor and `to` (both included, in list
   * order), replacing the rows named before, as a file list does. Without
   * an anchor, `from` (the cursor) becomes it.
   */
  range(rows: readonly { readonly idx: number }[], from: number | null, to: number): void {
    if (this.anchor === null || this.all) this.anchor = from ?? to
    const start = rows.findIndex((row) => row.idx === this.anchor)
    const end = rows.findIndex((row) => row.idx === to)
    if (end < 0) return
    if (start < 0) {
      this.anchor = to
      this.#name([to])
      return
    }
    const [low, high] = start <= end ? [start, end] : [end, start]
    const picked = rows.slice(low, high + 1).map((row) => row.idx)
    this.#name(start <= end ? picked : picked.reverse())
  }

  /** Adds the row or takes it out (Ctrl/⌘+click); it becomes the anchor. */
  toggle(idx: number): void {
    if (this.all) return
    this.anchor = idx
    this.#name(this.#set.has(idx) ? this.idxs.filter((one) => one !== idx) : [...this.idxs, idx])
  }

  /** Ctrl/⌘+A over `total` rows: every row at once, or a question first above {@link SELECT_ALL_CONFIRM_ABOVE}. */
  askAll(total: number): void {
    if (total <= 0) return
    if (total > SELECT_ALL_CONFIRM_ABOVE) this.asking = total
    else this.selectAll()
  }

  /** Every row of the current filter. */
  selectAll(): void {
    this.asking = 0
    this.all = true
    this.capped = false
    this.idxs = []
  }

  /** Nothing selected. */
  clear(): void {
    this.all = false
    this.idxs = []
    this.anchor = null
    this.capped = false
  }

  /** What an action on the selection names, or null when nothing is selected. */
  target(): SelectionTarget | null {
    if (this.all) return { all: true }
    return this.idxs.length > 0 ? { idxs: [...this.idxs] } : null
  }

  #name(idxs: readonly number[]): void {
    this.all = false
    this.capped = idxs.length > SELECTION_MAX
    this.idxs = this.capped ? idxs.slice(0, SELECTION_MAX) : idxs
  }
}
