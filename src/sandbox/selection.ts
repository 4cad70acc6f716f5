/**
 * Sets of record indices that a filter selects, answering "how many" and
 * "the k-th one" without listing them, so that a page of a million-record
 * dataset costs O(pageSize) (plus a binary search), not O(N).
 */
export interface Selection {
  /** Number of selected indices. */
  readonly count: number
  /** The k-th selected index in ascending order, `0 <= k < count`. */
  at(k: number): number
  /** How many selected indices are below `x`. */
  below(x: number): number
}

/** Every index in `[lo, hi)`. */
export function rangeSelection(lo: number, hi: number): Selection {
  const count = Math.max(0, hi - lo)
  return { count, at: (k) => lo + k, below: (x) => Math.min(count, Math.max(0, x - lo)) }
}

/**
 * The indices in `[lo, hi)` whose remainder modulo `period` is one of
 * `residues` (sorted ascending, each in `[0, period)`).
 */
export function periodicSelection(
  lo: number,
  hi: number,
  period: number,
  residues: readonly number[],
): Selection {
  const per = residues.length
  /** How many selected indices lie below `x` (from 0). */
  const below = (x: number): number => {
    const cycles = Math.floor(x / period)
    const rest = x - cycles * period
    let partial = 0
    for (const r of residues) if (r < rest) partial += 1
    return cycles * per + partial
  }
  if (per === 0 || hi <= lo) return { count: 0, at: () => lo, below: () => 0 }
  const first = below(lo)
  return {
    count: below(hi) - first,
    below: (x) => below(Math.min(hi, Math.max(lo, x))) - first,
    at(k) {
      const n = first + k
      const cycle = Math.floor(n / per)
      return cycle * period + (residues[n - cycle * per] ?? 0)
    },
  }
}

/** An explicit ascending list of indices (for filters that select only a few). */
export function listSelection(indices: readonly number[]): Selection {
  return {
    count: indices.length,
    at: (k) => indices[k] ?? 0,
    below: (x) => lowerBound(indices.length, (k) => (indices[k] ?? 0) >= x),
  }
}

/**
 * `base` without the indices of `removed` (each one of base's) and with those of
 * `added` (none of base's); both sorted ascending. `limit` bounds every index.
 * Finding the k-th index costs a binary search over `[0, limit)`.
 */
export function adjustedSelection(
  base: Selection,
  removed: readonly number[],
  added: readonly number[],
  limit: number,
): Selection {
  const countBelow = (list: readonly number[], x: number): number =>
    lowerBound(list.length, (k) => (list[k] ?? 0) >= x)
  const below = (x: number): number => base.below(x) - countBelow(removed, x) + countBelow(added, x)
  return {
    count: base.count - removed.length + added.length,
    below,
    // The k-th index is the smallest x with more than k indices at or below it.
    at: (k) => lowerBound(limit, (x) => below(x + 1) > k),
  }
}

/** The indices of one page, in the requested order. */
export function pageOf(
  selection: Selection,
  page: number,
  pageSize: number,
  sort: 'latest' | 'oldest',
): number[] {
  const out: number[] = []
  const start = (page - 1) * pageSize
  const end = Math.min(selection.count, start + pageSize)
  for (let k = start; k < end; k += 1) {
    out.push(sort === 'oldest' ? selection.at(k) : selection.at(selection.count - 1 - k))
  }
  return out
}

/** The first index in `[0, n)` for which `predicate` holds, assuming it is monotonic; `n` if none. */
export function lowerBound(n: number, predicate: (i: number) => boolean): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (predicate(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}
