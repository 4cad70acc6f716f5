import { expect, test } from '@playwright/test'
import { startApp, screenUrl } from './fixtures'

/**
 * The brand list on a service that trickles its answer (docs/faults.md F13): the
 * screen answers at once and says the list is not loaded yet, instead of a
 * spinner for a minute or an empty "no match".
 */
let app: Awaited<ReturnType<typeof startApp>>
test.beforeAll(async () => {
  app = await startApp({
    sandbox: { size: 20, faults: [{ kind: 'slow_body', route: 'brand', bytes: 32, ms: 500 }] },
  })
})
test.afterAll(async () => {
  await app.close()
})

test('says "not loaded yet" at once while the brand list trickles in, in Korean and English', async ({
  page,
}) => {
  await page.goto(screenUrl(app.host.url, 'brands'))
  const notLoaded = page.getByTestId('brands-not-loaded')
  await expect(notLoaded).toContainText('브랜드 목록을 아직 불러오지 않았습니다.', {
    timeout: 3000,
  })
  await page.getByRole('searchbox', { name: '브랜드 검색' }).fill('샤넬')
  await expect(notLoaded).toBeVisible({ timeout: 2000 })
  await page.screenshot({ path: 'test-results/brands-not-loaded-ko.png' })
  await page.getByRole('button', { name: 'English' }).click()
  await expect(notLoaded).toContainText('The brand list is not loaded yet.')
})
