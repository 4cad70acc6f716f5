import { expect, test } from '@playwright/test'
import { startApp } from './fixtures'

/**
 * A card image main refuses because decoding it would cost too much memory
 * (docs/faults.md F31): the card says so in both languages instead of looking
 * missing. The pixel cap is set below the sandbox's 320×200 cards, so every
 * card is "too large" here.
 */
let app: Awaited<ReturnType<typeof startApp>>
test.beforeAll(async () => {
  app = await startApp({ sandbox: { size: 40 }, imageMaxPixels: 10_000 })
})
test.afterAll(async () => {
  await app.close()
})

test('a refused card image says it is too large to show safely, in Korean and English', async ({
  page,
}) => {
  await page.goto(app.host.url)
  await page.getByRole('link', { name: '보증서' }).click()
  await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  await page.getByTestId('guarantee-row').first().click()
  const card = page.getByTestId('detail-panel').getByTestId('card-image')
  await expect(card).toHaveAttribute('data-state', 'too-large')
  await expect(card).toContainText('이미지가 너무 커서 안전하게 표시할 수 없습니다')
  await page.screenshot({ path: 'test-results/card-too-large-ko.png' })
  await page.getByRole('button', { name: 'English' }).click()
  await expect(card).toContainText('Image too large to show safely')
  // The thumbnails in the list carry it as their title.
  await expect(page.getByTestId('guarantee-row').first().getByTestId('card-image')).toHaveAttribute(
    'title',
    'Image too large to show safely',
  )
})
