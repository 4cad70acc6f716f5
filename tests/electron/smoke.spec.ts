import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let app: ElectronApplication

test.beforeAll(async () => {
  const userData = mkdtempSync(join(tmpdir(), 'ad-electron-'))
  app = await electron.launch({
    args: ['.', `--user-data-dir=${userData}`],
    env: { ...process.env, NODE_ENV: 'production' },
  })
})

test.afterAll(async () => {
  await app?.close()
})

test('opens on the built-in sandbox and shows the brand list', async () => {
  const page = await app.firstWindow()
  await expect(page.getByRole('heading', { name: '럭셔리 브랜드' })).toBeVisible()
  await expect(page.getByTestId('brand-row').first()).toBeVisible()
  await page.getByRole('searchbox').fill('샤넬')
  await expect(page.getByTestId('brand-row')).toHaveCount(2)
})

test('the renderer sees window.api only, and no Node', async () => {
  const page = await app.firstWindow()
  const surface = await page.evaluate(() => ({
    api: Object.keys((window as unknown as { api: object }).api).sort(),
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
  }))
  expect(surface).toEqual({ api: ['invoke', 'on'], require: 'undefined', process: 'undefined' })
})

test('window.open and navigation away are denied', async () => {
  const page = await app.firstWindow()
  const before = app.windows().length
  await page.evaluate(() => window.open('https://example.com', '_blank'))
  await page.evaluate(() => {
    location.href = 'https://example.com'
  })
  await page.waitForTimeout(500)
  expect(app.windows().length).toBe(before)
  expect(page.url()).toMatch(/^file:/)
})

test('a second launch focuses the running app instead of opening another', async () => {
  const count = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)
  expect(count).toBe(1)
})
