import { afterEach, expect, it } from 'vitest'
import { queryInspections } from '../../../src/core/store/queries'
import { readSyncState } from '../../../src/core/store/sync-state'
import { startHarness } from './harness'

let h: Awaited<ReturnType<typeof startHarness>>
afterEach(async () => {
  await h.close()
})

it('with the writer thread, a full sync stores every record and queries see them', async () => {
  h = await startHarness({ size: 450, workerWriter: true })
  const [outcome] = await h.engine.run(['inspections'])
  expect(outcome).toMatchObject({ phase: 'done', complete: true, fetched: 450 })
  expect(h.count('inspections')).toBe(450)
  expect(
    queryInspections(h.db, { q: queryInspections(h.db, { limit: 1 }).rows[0]!.inspectionNum })
      .total,
  ).toBe(1)
  expect(h.changed.filter((r) => r === 'inspections').length).toBeGreaterThan(1)
})

it('with the writer thread, a failed page keeps what was stored and the next run resumes there', async () => {
  h = await startHarness({ size: 450, workerWriter: true, engine: { concurrency: 1 } })
  h.proxy.fault = (url) => (Number(url.searchParams.get('page')) === 3 ? 500 : undefined)
  const [failed] = await h.engine.run(['inspections'])
  expect(failed?.error?.code).toBe('server')
  expect(readSyncState(h.db, 'inspections').checkpoint?.nextPage).toBe(3)
  h.proxy.fault = null
  const [resumed] = await h.engine.run(['inspections'])
  expect(resumed).toMatchObject({ phase: 'done', complete: true })
  expect(h.count('inspections')).toBe(450)
})
