import type { Page } from '@playwright/test'
import type { SandboxChange } from '../../src/sandbox/churn'
import { FeedModel, entriesOf } from '../core/sync/feed-model'
import { call, expect, startApp, type RunningApp, testWithApp } from './fixtures'

/**
 * The Changes view, the aging flags and the record timeline against the
 * real core and the embedded sandbox moved by its seeded test endpoint:
 * sync, advance, sync again; the view shows exactly the entries the
 * sandbox's own log makes; an entry opens its record; "mark all seen"
 * empties the badge for good; a record waiting past its threshold (the
 * core's clock moved on) shows its flag. Screenshots go to test-results/.
 */

const DAY = 86_400_000
/** The core's clock, moved by the tests (the baseline sync runs at its start). */
let clock = Date.parse('2026-11-21T03:00:00Z')

const test = testWithApp(async () => {
  const app = await startApp({
    sandbox: { size: 200, testEndpoints: true },
    now: () => new Date(clock),
  })
  return app
})

test.describe.configure({ mode: 'serial' })

async function syncLists(app: RunningApp): Promise<void> {
  await call(app, 'sync.start', { resources: ['inspections', 'guarantees'], mode: 'full' })
  await app.core.sync.idle()
}

async function openView(page: Page, view: string): Promise<void> {
  await page.evaluate((name) => (location.hash = name), view)
  await expect(page.locator(`nav a[href="#${view}"]`)).toHaveAttribute('aria-current', 'page')
}

/** Loads every page of the feed the view shows; answers its entries as `resource:idx kind`. */
async function shownEntries(page: Page): Promise<string[]> {
  const more = page.getByRole('button', { name: /^(더 보기|Load more)$/u })
  while (await more.isVisible()) {
    const before = await page.getByTestId('change-entry').count()
    await more.click()
    await expect.poll(() => page.getByTestId('change-entry').count()).toBeGreaterThan(before)
  }
  return page
    .getByTestId('change-entry')
    .evaluateAll((items) =>
      items.map(
        (item) =>
          `${item.getAttribute('data-resource')}:${item.getAttribute('data-idx')} ${item.getAttribute('data-kind')}`,
      ),
    )
}

const model = new FeedModel()

