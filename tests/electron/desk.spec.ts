import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The desk in the real shell, on one fresh user-data folder: every screen
 * (the lazily loaded ones over `app://`), a review mark, a CSV export
 * through the save dialog, the application menu's commands and the palette,
 * then a quit and a relaunch that finds the cached records and the mark.
 * Needs a real Electron binary (`npm run build && npm run test:electron`).
 */
test.describe.configure({ mode: 'serial' })

const userData = mkdtempSync(join(tmpdir(), 'ad-electron-desk-'))
let app: ElectronApplication

async function launch(): Promise<ElectronApplication> {
  return electron.launch({
    args: ['.', `--user-data-dir=${userData}`],
    env: { ...process.env, NODE_ENV: 'production' },
  })
}

/** Every request the window's session makes, by URL. */
const requested: string[] = []

test.beforeAll(async () => {
  app = await launch()
  const page = await app.firstWindow()
  page.on('request', (request) => requested.push(request.url()))
})

test.afterAll(async () => {
  await app?.close()
})

test('sees the sandbox data', async () => {
  const page = await app.firstWindow()
  // The app opens on the dashboard; the inspections list is the next entry.
  await expect(page.getByRole('heading', { level: 1, name: '대시보드' })).toBeVisible()
  await page.getByRole('navigation').getByRole('link', { name: '감정 내역', exact: true }).click()
  await expect(page.getByRole('heading', { name: '감정 내역' })).toBeVisible()
  await expect(page.getByTestId('inspection-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('profile-bar')).toHaveAttribute('data-kind', 'demo')
})

test('opens each screen; the lazily loaded ones come over app://', async () => {
  const page = await app.firstWindow()
  const screens: ReadonlyArray<readonly [link: string, heading: string]> = [
    ['보증서', '보증서'],
    ['지갑 연동', '지갑 연동'],
    ['대사', '대사'],
    ['브랜드', '럭셔리 브랜드'],
    ['받지 못한 기록', '받지 못한 기록'],
    ['계정', '파트너 계정'],
    ['설정', '설정'],
    ['대시보드', '대시보드'],
    ['감정 내역', '감정 내역'],
  ]
  for (const [link, heading] of screens) {
    await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
  }
  const chunks = requested.filter((url) => /\/assets\/[^/]+View-[^/]+\.js$/.test(url))
  expect(chunks.length).toBeGreaterThanOrEqual(7)
  for (const url of chunks) expect(url).toMatch(/^app:\/\/renderer\//)
  expect(requested.filter((url) => url.startsWith('file:'))).toEqual([])
})

test('marks an inspection reviewed', async () => {
  const page = await app.firstWindow()
  const rows = page.getByTestId('inspection-row')
  await rows.first().click()
  await page.getByRole('grid').focus()
  await page.keyboard.press('r')
  await expect(rows.first().getByTestId('review-badge')).toHaveAttribute('data-mark', 'reviewed')
})

test('exports a CSV through the save dialog, owner-only', async () => {
  const page = await app.firstWindow()
  const target = join(userData, 'export.csv')
  // The native dialog cannot be driven: main's dialog answers with the target.
  await app.evaluate(({ dialog }, filePath) => {
    dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as never
  }, target)
  await page.getByRole('button', { name: 'CSV 내보내기' }).click()
  await expect(page.getByText(target, { exact: false })).toBeVisible()
  const csv = readFileSync(target, 'utf8')
  expect(csv.split('\n').length).toBeGreaterThan(10)
  if (process.platform !== 'win32') expect(statSync(target).mode & 0o777).toBe(0o600)
})

test('the application menu runs registry commands in the window', async () => {
  const page = await app.firstWindow()
  await app.evaluate(({ Menu }) =>
    Menu.getApplicationMenu()?.getMenuItemById('go.guarantees')?.click(),
  )
  await expect(page.getByRole('heading', { level: 1, name: '보증서' })).toBeVisible()
  const labels = await app.evaluate(({ Menu }) =>
    (Menu.getApplicationMenu()?.items ?? []).map((item) => item.label),
  )
  expect(labels).toContain('도움말')
  await page.keyboard.press('Control+k')
  await expect(page.getByTestId('command-palette')).toBeVisible()
  await page.keyboard.type('감정')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: '감정 내역' })).toBeVisible()
})

test('quits and relaunches to find the cached data and the mark', async () => {
  await app.close()
  app = await launch()
  const page = await app.firstWindow()
  await page.getByRole('navigation').getByRole('link', { name: '감정 내역', exact: true }).click()
  const rows = page.getByTestId('inspection-row')
  // Shown from the cache: no sync needed for the first rows.
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  await expect(rows.first().getByTestId('review-badge')).toHaveAttribute('data-mark', 'reviewed')
})
