import type { StoreConnection } from '../src/core/store/connection'
import { PAGED_RESOURCES } from '../src/shared/resources'
import { listCount, storedCells, summarise } from '../src/core/store/write/counts'
import { explainList, queryInspections, recordCount } from '../src/core/store/queries/list-queries'
import type { ListRequest } from '../src/core/store/queries/list-sql'
import { bumpDataVersion } from '../src/core/store/data-version'

/**
 * Every shape the lists offer, timed over a stored inspections table: the
 * first page of 50 with its total, counts and review counts, uncached (the
 * data version is bumped before each run), with the plan it used.
 */

/** One timed query shape. */
export interface ShapeResult {
  readonly name: string
  /** One-character text: its own target. */
  readonly oneCharacter: boolean
  readonly medianMs: number
  readonly total: number
  readonly lowerBound: boolean
  readonly driver: string
  readonly plan: string
}

/** The shapes, with a member and a date range taken from the stored data. */
export function queryShapes(
  db: StoreConnection,
): { name: string; query: ListRequest; one?: true }[] {
  const middle = db
    .prepare(
      `SELECT ref_user_id, substr(registered_at, 1, 10) AS day FROM inspections
       WHERE idx >= (SELECT max(idx) / 2 FROM inspections) ORDER BY idx LIMIT 1`,
    )
    .get() as { ref_user_id: string; day: string }
  const to = new Date(`${middle.day}T00:00:00Z`)
  to.setUTCDate(to.getUTCDate() + 30)
  const month = { from: middle.day, to: to.toISOString().slice(0, 10) }
  return [
    { name: 'no filter (latest)', query: {} },
    { name: 'no filter (oldest)', query: { sort: 'oldest' } },
    { name: 'status', query: { status: '배송완료' } },
    { name: 'no status (null)', query: { status: null } },
    { name: 'member', query: { member: middle.ref_user_id } },
    { name: 'from/to (30 days)', query: month },
    { name: 'review: reviewed', query: { review: 'reviewed' } },
    { name: 'review: none', query: { review: 'none' } },
    { name: 'status+from+review', query: { status: '감정접수', ...month, review: 'none' } },
    { name: 'text 4 syllables', query: { q: '루이비통' } },
    { name: 'text 2 syllables (oldest)', query: { q: '샤넬', sort: 'oldest' } },
    { name: 'text English word', query: { q: 'gucci' } },
    { name: '초성 ㄹㅇㅂㅌ', query: { q: 'ㄹㅇㅂㅌ' } },
    { name: 'digits inside numbers', query: { q: '2999' } },
    { name: 'status+text', query: { status: '배송완료', q: '루이비통' } },
    { name: 'member+text', query: { member: middle.ref_user_id, q: '샤넬' } },
    { name: 'from/to+text', query: { ...month, q: '샤넬' } },
    { name: 'review+text', query: { review: 'reviewed', q: '샤넬' } },
    { name: 'one syllable 백', query: { q: '백' }, one: true },
    { name: 'one consonant ㅂ', query: { q: 'ㅂ' }, one: true },
    { name: 'status+one syllable', query: { status: '감정접수', q: '백' }, one: true },
    { name: 'member+one syllable', query: { member: middle.ref_user_id, q: '백' }, one: true },
  ]
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** Times every shape (`runs` each) and answers them with their plans. */
export function timeShapes(db: StoreConnection, runs: number): ShapeResult[] {
  return queryShapes(db).map(({ name, query, one }) => {
    const times: number[] = []
    let page = queryInspections(db, query)
    for (let i = 0; i < runs; i += 1) {
      bumpDataVersion(db)
      const t = performance.now()
      page = queryInspections(db, { ...query, limit: 50 })
      times.push(performance.now() - t)
    }
    const explained = explainList(db, 'inspections', query)
    return {
      name,
      oneCharacter: one === true,
      medianMs: median(times),
      total: page.total,
      lowerBound: page.totalIsLowerBound === true,
      driver: explained.driver,
      plan: [...explained.page, ...(explained.count.length ? ['count:', ...explained.count] : [])]
        .join('; ')
        .replace(/\s+/g, ' '),
    }
  })
}

/** Median time of every tab and badge count together: both lists' status and review counts and sizes. */
export function timeCounts(db: StoreConnection, runs: number): number {
  const times: number[] = []
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now()
    for (const list of PAGED_RESOURCES) {
      summarise(storedCells(db, list, {}), undefined, undefined)
      listCount(db, list)
    }
    recordCount(db, 'brands')
    times.push(performance.now() - t)
  }
  return median(times)
}

/** Marks every `every`-th inspection reviewed and every `every`-th + 1 follow-up (the review shapes need some). */
export function markSome(db: StoreConnection, every: number): void {
  db.prepare(
    `INSERT OR REPLACE INTO review_marks (resource, record_idx, mark, note, updated_at, reviewed_by)
     SELECT 'inspections', idx, CASE WHEN idx % ? = 0 THEN 'reviewed' ELSE 'follow_up' END, '',
       '2026-01-01 00:00:00', 'bench'
     FROM inspections WHERE idx % ? IN (0, 1)`,
  ).run(every, every)
}

/** The shapes as a table: median, total, driver and plan. */
export function printShapes(results: readonly ShapeResult[]): void {
  for (const r of results) {
    console.log(
      `${r.name.padEnd(28)} ${r.medianMs.toFixed(2).padStart(8)} ms  total ${String(r.total).padStart(7)}${r.lowerBound ? '+' : ' '}  ${r.driver.padEnd(11)} ${r.plan}`,
    )
  }
}
