import type { Locator, Page } from '@playwright/test'
import type { SavedViewList } from '../../src/shared/saved-views'
import { test, expect, type RunningApp, screenUrl } from './fixtures'

/**
 * The lead's screens: the dashboard (every number and bar opens the list it
 * counts, with exactly that many rows), the reconciliation view (a row opens
 * its record), and saved views (kept across a reload). Screenshots of both
 * screens in both themes and languages go to test-results/ (looked at by hand).
 */

/** Syncs everything through the core and waits for every run to end. */
async function syncAll(app: RunningApp): Promise<void> {
  await app.core.router.dispatch('sync.start', {
    resources: ['inspections', 'guarantees', 'brands'],
  })
  await app.core.sync.idle()
}

/** The total of the list footer (`100 / 500건`, `100 / 500 rows`). */
async function listTotal(page: Page): Promise<number> {
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
  const text = (await page.getByTestId('row-count').textContent()) ?? ''
  const total = /\/\s*([\d,]+)/.exec(text)?.[1]
  expect(total, text).toBeDefined()
  return Number(total!.replace(/,/g, ''))
}

/** Clicks a dashboard number and checks that the list it opens holds exactly that many records. */
async function opensItsCount(page: Page, number: Locator): Promise<void> {
  const n = Number(await number.getAttribute('data-n'))
  const label = (await number.getAttribute('aria-label')) ?? ''
  await number.click()
  await expect(page).toHaveURL(/#(inspections|guarantees)$/)
  await expect.poll(() => listTotal(page), label).toBe(n)
}

/** Whether the chart's canvas holds a pixel of the colour the theme gives `token` (bars use `--accent`). */
async function canvasHasToken(chart: Locator, token: string): Promise<boolean> {
  return chart.evaluate((figure, name) => {
    const canvas = figure.querySelector('canvas')
    // Not drawn yet (the chart mounts after its answer): ask again.
    if (!canvas) return false
    const probe = document.createElement('canvas').getContext('2d')!
    probe.fillStyle = getComputedStyle(figure).getPropertyValue(name).trim()
    probe.fillRect(0, 0, 1, 1)
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height)
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255)
        return true
    }
    return false
  }, token)
}

async function openDashboard(page: Page, app: RunningApp): Promise<void> {
  await page.goto(app.host.url)
  await expect(page.locator('nav a[href="#dashboard"]')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('dash-list-inspections')).toBeVisible()
}

test.beforeAll(async ({ app }) => {
  await syncAll(app)
})

test('the app opens on the dashboard, first in the navigation', async ({ page, app }) => {
  await openDashboard(page, app)
  await expect(page.locator('nav a').first()).toHaveAttribute('href', '#dashboard')
  await expect(
    page.getByTestId('dash-list-inspections').getByTestId('dash-number').first(),
  ).toHaveAttribute('data-n', '500')
})

test('every kind of dashboard number opens its list with exactly that many rows', async ({
  page,
  app,
}) => {
  await openDashboard(page, app)
  // One of each kind: a list's total, its week, a status's total and week, a chart period, an aging rule.
  const pick: Array<(page: Page) => Locator> = [
    (p) => p.getByTestId('dash-list-inspections').getByTestId('dash-number').first(),
    (p) => p.getByTestId('dash-list-guarantees').getByTestId('dash-number').nth(1),
    (p) => p.getByTestId('dash-status-inspections').getByTestId('dash-number').nth(0),
    (p) => p.getByTestId('dash-status-inspections').getByTestId('dash-number').nth(4),
    (p) => p.getByTestId('dash-status-guarantees').getByTestId('dash-number').nth(3),
    (p) =>
      p
        .getByTestId('dash-table-inspections')
        .getByTestId('dash-number')
        .and(p.locator(':not([data-n="0"])'))
        .first(),
    (p) => p.getByTestId('dash-aging').getByTestId('dash-number').first(),
  ]
  for (const locate of pick) {
    await openDashboard(page, app)
    await opensItsCount(page, locate(page))
  }
})

