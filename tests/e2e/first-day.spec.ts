import type { Page } from '@playwright/test'
import { call, expect, screenUrl, startApp, testWithApp } from './fixtures'

/**
 * What a new staff member meets on the first launch: the demo's data ends
 * in the hours before the app started (the sandbox's anchor, fixed here),
 * so this week's cards are not empty; the window holds at 1024×700 and at
 * 200 % zoom; no time is written as ISO text and no run id shows; an
 * error's details are in the window's language. Screenshots go to
 * `test-results/` (SHOTS overrides).
 */

const SHOTS = process.env['SHOTS'] ?? 'test-results'
/** A Wednesday afternoon in Seoul: the sandbox's "now", and the core's clock half an hour on. */
const ANCHOR = Date.parse('2026-11-25T15:00:00+09:00')

const test = testWithApp(async () => {
  const app = await startApp({
    sandbox: { size: 500, anchor: ANCHOR },
    now: () => new Date(ANCHOR + 30 * 60_000),
  })
  await call(app, 'sync.start', { resources: ['inspections', 'guarantees'], mode: 'full' })
  await app.core.sync.idle()
  return app
})

test.describe.configure({ mode: 'serial' })

/** An ISO instant (`2026-11-28T19:36:42.487Z`, `…+09:00`) or a run id's hex run of 8 or more. */
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/u
const HEX_RUN = /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/u

/** Every visible text node of the window that matches `pattern`. */
function textsMatching(page: Page, pattern: RegExp): Promise<string[]> {
  return page.evaluate(
    ([source, flags]) => {
      const re = new RegExp(source, flags)
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      const found: string[] = []
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? ''
        if (re.test(text)) found.push(text.trim())
      }
      return found
    },
    [pattern.source, pattern.flags] as const,
  )
}

/** True when the element's box lies inside the viewport (no scrolling needed to see it). */
async function inView(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).first().boundingBox()
  const size = page.viewportSize()
  if (!box || !size) return false
  return box.y >= 0 && box.y + box.height <= size.height + 0.5 && box.height > 0
}

test('the first launch shows this week’s work, not zeros', async ({ page, app }) => {
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.goto(app.host.url)
  const inspections = page.getByTestId('dash-list-inspections')
  await expect(inspections).toBeVisible()
  const thisWeek = inspections.getByTestId('dash-number').nth(1)
  await expect(thisWeek).not.toHaveAttribute('data-n', '0')
  expect(Number(await thisWeek.getAttribute('data-n'))).toBeGreaterThan(0)
  // Records already waiting at the first sync have aged by their own last change, not from 0.
  const aging = page.getByTestId('dash-aging').getByTestId('dash-number')
  await expect(aging.first()).toBeVisible({ timeout: 15_000 })
  const aged = await aging.evaluateAll((nodes) =>
    nodes.map((node) => Number(node.getAttribute('data-n'))),
  )
  expect(Math.max(...aged)).toBeGreaterThan(0)
  await page.screenshot({ path: `${SHOTS}/first-day-dashboard-1024x700.png` })
  await page.getByTestId('dash-chart-inspections').scrollIntoViewIfNeeded()
  await page.getByTestId('dash-chart-inspections').screenshot({
    path: `${SHOTS}/first-day-chart.png`,
  })
})

test('an aged record first seen waiting says it has waited at least since its last change', async ({
  page,
  app,
}) => {
  await page.goto(app.host.url)
  const aging = page.getByTestId('dash-aging').getByTestId('dash-number')
  await expect(aging.first()).toBeVisible({ timeout: 15_000 })
  const counts = await aging.evaluateAll((nodes) =>
    nodes.map((node) => Number(node.getAttribute('data-n'))),
  )
  await aging.nth(counts.findIndex((n) => n > 0)).click()
  const row = page.locator('[data-testid=inspection-row], [data-testid=guarantee-row]').first()
  await row.click()
  await expect(page.getByTestId('timeline-since')).toContainText('적어도')
})

