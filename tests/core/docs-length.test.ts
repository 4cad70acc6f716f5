import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

/**
 * The store and sync reference stays a reference: at most 400 lines, so it
 * is read, not searched (history belongs in commits, figures in
 * `bench/results.json`).
 */
it('docs/store-and-sync.md stays within 400 lines', () => {
  const text = readFileSync(join(import.meta.dirname, '../../docs/store-and-sync.md'), 'utf8')
  expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(400)
})
