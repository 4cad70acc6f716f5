import type { Page } from '@playwright/test'
import { test, expect, screenUrl } from './fixtures'

async function syncInspections(page: Page, url: string): Promise<void> {
  await page.goto(screenUrl(url, 'inspections'))
  const rows = page.getByTestId('inspection-row')
  await expect(page.getByTestId('sync-control')).toBeVisible()
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

test.describe('commands', () => {
  test('Ctrl+K opens the palette: a screen by name, a command, an inspection by number', async ({
    page,
    app,
  }) => {
    await syncInspections(page, app.host.url)
    const palette = page.getByTestId('command-palette')

    await page.keyboard.press('Control+k')
    await expect(palette).toBeVisible()
    await expect(palette.getByRole('combobox')).toBeFocused()
    await page.keyboard.type('보증')
    await expect(palette.getByTestId('palette-entry').first()).toContainText('보증서')
    await page.keyboard.press('Enter')
    await expect(palette).toBeHidden()
    await expect(page).toHaveURL(/#guarantees$/)

    // Ctrl+1 goes to the first screen (the dashboard), Ctrl+2 to the inspections.
    await page.keyboard.press('Control+1')
    await expect(page).toHaveURL(/#dashboard$/)
    await page.keyboard.press('Control+2')
    await expect(page).toHaveURL(/#inspections$/)
    await expect(page.getByTestId('inspection-row').first()).toBeVisible()

    // An inspection by its number: the list is searched for it and its details open.
    const page1 = await app.core.router.dispatch('inspections.query', { limit: 5 })
    if (!page1.ok) throw new Error(page1.error.message)
    const number =
      (page1.value as { rows: { inspectionNum: string }[] }).rows[3]?.inspectionNum ?? ''
    expect(number).not.toBe('')
    await page.keyboard.press('Control+k')
    await page.keyboard.type(number)
    const hit = palette.getByTestId('palette-entry').filter({ hasText: number }).first()
    await expect(hit).toBeVisible()
    await page.screenshot({ path: 'test-results/palette-ko.png' })
    await hit.getByRole('button').click()
    await expect(palette).toBeHidden()
    await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue(number)
    await expect(page.getByTestId('detail-panel')).toContainText(number)

    // The overlay lists the palette's key among the registry's shortcuts.
    await page.getByRole('grid').focus()
    await page.keyboard.press('?')
    const help = page.getByTestId('shortcut-help')
    await expect(help).toBeVisible()
    await expect(help).toContainText('Ctrl+K')
    await expect(help).toContainText('명령 팔레트')
    await page.screenshot({ path: 'test-results/shortcut-help-ko.png' })
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()

    // In English and the dark theme.
    await app.core.router.dispatch('settings.set', { language: 'en', theme: 'dark' })
    await page.reload()
    await expect(page.getByTestId('inspection-row').first()).toBeVisible()
    await page.keyboard.press('Control+k')
    await page.keyboard.type('sync')
    await expect(palette.getByTestId('palette-entry').first()).toContainText('Sync this screen')
    await page.screenshot({ path: 'test-results/palette-en-dark.png' })
    await page.keyboard.press('Escape')
    await expect(palette).toBeHidden()
    await page.getByRole('grid').focus()
    await page.keyboard.press('?')
    await expect(page.getByTestId('shortcut-help')).toBeVisible()
    await expect(page.getByTestId('shortcut-help')).toContainText('Command palette')
    await page.screenshot({ path: 'test-results/shortcut-help-en-dark.png' })
    await app.core.router.dispatch('settings.set', { theme: 'system' })
  })
})
