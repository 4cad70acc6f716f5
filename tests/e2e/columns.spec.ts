import { cutsOf, type Cut } from './cut-text'
import { call, expect, screenUrl, startApp, testWithApp } from './fixtures'

/**
 * Columns sized by what they hold (docs/renderer.md "Columns"): every list
 * and table, at 1024×700 and 1920×1080, in Korean and English, shows each
 * column header whole, and any cell whose text is still cut carries its
 * full text as a tooltip (`title`); in Korean no status beside its aging
 * flag is cut. Screenshots go to `test-results/`.
 */

const SHOTS = process.env['SHOTS'] ?? 'test-results'

const test = testWithApp(async () => {
  const app = await startApp({ sandbox: { size: 300 } })
  await call(app, 'sync.start', { mode: 'full' })
  await app.core.sync.idle()
  // One wallet link in the history (cancelled at once).
  const started = await call(app, 'wallet.start', { flow: 'pre-sync', refUserId: 'member-columns' })
  await call(app, 'wallet.cancel', { flowId: started.flowId })
  return app
})

test.describe.configure({ mode: 'serial' })

/** Each list: its screen and what marks its rows (the walk waits for one). */
const LISTS = [
  { screen: 'inspections', row: 'inspection-row' },
  { screen: 'guarantees', row: 'guarantee-row' },
  { screen: 'changes', row: 'change-entry' },
  { screen: 'reconcile', row: 'reconcile-row' },
  { screen: 'brands', row: 'brand-row' },
  { screen: 'wallet', row: 'wallet-history-row' },
] as const

for (const language of ['ko', 'en'] as const) {
  for (const size of [
    { width: 1024, height: 700 },
    { width: 1920, height: 1080 },
  ]) {
    test(`${language} at ${size.width}×${size.height}: no header is cut, every cut cell has its tooltip`, async ({
      page,
      app,
    }) => {
      await call(app, 'settings.set', { language })
      await page.setViewportSize(size)
      const problems: Record<string, { headers: Cut[]; cells: Cut[] }> = {}
      for (const list of LISTS) {
        await page.goto(screenUrl(app.host.url, list.screen))
        await expect(page.getByTestId(list.row).first()).toBeVisible()
        const found = await cutsOf(page)
        expect(found.checked, list.screen).toBeGreaterThan(0)
        // In Korean a status beside its aging flag is whole in both record lists, even at 1024 px.
        if (language === 'ko') {
          const statuses = await page
            .locator('[role=gridcell].status')
            .evaluateAll((cells) =>
              cells
                .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
                .map((cell) => (cell.textContent ?? '').trim().replace(/\s+/gu, ' ')),
            )
          expect(statuses, `${list.screen}: statuses cut`).toEqual([])
        }
        if (found.headers.length > 0 || found.cells.length > 0) {
          problems[list.screen] = { headers: found.headers, cells: found.cells.slice(0, 4) }
        }
        await page.screenshot({
          path: `${SHOTS}/columns-${list.screen}-${language}-${size.width}.png`,
        })
      }
      expect(problems).toEqual({})
    })
  }
}