test('each period of a chart is written with its own dates', async ({ page, app }) => {
  await page.goto(app.host.url)
  const chart = page.getByTestId('dash-chart-inspections')
  await expect(chart).toBeVisible()
  // The anchor's Seoul day is Wednesday 2026-11-25: the last 7 days are 11.19–11.25, the 7 before 11.12–11.18.
  await expect(chart.getByTestId('legend-current')).toHaveText(/11\D+19\D+11\D+25/u)
  await expect(chart.getByTestId('legend-previous')).toHaveText(/11\D+12\D+11\D+18/u)
  const table = page.getByTestId('dash-table-inspections')
  // The columns name positions (weekdays), never one period's dates.
  await expect(table.locator('thead th').nth(1)).toHaveText('목')
  const rows = table.locator('tbody tr')
  await expect(rows.nth(0).getByTestId('cell-date').first()).toHaveText(/11\D+12/u)
  await expect(rows.nth(1).getByTestId('cell-date').first()).toHaveText(/11\D+19/u)
  // The first full sync has ended: no number says it is partial.
  await expect(page.getByTestId('partial-tag')).toHaveCount(0)
  await chart.screenshot({ path: `${SHOTS}/first-day-chart-dates.png` })
})

for (const size of [
  { name: '1024x700', width: 1024, height: 700 },
  // 200 % zoom of a 1024×700 window: the same CSS viewport as a 512×350 window at 100 %
  // (deviceScaleFactor only sharpens pixels; it does not zoom the layout).
  { name: 'zoom-200', width: 512, height: 350 },
]) {
  test(`at ${size.name} the status bar and a grid row are in view`, async ({ page, app }) => {
    await page.setViewportSize({ width: size.width, height: size.height })
    await page.goto(screenUrl(app.host.url, 'inspections'))
    await expect(page.getByTestId('inspection-row').first()).toBeVisible()
    expect(await inView(page, 'status-bar')).toBe(true)
    expect(await inView(page, 'inspection-row')).toBe(true)
    await page.screenshot({ path: `${SHOTS}/first-day-inspections-${size.name}.png` })
  })
}

test('a wide window is used: at 2560×1440 the dashboard spans most of it', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 2560, height: 1440 })
  await page.goto(app.host.url)
  const cards = page.getByTestId('dash-list-inspections')
  await expect(cards).toBeVisible()
  const dashboard = await page.getByTestId('dashboard').boundingBox()
  expect(dashboard!.width).toBeGreaterThan(2560 * 0.8)
  // More cards a row: the aging and reconciliation cards sit beside the lists'.
  const first = await cards.boundingBox()
  const reconcile = await page.getByTestId('dash-reconcile').boundingBox()
  expect(Math.abs(reconcile!.y - first!.y)).toBeLessThan(2)
  await page.screenshot({ path: `${SHOTS}/first-day-dashboard-2560.png` })
})

test('the sidebar collapses by its button and Ctrl+B, by itself below 1100 px, and stays so', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 })
  await page.goto(app.host.url)
  const sidebar = page.getByTestId('sidebar')
  await expect(page.getByTestId('dash-list-inspections')).toBeVisible()
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false')
  await page.getByTestId('sidebar-toggle').click()
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true')
  // Each screen by its short form, its name in the tooltip and the link's name.
  const link = sidebar.getByRole('link', { name: /감정 내역/u })
  await expect(link).toHaveAttribute('title', '감정 내역')
  expect((await sidebar.boundingBox())!.width).toBeLessThan(100)
  await page.screenshot({ path: `${SHOTS}/first-day-sidebar-collapsed.png` })
  // Remembered in the settings: a reload keeps it collapsed.
  await page.reload()
  await expect(page.getByTestId('dash-list-inspections')).toBeVisible()
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true')
  await page.keyboard.press('Control+b')
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false')
  await expect.poll(async () => (await call(app, 'settings.get', {})).sidebarCollapsed).toBe(false)
  // A narrow window collapses it by itself; the setting stays open.
  await page.setViewportSize({ width: 1024, height: 700 })
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true')
  await page.setViewportSize({ width: 1400, height: 900 })
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false')
})

