import { expect, test } from '@playwright/test'
import { screenUrl, startApp } from './fixtures'

/**
 * A one-character search matches much of a list and is counted over its
 * first 1,000 matches only (docs/store-and-sync.md): the footer and the
 * chips say the counts are lower bounds, in both languages, and a longer
 * search is counted exactly again.
 */
let app: Awaited<ReturnType<typeof startApp>>
test.beforeAll(async () => {
  app = await startApp({ sandbox: { size: 1500 } })
})
test.afterAll(async () => {
  await app.close()
})

test('a one-digit search shows its counts as "at least"', async ({ page }) => {
  await page.goto(screenUrl(app.host.url, 'inspections'))
  await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  await expect(page.getByTestId('row-count')).toContainText('/ 1,500건')
  await expect(page.getByTestId('row-count')).not.toContainText('이상')

  const search = page.getByRole('searchbox')
  await search.fill('2')
  // Rows loaded of the matches: the grid may have loaded a few pages ahead by now.
  await expect(page.getByTestId('row-count')).toHaveText(/^[\d,]+ \/ 1,000건 이상$/u)
  await expect(page.getByRole('tab', { name: /^전체/ }).first()).toContainText('1,000+')
  await page.screenshot({ path: 'test-results/short-search-ko.png' })

  await page.getByRole('button', { name: 'English' }).click()
  await expect(page.getByTestId('row-count')).toHaveText(/^[\d,]+ of 1,000\+$/u)
  await page.screenshot({ path: 'test-results/short-search-en.png' })

  // Three digits are counted exactly: no plus.
  await search.fill('202')
  await expect(page.getByTestId('row-count')).not.toContainText('+')
  await expect(page.getByRole('tab', { name: /^All/ }).first()).not.toContainText('+')
})
