import { afterAll, beforeAll, expect, it } from 'vitest'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
beforeAll(async () => {
  h = await startHarness({ size: 120, engine: { pageSize: 100 } })
})
afterAll(async () => {
  await h.close()
})

it('a run queued as soon as the previous outcome arrives runs (the queue never waits for a loop that is over)', async () => {
  const first = await h.engine.runScheduled('brands', { mode: 'full', deadlineMs: 5000 })
  expect(first.phase).toBe('done')
  // Queued in the same turn the outcome arrived, before the queue's loop has wound down.
  const second = await h.engine.runScheduled('inspections', { mode: 'full', deadlineMs: 5000 })
  expect(second.phase).toBe('done')
  const third = await h.engine.runScheduled('guarantees', { mode: 'full', deadlineMs: 5000 })
  expect(third.phase).toBe('done')
  expect(h.engine.busy).toBe(false)
})
