import { readFileSync } from 'node:fs'
import { test, expect, screenUrl } from './fixtures'
import type { Page } from '@playwright/test'
import { readBack } from '../core/helpers/xlsx-read'

/** Opens the inspections list, synced; answers its rows. */
async function openInspections(page: Page, url: string) {
  await page.goto(screenUrl(url, 'inspections'))
  await expect(page.getByRole('heading', { name: '감정 내역' })).toBeVisible()
  const rows = page.getByTestId('inspection-row')
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  return rows
}

test('exports the filtered list to a CSV that a spreadsheet opens with Korean intact', async ({
  page,
  app,
}) => {
  const rows = await openInspections(page, app.host.url)

  // Mark the first record "needs follow-up", then filter to it and export.
  await page.getByRole('grid').focus()
  await page.keyboard.press('j')
  await page.keyboard.press('f')
  await expect(rows.nth(0).getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
  const product = (await rows.nth(0).getAttribute('data-idx'))!
  await page
    .getByTestId('review-filter')
    .getByRole('tab', { name: /^후속 조치 필요/ })
    .click()
  await expect(rows).toHaveCount(1)

  const download = page.waitForEvent('download')
  await page.getByTestId('export-csv').click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^inspections-sandbox-\d{8}-\d{6}\.csv$/)
  const bytes = readFileSync(await file.path())
  // UTF-8 with a byte-order mark, CRLF line ends.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  const text = bytes.toString('utf8').slice(1)
  const lines = text.split('\r\n').filter(Boolean)
  expect(lines[0]).toMatch(
    /^# 감정 내역 · 검토: 후속 조치 필요 · 정렬: 최신순 · 기준 시각 .* · 1건$/,
  )
  // One label per field: the file's header is the list's column header.
  expect(lines[1]!.split(',')).toContain('검수번호')
  await expect(page.getByRole('columnheader', { name: '검수번호' })).toBeVisible()
  expect(lines).toHaveLength(3)
  expect(lines[2]!.split(',')[0]).toBe(product)
  expect(lines[2]).toContain('후속 조치 필요')
  await expect(page.getByTestId('export-note')).toContainText('1건을')
  await page.screenshot({ path: 'test-results/export-done.png' })
})

test('the first export button writes an Excel workbook: ids as text, times as date cells', async ({
  page,
  app,
}) => {
  const rows = await openInspections(page, app.host.url)
  // Excel first, CSV second.
  const buttons = page.locator('[data-testid^="export-"]:is(button)')
  await expect(buttons.nth(0)).toHaveAttribute('data-testid', 'export-xlsx')
  await expect(buttons.nth(1)).toHaveAttribute('data-testid', 'export-csv')

  const first = (await rows.nth(0).getAttribute('data-idx'))!
  const download = page.waitForEvent('download')
  await page.getByTestId('export-xlsx').click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^inspections-sandbox-\d{8}-\d{6}\.xlsx$/)
  const { cells, sheet } = readBack(readFileSync(await file.path()))
  expect(sheet).toMatch(/<pane [^>]*ySplit="2"[^>]*state="frozen"/u)
  expect(sheet).not.toMatch(/<f[\s>]/u)
  expect(cells.get('A2')).toMatchObject({ type: 's', value: '일련번호' })
  // The first record of the list, its number a text cell.
  expect(cells.get('A3')).toMatchObject({ type: 's', value: first, format: '@' })
  const headers = [...cells.entries()].filter(([address]) => /^[A-Z]+2$/u.test(address))
  const registered = headers.find(([, cell]) => cell.value === '등록일시')![0].replace('2', '3')
  expect(cells.get(registered)).toMatchObject({ type: 'n', format: 'yyyy-mm-dd hh:mm:ss' })
  await expect(page.getByTestId('export-note')).toContainText('.xlsx')

  // Ctrl+E in the list does what the first button does.
  await rows.nth(0).click()
  const again = page.waitForEvent('download')
  await page.keyboard.press('Control+e')
  expect((await again).suggestedFilename()).toMatch(/\.xlsx$/)
})