test('the Changes view shows exactly what the sandbox changed, and an entry opens its record', async ({
  page,
  app,
}) => {
  test.setTimeout(120_000)
  await page.goto(app.host.url)
  await syncLists(app)
  await openView(page, 'changes')
  // The first sync of each list is one entry; both unseen.
  await expect(page.getByTestId('change-entry')).toHaveCount(2)
  await expect(page.getByTestId('change-entry').first()).toContainText('최초 동기화: 200건')
  await expect(page.getByTestId('nav-badge-changes')).toContainText('2')
  model.sync([], true)

  // The sandbox moves 40 seeded steps; its log says what changed.
  const base = app.core.sandbox.baseUrl
  expect((await fetch(`${base}/__sandbox/advance?steps=40`, { method: 'POST' })).status).toBe(200)
  const log = (await (await fetch(`${base}/__sandbox/changes?after=0`)).json()) as {
    changes: SandboxChange[]
  }
  // One entry a record: its weightiest change (the others are lines of the same entry).
  const expected = entriesOf(model.sync(log.changes, true))
  expect(expected.length).toBeGreaterThan(10)
  clock += 5 * DAY
  await syncLists(app)

  // The view asks again when the sync ends: exactly the sandbox's changes, and the baselines.
  // Each list's sync ends on its own: the view is whole once it shows as many as the feed holds.
  const total = (await call(app, 'changes.unseen')).unseen
  await expect.poll(async () => (await shownEntries(page)).length, { timeout: 15_000 }).toBe(total)
  const shown = await shownEntries(page)
  expect(shown.filter((entry) => !entry.endsWith(' baseline')).sort()).toEqual(expected)
  await expect(page.getByTestId('nav-badge-changes')).toContainText(String(shown.length))
  // Newest first, grouped by day: the second sync's day above the first's.
  await expect(page.locator('h2.day')).toHaveText(['2026-11-26', '2026-11-21'])

  // Filtered by kind and list.
  await page.getByTestId('changes-kind-status').click()
  await page.getByTestId('changes-list-inspections').click()
  await expect
    .poll(async () => (await shownEntries(page)).sort())
    .toEqual(
      expected.filter((entry) => entry.startsWith('inspections:') && entry.endsWith(' status')),
    )
  for (const theme of ['light', 'dark'] as const) {
    for (const language of ['ko', 'en'] as const) {
      await call(app, 'settings.set', { theme, language })
      await page.reload()
      await openView(page, 'changes')
      await expect(page.getByTestId('change-entry').first()).toBeVisible()
      await page.screenshot({ path: `test-results/changes-${theme}-${language}.png` })
    }
  }
  await call(app, 'settings.set', { theme: 'light', language: 'ko' })
  await page.reload()

  // A status entry opens its inspection in the list, its details and timeline beside it. A record
  // whose result came with its status change is one entry of kind result (the status its second
  // line): when the seeded steps moved no inspection's status alone, such an entry is taken.
  const kind = expected.some((e) => e.startsWith('inspections:') && e.endsWith(' status'))
    ? 'status'
    : 'result'
  await page.getByTestId(`changes-kind-${kind}`).click()
  await page.getByTestId('changes-list-inspections').click()
  const entry = page.getByTestId('change-entry').first()
  const idx = await entry.getAttribute('data-idx')
  const line = (await entry.locator('.line').first().textContent()) ?? ''
  expect(line).toMatch(kind === 'status' ? /^상태 .+ → .+$/u : /^감정 결과 .+ → .+$/u)
  await entry.getByTestId('change-open').click()
  await expect(page).toHaveURL(/#inspections$/u)
  const panel = page.getByTestId('detail-panel')
  await expect(panel).toBeVisible()
  await expect(panel.locator('dd', { hasText: new RegExp(`^${idx}$`, 'u') })).toBeVisible()
  const timeline = panel.getByTestId('record-timeline')
  // Its status at the first sync, then the one the second sync saw.
  await expect(timeline.getByTestId('timeline-status')).toHaveCount(2)
  await expect(timeline.getByTestId('timeline-status').first()).toContainText(
    '최초 동기화 때 이미 이 상태',
  )
  await expect(timeline.getByTestId('timeline-change').first()).toContainText(line)
  for (const theme of ['light', 'dark'] as const) {
    for (const language of ['ko', 'en'] as const) {
      await call(app, 'settings.set', { theme, language })
      await page.reload()
      await openView(page, 'changes')
      await page.getByTestId(`changes-kind-${kind}`).click()
      await page.getByTestId('changes-list-inspections').click()
      await page.getByTestId('change-entry').first().getByTestId('change-open').click()
      await expect(page.getByTestId('record-timeline').getByTestId('timeline-status')).toHaveCount(
        2,
      )
      const shownTimeline = page.getByTestId('record-timeline')
      await shownTimeline.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `test-results/changes-timeline-${theme}-${language}.png` })
    }
  }
  await call(app, 'settings.set', { theme: 'light', language: 'ko' })
  await page.reload()

  // A guarantee's entry opens its guarantee: the list on its registration day, its details open.
  await openView(page, 'changes')
  await page.getByTestId('changes-list-guarantees').click()
  const changed = page.locator('[data-testid="change-entry"]:not([data-kind="gone"])').first()
  const guaranteeIdx = (await changed.getAttribute('data-idx'))!
  await changed.getByTestId('change-open').click()
  await expect(page).toHaveURL(/#guarantees$/u)
  const guarantee = (await call(app, 'records.locate', {
    resource: 'guarantees',
    idx: Number(guaranteeIdx),
  }))!
  const day = guarantee.registeredAt!.slice(0, 10)
  await expect(page.getByTestId('filter-from')).toHaveValue(day)
  const guaranteePanel = page.getByTestId('detail-panel')
  await expect(
    guaranteePanel.locator('dd', { hasText: new RegExp(`^${guaranteeIdx}$`, 'u') }),
  ).toBeVisible()
  // The jump's filter shows as a chip and is never kept: the list opened from the sidebar later,
  // or after a reload, shows what the user last left it with (here: nothing narrowing it).
  const chip = page.getByTestId('jump-chip')
  await expect(chip).toContainText('변경 내역에서 연 필터')
  await page.screenshot({ path: 'test-results/changes-open-guarantee.png' })
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue(guaranteeIdx)
  await openView(page, 'dashboard')
  await openView(page, 'guarantees')
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('')
  await expect(page.getByTestId('filter-from')).toHaveValue('')
  await expect(chip).toBeHidden()
  const views = await call(app, 'views.list', {})
  expect(views.last.guarantees ?? { q: '', sort: 'latest' }).toEqual({ q: '', sort: 'latest' })
  // Removing the chip goes back to the user's own filter at once.
  await openView(page, 'changes')
  await page.getByTestId('changes-list-guarantees').click()
  await changed.getByTestId('change-open').click()
  await expect(chip).toBeVisible()
  await chip.getByRole('button', { name: '이 필터 지우기' }).click()
  await expect(chip).toBeHidden()
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('')
  await page.reload()
  await expect(page.getByTestId('guarantee-row').first()).toBeVisible()
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('')
})

