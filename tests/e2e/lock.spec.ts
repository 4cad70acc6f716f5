import type { Page } from '@playwright/test'
import { test, expect, call, screenUrl, type RunningApp } from './fixtures'

/**
 * The app lock in the web host (docs/security.md "The app lock"): it locks
 * on Ctrl+L and after the idle time, hides every record while locked, and
 * unlocks with the PIN; wrong entries make the next one wait.
 */
const PIN = '4826'

/** Opens the guarantees, syncs them, and opens one with its card image loaded; answers its number. */
async function showGuarantee(page: Page, app: RunningApp): Promise<string> {
  await page.goto(screenUrl(app.host.url, 'guarantees'))
  const rows = page.getByTestId('guarantee-row')
  await expect(page.getByTestId('sync-control')).toBeVisible()
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  await rows.first().click()
  const panel = page.getByTestId('detail-panel')
  await expect(panel.getByTestId('card-image')).toHaveAttribute('data-state', 'loaded')
  const listed = await call(app, 'guarantees.query', { limit: 1 })
  const first = listed.rows[0]
  const text = first?.refOrderId ?? first?.productName ?? ''
  expect(text).not.toBe('')
  await expect(panel).toContainText(text)
  return text
}

/** Nothing of the data in the page: no row, no record's text, no image; only the lock screen. */
async function expectNothingShown(page: Page, recordText: string): Promise<void> {
  await expect(page.getByTestId('lock-screen')).toBeVisible()
  expect(await page.getByTestId('guarantee-row').count()).toBe(0)
  expect(await page.locator('img').count()).toBe(0)
  expect(await page.locator('[role="grid"], nav, aside').count()).toBe(0)
  const text = await page.evaluate(() => document.documentElement.outerHTML)
  expect(text).not.toContain(recordText)
}

async function unlock(page: Page, pin: string): Promise<void> {
  await page.getByLabel('PIN 또는 비밀번호').fill(pin)
  await page.getByRole('button', { name: '잠금 해제' }).click()
}

test.describe('the app lock', () => {
  test.afterEach(async ({ app }) => {
    const status = await call(app, 'lock.status', {})
    if (status.locked) await call(app, 'lock.resetByErasing', { confirm: true })
    else if (status.pinSet) await call(app, 'lock.removePin', { current: PIN })
    await call(app, 'settings.set', { lockIdleSeconds: 600 })
  })

  test('set in Settings, it locks on Ctrl+L, hides every record, and unlocks with the PIN', async ({
    page,
    app,
  }) => {
    await page.goto(screenUrl(app.host.url, 'settings'))
    const settings = page.getByTestId('lock-settings')
    await expect(settings).toContainText('PIN이 없어 앱이 잠기지 않습니다')
    await settings.getByLabel('PIN 또는 비밀번호').fill(PIN)
    await settings.getByLabel('한 번 더 입력').fill(PIN)
    await settings.getByRole('button', { name: 'PIN 설정' }).click()
    await expect(settings).toContainText('PIN이 설정되어 있습니다')

    const number = await showGuarantee(page, app)
    await page.keyboard.press('Control+l')
    await expectNothingShown(page, number)
    await expect(page.getByRole('heading', { name: '앱이 잠겨 있습니다' })).toBeVisible()
    await page.screenshot({ path: 'test-results/lock-screen-ko.png' })

    // The page's own calls are refused by core, not only hidden.
    const refused = await page.evaluate(async (token) => {
      const response = await fetch('/ipc/guarantees.query', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-app-token': token },
        body: '{}',
      })
      const answer = (await response.json()) as { ok: boolean; error?: { code: string } }
      return answer.error?.code ?? 'ok'
    }, app.host.token)
    expect(refused).toBe('locked')
    const card = await page.evaluate(async () => (await fetch('/card/f/x.png')).status)
    expect(card).toBe(423)

    await unlock(page, PIN)
    await expect(page.getByTestId('lock-screen')).toBeHidden()
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()
  })

  test('locks by itself after the idle time without input', async ({ page, app }) => {
    await call(app, 'lock.setPin', { pin: PIN })
    const number = await showGuarantee(page, app)
    // The shortest idle time the settings take; the page reports no input from here on.
    await call(app, 'settings.set', { lockIdleSeconds: 5 })
    await expect(page.getByTestId('lock-screen')).toBeVisible({ timeout: 20_000 })
    await expectNothingShown(page, number)
    expect(await call(app, 'lock.status', {})).toMatchObject({ locked: true, reason: 'idle' })
    await unlock(page, PIN)
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()
  })

  test('after five wrong entries the next one must wait, even the right PIN', async ({
    page,
    app,
  }) => {
    await call(app, 'lock.setPin', { pin: PIN })
    await page.goto(screenUrl(app.host.url, 'dashboard'))
    // The window's shortcuts listen once the desk is drawn.
    await expect(page.getByRole('link', { name: '대시보드' })).toBeVisible()
    await page.keyboard.press('Control+l')
    await expect(page.getByTestId('lock-screen')).toBeVisible()
    const message = page.getByTestId('lock-message')
    for (let count = 1; count <= 4; count += 1) {
      await unlock(page, '0000')
      await expect(message).toHaveText(`PIN이 맞지 않습니다. (틀린 횟수: ${count})`)
    }
    await unlock(page, '0000')
    await expect(message).toContainText('잘못 입력한 횟수가 많습니다')
    await expect(page.getByLabel('PIN 또는 비밀번호')).toBeDisabled()
    await page.screenshot({ path: 'test-results/lock-wait-ko.png' })
    // Core refuses the right PIN during the wait, whatever the page does.
    const answer = await app.core.router.dispatch('lock.unlock', { pin: PIN })
    expect(answer).toMatchObject({ ok: false, error: { code: 'locked' } })
    expect(app.core.lock.isLocked()).toBe(true)
    // A forgotten PIN: the secret waits too; erasing the local data resets it at once.
    await page.getByRole('button', { name: 'PIN을 잊으셨나요?' }).click()
    await expect(page.getByLabel('활성 계정의 API 시크릿')).toBeDisabled()
    await page.screenshot({ path: 'test-results/lock-forgot-ko.png' })
    await page.getByLabel('모든 계정의 로컬 데이터와 저장된 키를 지웁니다').check()
    await page.getByRole('button', { name: '로컬 데이터 지우고 초기화' }).click()
    await expect(page.getByTestId('lock-screen')).toBeHidden()
    expect(await call(app, 'lock.status', {})).toMatchObject({ locked: false, pinSet: false })
  })
})
