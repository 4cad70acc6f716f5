import { DatabaseSync } from 'node:sqlite'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { test, expect, screenUrl } from './fixtures'
import type { SyncStatus } from '../../src/shared/lists'

/** Waits until the list has answered for its current filters. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

test.describe('inspections', () => {
  test('sync fills the list; status chips, search and the detail panel work', async ({
    page,
    app,
  }) => {
    await page.goto(screenUrl(app.host.url, 'inspections'))
    await expect(page.getByRole('heading', { name: '감정 내역' })).toBeVisible()
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
    await expect(page.getByTestId('inspection-row').first()).toBeVisible()
    await expect(page.getByRole('tab', { name: /^전체/ })).toContainText('500')

    // Status chip: every row shown carries that status.
    await page.getByRole('tab', { name: /^배송완료/ }).click()
    await expect(page.getByRole('tab', { name: /^배송완료/ })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await settled(page)
    await expect(page.getByTestId('inspection-row').first()).toBeVisible()
    const statuses = await page.getByTestId('inspection-row').locator('.status').allInnerTexts()
    expect(statuses.length).toBeGreaterThan(0)
    expect(new Set(statuses.map((text) => text.trim()))).toEqual(new Set(['배송완료']))

    // Records without a status are a filter of their own, never dropped.
    await page.getByRole('tab', { name: /^상태 없음/ }).click()
    await settled(page)
    await expect(page.getByTestId('inspection-row').first()).toContainText('상태 없음')

    // Free text in Korean narrows the list to matching product names.
    await page.getByRole('tab', { name: /^전체/ }).click()
    await page.getByRole('searchbox', { name: '검색' }).fill('샤넬')
    await settled(page)
    await expect(page.getByTestId('inspection-row').first()).toContainText('샤넬')
    const names = await page.getByTestId('inspection-row').locator('.product').allInnerTexts()
    expect(names.every((name) => name.includes('샤넬'))).toBe(true)

    await page.getByTestId('inspection-row').first().click()
    const panel = page.getByTestId('detail-panel')
    await expect(panel).toBeVisible()
    await expect(panel).toContainText('검수번호')
    await expect(panel).toContainText('(Asia/Seoul)')
    // Beside the open detail every column still fits, the time the list is sorted by too, and
    // the inspection number and that time show whole: the name and the status give room.
    const grid = (await page.getByRole('grid').boundingBox())!
    const sortedBy = (await page.getByRole('columnheader', { name: /접수일시/ }).boundingBox())!
    expect(sortedBy.x + sortedBy.width).toBeLessThanOrEqual(grid.x + grid.width + 1)
    const whole = await page
      .getByTestId('inspection-row')
      .first()
      .locator('.tabular')
      .evaluateAll((cells) => cells.map((cell) => cell.scrollWidth <= cell.clientWidth))
    expect(whole).toEqual([true, true])
    await page.screenshot({ path: 'test-results/inspections-detail.png' })
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()

    await page.getByRole('searchbox', { name: '검색' }).fill('존재하지않는상품명')
    await expect(page.getByText('조건에 맞는 항목이 없습니다.')).toBeVisible()
  })
})

test.describe('guarantees', () => {
  test('lists guarantees with their issuance state and opens the card detail', async ({
    page,
    app,
  }) => {
    await page.goto(app.host.url.replace('/#token=', '/#guarantees&token='))
    await page.getByRole('link', { name: '보증서' }).click()
    await expect(page.getByRole('heading', { name: '보증서' })).toBeVisible()
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()
    await page.getByRole('tab', { name: /^발급완료/ }).click()
    await settled(page)
    const states = await page.getByTestId('guarantee-row').locator('.status').allInnerTexts()
    expect(new Set(states.map((text) => text.trim()))).toEqual(new Set(['발급완료']))
    await page.getByTestId('guarantee-row').first().click()
    await expect(page.getByTestId('detail-panel')).toContainText('보증서 상세')
    await expect(page.getByTestId('detail-panel').getByTestId('card-image')).toBeVisible()
    // The image really arrives: `<img>` carries the web host's card cookie (no token header).
    await expect(page.getByTestId('detail-panel').getByTestId('card-image')).toHaveAttribute(
      'data-state',
      'loaded',
    )
    await page.screenshot({ path: 'test-results/guarantees-detail.png' })
  })

  test('product names are shown as text, never run as HTML (docs/faults.md F34)', async ({
    page,
    app,
  }) => {
    await page.goto(app.host.url)
    await page.getByRole('link', { name: '보증서' }).click()
    // An earlier test of this file may have synced already, so neither the rows nor an idle status
    // say that this sync is over: wait for a guarantees attempt that ended after the click. A page
    // it wrote later would put the service's names back over the hostile ones.
    const status = async () => {
      const answer = await app.core.router.dispatch('sync.status', {})
      if (!answer.ok) throw new Error(answer.error.code)
      return (answer.value as SyncStatus).resources
    }
    const attemptBefore = (await status()).find((r) => r.resource === 'guarantees')?.lastAttemptAt
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
    await expect
      .poll(async () => {
        const resources = await status()
        if (resources.some((r) => r.status === 'syncing' || r.queued)) return 'running'
        const attempt = resources.find((r) => r.resource === 'guarantees')?.lastAttemptAt
        return attempt !== attemptBefore ? 'done' : 'not started'
      })
      .toBe('done')
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()

    // Write hostile names into the cache file itself, as a compromised service could send them.
    const hostile = [
      '<img src=x onerror="window.__xss=1">',
      '<script>window.__xss=2</script>',
      '</title><svg onload=window.__xss=3>',
      '\u202Egpj.exe 악성',
      'A'.repeat(10_000),
    ]
    // The app may still hold the file (the first full sync ends by compacting it): wait for it.
    const db = new DatabaseSync(join(app.dataDir, 'cache', 'sandbox.sqlite'), { timeout: 15_000 })
    const top = db
      .prepare('SELECT idx FROM guarantees ORDER BY registered_at DESC, idx DESC LIMIT ?')
      .all(hostile.length) as {
      idx: number
    }[]
    hostile.forEach((name, i) =>
      db.prepare('UPDATE guarantees SET product_name = ? WHERE idx = ?').run(name, top[i]!.idx),
    )
    db.close()

    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.reload()
    await page.getByRole('link', { name: '보증서' }).click()
    await expect(page.getByTestId('guarantee-row').first()).toContainText(
      '<img src=x onerror="window.__xss=1">',
    )
    await expect(page.getByTestId('guarantee-row').nth(1)).toContainText(
      '<script>window.__xss=2</script>',
    )
    const xss = await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)
    expect(xss).toBeUndefined()
    expect(dialogs).toEqual([])
    // The 10,000-character name is cut by CSS, not allowed to widen the table.
    const width = await page
      .getByTestId('guarantee-row')
      .nth(4)
      .evaluate((row) => row.scrollWidth)
    expect(width).toBeLessThan(1400)
  })
})
