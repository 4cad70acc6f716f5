import type { Page } from '@playwright/test'
import { call, expect, screenUrl, test } from './fixtures'

/**
 * Acting on a selection in the browser (docs/renderer.md "Act on a
 * selection"): Shift+click and Shift+J pick ranges, Ctrl+A every row of the
 * filter; one action marks them all through `reviews.setMany`, the list and
 * its counts follow, and the toast's Undo takes it back.
 */

async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

async function openInspections(page: Page, url: string): Promise<void> {
  await page.goto(screenUrl(url, 'inspections'))
  const rows = page.getByTestId('inspection-row')
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  await settled(page)
}

async function reviewedCount(app: Parameters<typeof call>[0]): Promise<number> {
  const page = await call(app, 'inspections.query', { review: 'reviewed', limit: 1 })
  return page.total
}

test.describe('act on a selection', () => {
  test('Shift+click selects a range, one action marks it, the toast undoes it', async ({
    page,
    app,
  }) => {
    await openInspections(page, app.host.url)
    const rows = page.getByTestId('inspection-row')
    const idxs = await Promise.all([0, 1, 2, 3].map((n) => rows.nth(n).getAttribute('data-idx')))
    await rows.nth(0).click()
    await rows.nth(3).click({ modifiers: ['Shift'] })
    await expect(page.getByTestId('selection-count')).toHaveText('4건 선택됨')
    await expect(page.locator('[data-testid=inspection-row][data-checked=true]')).toHaveCount(4)
    await page.screenshot({ path: 'test-results/selection-bar.png' })
    const before = await reviewedCount(app)

    await page
      .getByTestId('selection-bar')
      .getByRole('button', { name: '검토 완료로 표시' })
      .click()
    await expect(page.getByTestId('review-toast')).toContainText('4건: 검토 완료')
    await expect(page.getByTestId('selection-bar')).toHaveCount(0)
    for (const idx of idxs) {
      await expect(
        page.locator(`[data-testid=inspection-row][data-idx="${idx}"] [data-testid=review-badge]`),
      ).toHaveAttribute('data-mark', 'reviewed')
    }
    expect(await reviewedCount(app)).toBe(before + 4)
    await page.screenshot({ path: 'test-results/selection-marked.png' })

    await page.getByTestId('review-toast').getByRole('button', { name: '되돌리기' }).click()
    await expect(page.getByTestId('review-toast')).toContainText('되돌림')
    await expect.poll(async () => reviewedCount(app)).toBe(before)
    await expect(
      page.locator(
        `[data-testid=inspection-row][data-idx="${idxs[0]}"] [data-testid=review-badge]`,
      ),
    ).not.toHaveAttribute('data-mark', 'reviewed')
  })

  test('Shift+J extends from the cursor, Ctrl+A takes all rows of the filter, Esc clears', async ({
    page,
    app,
  }) => {
    await openInspections(page, app.host.url)
    const rows = page.getByTestId('inspection-row')
    await rows.nth(0).click()
    await page.keyboard.press('Escape')
    await page.keyboard.press('Shift+J')
    await page.keyboard.press('Shift+J')
    await expect(page.getByTestId('selection-count')).toHaveText('3건 선택됨')
    await page.keyboard.press('Shift+K')
    await expect(page.getByTestId('selection-count')).toHaveText('2건 선택됨')
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('selection-bar')).toHaveCount(0)

    // 500 rows: no question below the threshold; every row of the filter, loaded or not.
    await page.keyboard.press('Control+a')
    await expect(page.getByTestId('selection-count')).toHaveText('500건 선택됨')
    await page
      .getByTestId('selection-bar')
      .getByRole('button', { name: '후속 조치 필요로 표시' })
      .click()
    await expect(page.getByTestId('review-toast')).toContainText('500건')
    const followUp = await call(app, 'inspections.query', { review: 'follow_up', limit: 1 })
    expect(followUp.total).toBe(500)
    await page.keyboard.press('Control+z')
    await expect(page.getByTestId('review-toast')).toContainText('되돌림')
    const after = await call(app, 'inspections.query', { review: 'follow_up', limit: 1 })
    expect(after.total).toBe(0)

    // Ctrl+A in the search field selects its text, not the rows.
    await page.getByRole('searchbox').first().click()
    await page.keyboard.press('Control+a')
    await expect(page.getByTestId('selection-bar')).toHaveCount(0)
  })

  test('without a team server: no assignee column, filter, assign action or My queue', async ({
    page,
    app,
  }) => {
    await openInspections(page, app.host.url)
    await expect(page.getByRole('columnheader', { name: '검토' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: '담당' })).toHaveCount(0)
    await expect(page.getByTestId('assignee-filter')).toHaveCount(0)
    const rows = page.getByTestId('inspection-row')
    await rows.nth(0).click()
    await rows.nth(1).click({ modifiers: ['Shift'] })
    await expect(page.getByTestId('selection-bar')).toBeVisible()
    await expect(page.getByTestId('selection-assign')).toHaveCount(0)
    await expect(page.getByTestId('detail-assignee')).toHaveCount(0)
    await expect(page.getByRole('link', { name: /내 작업함/ })).toHaveCount(0)
  })
})
