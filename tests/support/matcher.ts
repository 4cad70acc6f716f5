import { createRanker } from '../../src/core/text/hangul-search'

/**
 * A prepared matcher for one query (an empty query matches everything): the
 * naive reference the tests and the bench hold the store's search against.
 */
export function createMatcher(query: string): (...fields: readonly string[]) => boolean {
  const rank = createRanker(query)
  return (...fields) => rank(...fields) !== null
}