test('c copies the selected record’s number and says so where staff look', async ({
  page,
  app,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(screenUrl(app.host.url, 'inspections'))
  const row = page.getByTestId('inspection-row').first()
  await row.click()
  await page.keyboard.press('c')
  const notice = page.getByTestId('notice')
  await expect(notice).toBeVisible()
  await expect(notice).toContainText('복사')
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toMatch(/^\d+$/u)
  await expect(notice).toContainText(copied)
  await page.screenshot({ path: `${SHOTS}/first-day-copied.png` })
  // It goes after a few seconds.
  await expect(notice).toHaveText('', { timeout: 8000 })
})

test('no time is written as ISO text and no run id shows', async ({ page, app }) => {
  await page.goto(app.host.url)
  await expect(page.getByTestId('dash-list-inspections')).toBeVisible()
  for (const screen of ['dashboard', 'inspections', 'guarantees', 'changes', 'wallet']) {
    await page.goto(screenUrl(app.host.url, screen))
    await expect(page.getByTestId('status-bar')).toBeVisible()
    if (screen === 'inspections') {
      await page.getByTestId('inspection-row').first().click()
      await expect(page.getByTestId('record-timeline')).toBeVisible()
    }
    expect(await textsMatching(page, ISO), screen).toEqual([])
    expect(await textsMatching(page, HEX_RUN), screen).toEqual([])
  }
})

test('an error’s details are in the window’s language', async ({ page, app }) => {
  await page.goto(screenUrl(app.host.url, 'wallet'))
  const form = page.getByTestId('wallet-sync-form')
  await expect(form).toBeVisible()
  // A guarantee sync with the token left empty, as the form suggests, on a guarantee with none stored.
  const guarantee = app.core.sandbox.dataset.guarantee(0)
  await form.locator('input[name=wallet-sync-member]').fill(guarantee.refUserId ?? 'member-1')
  await form.locator('input[name=wallet-sync-idx]').fill(String(guarantee.idx))
  await form.locator('button[type=submit]').click()
  const banner = page.getByTestId('error-banner')
  await expect(banner.locator('strong')).toContainText(`보증서 ${guarantee.idx}에는`)
  await banner.getByText('자세히').click()
  const details = banner.getByTestId('tech-details').locator('pre')
  await expect(details).toContainText('보증서 상세 조회')
  await expect(details).not.toContainText('paste the token')
  await page.screenshot({ path: `${SHOTS}/first-day-error-details.png` })
})

test('without a team server the detail pane lists the record’s review history, newest first', async ({
  page,
  app,
}) => {
  await page.goto(screenUrl(app.host.url, 'inspections'))
  const row = page.getByTestId('inspection-row').nth(2)
  await row.click()
  const editor = page.getByTestId('review-editor')
  await expect(editor).toBeVisible()
  await page.keyboard.press('r')
  await expect(editor.locator('[data-mark=reviewed]')).toHaveAttribute('aria-checked', 'true')
  await page.keyboard.press('f')
  await expect(editor.locator('[data-mark=follow_up]')).toHaveAttribute('aria-checked', 'true')
  await editor.locator('[data-mark=none]').click()
  const entries = page.getByTestId('review-history').getByTestId('review-history-entry')
  await expect(entries).toHaveCount(3)
  expect(await entries.evaluateAll((nodes) => nodes.map((node) => node.dataset['mark']))).toEqual([
    'none',
    'follow_up',
    'reviewed',
  ])
  // This machine's own changes: never "not sent yet", each with its time in the profile's zone.
  await expect(entries.first()).toHaveAttribute('data-local', 'true')
  await expect(page.getByTestId('review-history')).not.toContainText('전송 대기')
  await expect(entries.first().locator('time')).toHaveText(/\d{1,2}:\d{2}/u)
  expect(await textsMatching(page, ISO)).toEqual([])
  await page.getByTestId('review-history').screenshot({ path: `${SHOTS}/first-day-history.png` })
})