test('marking seen: one entry, then all; the badge stays empty after a reload', async ({
  page,
  app,
}) => {
  await page.goto(app.host.url)
  await openView(page, 'changes')
  const badge = page.getByTestId('nav-badge-changes')
  const unseen = (await call(app, 'changes.unseen')).unseen
  expect(unseen).toBeGreaterThan(2)
  await expect(badge).toContainText(String(unseen))
  const first = page.getByTestId('change-entry').first()
  await first.getByTestId('change-seen').click()
  await expect(first).toHaveAttribute('data-seen', 'true')
  await expect(badge).toContainText(String(unseen - 1))

  await page.getByTestId('changes-mark-all').click()
  await expect(badge).toBeHidden()
  await expect(page.getByTestId('changes-unseen')).toHaveText('확인하지 않은 항목 0개')
  await expect(page.locator('[data-testid="change-entry"][data-seen="false"]')).toHaveCount(0)
  await page.reload()
  await openView(page, 'changes')
  await expect(page.getByTestId('change-entry').first()).toBeVisible()
  await expect(badge).toBeHidden()
  expect((await call(app, 'changes.unseen')).unseen).toBe(0)
})

test('a record waiting past its threshold is flagged, counted on the navigation and filtered', async ({
  page,
  app,
}) => {
  // Eight days after the first sync: inspections shipping since then have waited past 7.
  clock += 3 * DAY
  const rule = (await call(app, 'aging.counts')).rules.find((r) => r.rule === 'inspectionShipping')!
  expect(rule.count).toBeGreaterThan(0)
  await page.goto(app.host.url)
  await openView(page, 'inspections')
  await expect(page.getByTestId('nav-badge-inspections')).toContainText(String(rule.count))
  await page.getByTestId('aging-flagged').click()
  // Longest waiting first.
  await expect(page.getByTestId('sort')).toHaveValue('aged')
  await expect(page.getByTestId('row-count')).toContainText(`/ ${rule.count}건`)
  const rows = page.getByTestId('inspection-row')
  // A record first seen waiting counts from the service's time of its last change, at least
  // the eight days since the first sync.
  await expect(rows.first().getByTestId('aging-flag')).toContainText('일째')
  const longest = await rows.first().getByTestId('aging-flag').textContent()
  expect(Number(longest?.replace(/\D/gu, ''))).toBeGreaterThanOrEqual(8)
  const shown = await rows.count()
  await expect(rows.getByTestId('aging-flag')).toHaveCount(shown)
  await page.screenshot({ path: 'test-results/changes-aging-inspections.png' })

  // A threshold raised in Settings: the badge counts only what waited that long.
  await openView(page, 'settings')
  await page.getByTestId('aging-inspectionShipping').fill('365')
  await page.getByTestId('aging-save').click()
  await expect
    .poll(async () => (await call(app, 'settings.get')).agingDays.inspectionShipping)
    .toBe(365)
  const raised = (await call(app, 'aging.counts')).rules.find(
    (r) => r.rule === 'inspectionShipping',
  )!.count
  expect(raised).toBeLessThan(rule.count)
  const badge = page.getByTestId('nav-badge-inspections')
  if (raised === 0) await expect(badge).toBeHidden()
  else await expect(badge).toContainText(String(raised))
  await call(app, 'settings.set', { agingDays: { inspectionShipping: 7 } })
})