test('a bar of the chart opens the list of its period', async ({ page, app }) => {
  await openDashboard(page, app)
  await page.getByTestId('bucket-week').click()
  const chart = page.getByTestId('dash-chart-inspections')
  // Eight weeks: the numbers behind the bars are in the table, previous period first.
  const current = chart.locator('tbody tr').nth(1).getByTestId('dash-number')
  await expect(current).toHaveCount(8)
  const counts = await current.evaluateAll((cells) =>
    cells.map((cell) => Number(cell.dataset['n'])),
  )
  const index = counts.findIndex((n) => n > 0)
  expect(index, counts.join(',')).toBeGreaterThanOrEqual(0)
  await chart.screenshot({ path: 'test-results/insight-chart-week-ko.png' })
  const plot = chart.locator('.u-over')
  const box = (await plot.boundingBox())!
  const slot = box.width / counts.length
  // The current period's bar sits right of its tick.
  await plot.click({ position: { x: slot * index + slot * 0.5 + slot * 0.15, y: box.height - 4 } })
  await expect(page).toHaveURL(/#inspections$/)
  await expect.poll(() => listTotal(page)).toBe(counts[index])
  await expect(page.getByTestId('filter-from')).not.toHaveValue('')
})

test('a reconciliation total opens its kind; a row opens its record', async ({ page, app }) => {
  await openDashboard(page, app)
  const total = page.getByTestId('dash-reconcile').getByTestId('dash-number').first()
  const n = Number(await total.getAttribute('data-n'))
  await total.click()
  await expect(page).toHaveURL(/#reconcile$/)
  await expect(page.getByRole('tab', { name: /^보증서 없는 정품/ })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(page.getByTestId('reconcile-count')).toContainText(`${n}`)
  const rows = page.getByTestId('reconcile-row')
  await expect(rows.first()).toBeVisible()
  await expect(rows.and(page.locator(':not([data-kind="unguaranteed"])'))).toHaveCount(0)

  // A member id narrows the groups as it is typed (ids that start with it); emptied, every
  // member is back.
  // The old groups dim while an answer takes long enough to notice, never for a fast one.
  const members = await rows.evaluateAll((all) => all.map((row) => row.dataset['member']!))
  const [member, other] = [members[0]!, members.find((m) => m !== members[0])!]
  expect(other).toBeDefined()
  const memberBox = page.getByTestId('reconcile-member')
  const card = page.locator('.table-card', { has: page.getByTestId('reconcile-table') })
  const onlyOf = (m: string) => rows.and(page.locator(`:not([data-member^="${m}"])`))
  const slow = '**/ipc/reconcile.list'
  // The answer is held until the old groups have dimmed: an answer that takes long.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(slow, async (route) => {
    await held
    await route.continue()
  })
  await memberBox.fill(member)
  await expect(card).toHaveClass(/\bstale\b/)
  await page.screenshot({ path: 'test-results/insight-reconcile-dimmed.png' })
  release()
  await expect(onlyOf(member)).toHaveCount(0)
  await expect(card).not.toHaveClass(/\bstale\b/)
  await page.unroute(slow)
  await card.evaluate((element) => {
    const seen = new MutationObserver(() => {
      if (element.classList.contains('stale')) element.dataset['wasStale'] = 'yes'
    })
    seen.observe(element, { attributes: true, attributeFilter: ['class'] })
  })
  await memberBox.fill(other)
  await expect(onlyOf(other)).toHaveCount(0)
  await expect(rows.first()).toBeVisible()
  await expect(card).not.toHaveAttribute('data-was-stale')
  const theirs = await rows.count()
  // The chips and the footer count that member's records, not every member's.
  const memberRecords = await rows
    .locator('td.num')
    .evaluateAll((cells) => cells.reduce((sum, cell) => sum + Number(cell.textContent), 0))
  const chip = page.getByRole('tab', { name: /^보증서 없는 정품/ })
  await expect
    .poll(async () => Number((await chip.textContent())!.replace(/\D/gu, '')))
    .toBe(memberRecords)
  expect(memberRecords).toBeLessThan(n)
  await expect(page.getByTestId('reconcile-count')).toContainText(String(memberRecords))
  // A member nobody has: not "nothing is wrong", but nothing for that id.
  await memberBox.fill('zz-no-such-member')
  await expect(page.getByText('‘zz-no-such-member’(으)로 시작하는 회원 ID에는')).toBeVisible()
  await page.screenshot({ path: 'test-results/insight-reconcile-no-member.png' })
  await memberBox.fill('')
  await expect.poll(() => rows.count()).toBeGreaterThan(theirs)

  const record = page.getByTestId('reconcile-record').first()
  const idx = (await record.getAttribute('data-idx'))!
  const resource = (await record.getAttribute('data-resource'))!
  await record.click()
  await expect(page).toHaveURL(new RegExp(`#${resource}$`))
  const detail = page.getByTestId('detail-panel')
  await expect(detail).toBeVisible()
  await expect(detail.locator('dd').filter({ hasText: new RegExp(`^${idx}$`) })).toHaveCount(1)
})

test('a saved view keeps its filter, sort and search; the last filter is back after a reload', async ({
  page,
  app,
}) => {
  await page.goto(screenUrl(app.host.url, 'inspections'))
  await expect(page.getByTestId('inspection-row').first()).toBeVisible()
  await page.getByRole('tab', { name: /^배송완료/ }).click()
  await page.getByTestId('sort').selectOption('oldest')
  await page.getByRole('searchbox', { name: '검색' }).fill('샤넬')
  const wanted = await listTotal(page)

  await page.getByTestId('view-save').click()
  await page.getByTestId('view-name').fill('오래된 샤넬 배송완료')
  await page.getByTestId('view-confirm').click()
  await expect(page.getByTestId('view-current')).toContainText('오래된 샤넬 배송완료')
  const link = page.getByTestId('sidebar-view').filter({ hasText: '오래된 샤넬 배송완료' })
  await expect(link).toHaveAttribute('aria-current', 'true')
  await page.screenshot({ path: 'test-results/insight-saved-view-ko.png' })

  // A second view under the same name is refused in place.
  await page.getByRole('tab', { name: /^전체/ }).click()
  await page.getByTestId('view-save').click()
  await page.getByTestId('view-name').fill('오래된 샤넬 배송완료')
  await page.getByTestId('view-confirm').click()
  await expect(page.getByRole('alert')).toContainText('같은 이름')
  await page.keyboard.press('Escape')

  // The last filter (all statuses, oldest first, 샤넬) is what a reload shows.
  await expect
    .poll(async () => {
      const answer = await app.core.router.dispatch('views.list', {})
      return answer.ok ? (answer.value as SavedViewList).last.inspections : 'failed'
    })
    .toEqual({ q: '샤넬', sort: 'oldest' })
  await page.reload()
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('샤넬')
  await expect(page.getByTestId('sort')).toHaveValue('oldest')
  await expect(page.getByRole('tab', { name: /^전체/ })).toHaveAttribute('aria-selected', 'true')

  // The saved view, from the sidebar after the reload, restores all of it.
  await link.click()
  await expect(page.getByRole('tab', { name: /^배송완료/ })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('샤넬')
  await expect(page.getByTestId('sort')).toHaveValue('oldest')
  expect(await listTotal(page)).toBe(wanted)
  await expect(link).toHaveAttribute('aria-current', 'true')

  // From another screen too; then renamed and deleted.
  await page.getByRole('link', { name: '대시보드' }).click()
  await link.click()
  await expect(page).toHaveURL(/#inspections$/)
  await expect(page.getByTestId('view-current')).toBeVisible()
  await page.getByTestId('view-rename').click()
  await page.getByTestId('view-name').fill('샤넬 배송완료 (오래된 순)')
  await page.getByTestId('view-confirm').click()
  const renamed = page.getByTestId('sidebar-view').filter({ hasText: '샤넬 배송완료 (오래된 순)' })
  await expect(renamed).toBeVisible()
  await page.getByTestId('view-remove').click()
  await expect(page.getByTestId('sidebar-view')).toHaveCount(0)
  await expect(page.getByTestId('view-save')).toBeVisible()
  // A deletion is offered back: Undo saves it again, with its name and filter.
  await expect(page.getByTestId('view-removed')).toContainText('샤넬 배송완료 (오래된 순)')
  await page.getByTestId('view-undo').click()
  await expect(renamed).toBeVisible()
  await expect(page.getByTestId('view-current')).toContainText('샤넬 배송완료 (오래된 순)')
  await expect(page.getByTestId('view-removed')).toHaveCount(0)
  await page.getByTestId('view-remove').click()
  await expect(page.getByTestId('sidebar-view')).toHaveCount(0)
})

test('screenshots: dashboard and reconciliation, both themes and both languages', async ({
  page,
  app,
}) => {
  test.setTimeout(90_000)
  // Tall enough for the whole dashboard in one picture.
  await page.setViewportSize({ width: 1280, height: 1400 })
  for (const theme of ['light', 'dark'] as const) {
    for (const language of ['ko', 'en'] as const) {
      await app.core.router.dispatch('settings.set', { theme, language })
      await openDashboard(page, app)
      await page.reload()
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      // The canvas is drawn in the painted theme's colours, from the first drawing on (the grid
      // in --border-soft) to one after a change (eight weeks' bars; the current ones in --accent).
      const chart = page.getByTestId('dash-chart-inspections')
      await expect
        .poll(() => canvasHasToken(chart, '--border-soft'), `${theme} ${language}`)
        .toBe(true)
      await page.getByTestId('bucket-week').click()
      await expect.poll(() => canvasHasToken(chart, '--accent'), `${theme} ${language}`).toBe(true)
      await page.screenshot({ path: `test-results/insight-dashboard-${theme}-${language}.png` })
      await page.evaluate(() => (location.hash = 'reconcile'))
      await expect(page.getByTestId('reconcile-row').first()).toBeVisible()
      await page.screenshot({ path: `test-results/insight-reconcile-${theme}-${language}.png` })
    }
  }
  await app.core.router.dispatch('settings.set', { theme: 'system', language: 'ko' })
})
